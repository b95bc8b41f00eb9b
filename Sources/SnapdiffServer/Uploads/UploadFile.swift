import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Apart from `Upload` (Upload.swift), so that it compiles without Hummingbird:
// scripts/fuzz/harness/fuzz-request.swift writes fuzz bodies through it.

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
