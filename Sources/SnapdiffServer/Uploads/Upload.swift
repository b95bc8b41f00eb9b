import Hummingbird
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request body received into a file under the uploads folder as it arrives, never more than
/// the limit: a client that declares a larger `Content-Length` is refused before anything is
/// read, one that sends more than it declared (or declares nothing) is cut off at the limit.
@available(macOS 14, iOS 17, tvOS 17, *)
enum Upload {
  /// Receives `request`'s body and returns its bytes (at most `limit` of them); the file is gone
  /// when this returns.
  ///
  /// - Throws: `APIError.tooLarge` (413) over the limit.
  static func receive(_ request: Request, limit: Int, into directory: String) async throws -> [UInt8] {
    if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
      throw APIError.tooLarge(limit: limit)
    }
    let file = try await Blocking.run { try UploadFile(in: directory) }
    defer { file.discard() }
    var received = 0
    for try await buffer in request.body {
      received += buffer.readableBytes
      if received > limit { throw APIError.tooLarge(limit: limit) }
      try buffer.withUnsafeReadableBytes { try file.append($0) }
    }
    return try await Blocking.run { try file.readAll(limit: limit) }
  }
}

/// A temporary file, open for writing, removed by `discard()`.
final class UploadFile: @unchecked Sendable {
  let path: String
  private var descriptor: Int32

  init(in directory: String) throws {
    try FileSystem.createDirectories(directory)
    var template = Array((directory + "/upload-XXXXXX").utf8CString)
    descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard descriptor >= 0 else {
      throw FileError(path: directory, message: "cannot create an upload file: \(String(cString: strerror(errno)))")
    }
  }

  func append(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw FileError(path: path, message: "cannot write the upload: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  func readAll(limit: Int) throws -> [UInt8] {
    close(descriptor)
    descriptor = -1
    return try SnapdiffCore.FileIO.read(path, limit: limit)
  }

  func discard() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    unlink(path)
  }
}
