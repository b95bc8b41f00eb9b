import Hummingbird
import SnapdiffCore

/// Sends HTML, JSON, JavaScript and CSS gzip-compressed when the client accepts it
/// (`Accept-Encoding: gzip`): a run page of 1,000 snapshots is about a twentieth of its size.
/// Bodies under 1 KiB, over 64 MiB, already encoded, and images (PNG is compressed already)
/// go as they are; every response that could have been compressed says `Vary: Accept-Encoding`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CompressionMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  /// Smaller bodies gain less than the header costs.
  static let minimumBytes = 1024
  /// Larger ones are sent as they are rather than held in memory whole.
  static let maximumBytes = 64 << 20

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response = try await next(request, context)
    guard Self.isCompressible(response.headers[.contentType]), response.headers[.contentEncoding] == nil,
      response.status.code == 200 || response.status.code >= 400
    else { return response }
    response.headers[.vary] = "Accept-Encoding"
    guard Self.acceptsGzip(request.headers[.acceptEncoding]) else { return response }
    if let length = response.body.contentLength, length < Self.minimumBytes || length > Self.maximumBytes {
      return response
    }
    let collected = CollectedBody()
    let body = response.body
    try await body.write(collected)
    let bytes = collected.bytes
    guard bytes.count >= Self.minimumBytes, bytes.count <= Self.maximumBytes else {
      response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
      return response
    }
    let compressed = try await Blocking.run { try Gzip.compress(bytes) }
    response.headers[.contentEncoding] = "gzip"
    response.headers[.contentLength] = String(compressed.count)
    response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: compressed))
    return response
  }

  /// HTML, JSON, JavaScript, CSS and plain text.
  static func isCompressible(_ contentType: String?) -> Bool {
    guard let type = contentType?.split(separator: ";").first?.trimmingSpaces.lowercased() else { return false }
    return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json")
      || type == "application/javascript" || type == "application/yaml"
  }

  /// Whether `Accept-Encoding` names gzip (or `*`) with a quality above 0.
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
      guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      if quality > 0 { return true }
    }
    return false
  }
}

/// A response body's bytes as written, kept whole.
private final class CollectedBody: ResponseBodyWriter, @unchecked Sendable {
  var bytes: [UInt8] = []

  func write(_ buffer: ByteBuffer) async throws {
    bytes += buffer.readableBytesView
  }

  func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
