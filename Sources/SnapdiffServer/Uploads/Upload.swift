import Hummingbird
import SnapdiffCore

/// Request bodies, read a piece at a time and refused (413) the moment they pass their limit:
/// a client that declares a larger `Content-Length` is refused before anything is read, one that
/// sends more than it declared (or declares nothing) is cut off at the limit.
@available(macOS 14, iOS 17, tvOS 17, *)
enum Upload {
  /// Hands `request`'s body to `consume` piece by piece as it arrives.
  ///
  /// - Parameter what: the body as the 413 names it (`the request body`, `the element tree`).
  /// - Throws: `APIError.tooLarge` (413) over `limit`, or what `consume` throws.
  static func read(
    _ request: Request, limit: Int, what: String, option: String? = nil, _ consume: (ByteBuffer) throws -> Void
  ) async throws {
    if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
      throw APIError.tooLarge(what, limit: limit, option: option)
    }
    var received = 0
    for try await buffer in request.body {
      received += buffer.readableBytes
      if received > limit { throw APIError.tooLarge(what, limit: limit, option: option) }
      try consume(buffer)
    }
  }

  /// Receives `request`'s body into a file under `directory` as it arrives, and returns its
  /// bytes (at most `limit` of them); the file is gone when this returns.
  ///
  /// - Throws: `APIError.tooLarge` (413) over the limit.
  static func receive(
    _ request: Request, limit: Int, what: String, option: String? = nil, into directory: String
  ) async throws -> [UInt8] {
    let file = try await Blocking.run { try UploadFile(in: directory) }
    defer { file.discard() }
    try await read(request, limit: limit, what: what, option: option) { buffer in
      try buffer.withUnsafeReadableBytes { try file.append($0) }
    }
    return try await Blocking.run { try file.readAll(limit: limit) }
  }

  /// A `multipart/form-data` body, parsed as it arrives: each part is refused the moment it
  /// passes its own limit (`partLimit`), the whole body at `limit`.
  ///
  /// - Throws: 413 naming the part or the body over its limit; 400 for a malformed body or a
  ///   part `partLimit` does not know.
  static func receiveMultipart(
    _ request: Request, contentType: String, limit: Int, partLimit: @escaping @Sendable (String) -> Int?
  ) async throws -> MultipartForm {
    var reader = try multipart { try MultipartForm.Reader(contentType: contentType, partLimit: partLimit) }
    try await read(request, limit: limit, what: "the request body", option: "--max-upload-mb") { buffer in
      try multipart { try reader.consume(buffer.readableBytesView) }
    }
    return try multipart { try reader.finish() }
  }

  /// `body`, its multipart errors as API errors: 413 for a part over its limit, 400 otherwise.
  static func multipart<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as MultipartError {
      if let (part, limit) = error.tooLarge {
        throw APIError.tooLarge("the '\(part)' part", limit: limit, option: nil)
      }
      if let name = error.unknownPart {
        throw APIError.badRequest("unknown part '\(name)': send frame (PNG), tree and settings (JSON)")
      }
      throw APIError.badRequest(error.description)
    }
  }
}
