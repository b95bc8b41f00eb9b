import Hummingbird
import SnapdiffCore

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
