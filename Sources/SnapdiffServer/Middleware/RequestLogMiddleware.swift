import Hummingbird
import Logging

/// One structured log line per request, through swift-log, once it is answered: method, path,
/// route pattern, status, duration and the request id (Hummingbird's `hb.request.id`), as
/// metadata that a log collector can parse (`… info snapdiff.requests : duration_ms=4.2
/// hb.request.id=… method=PUT path=/api/v1/runs/… route=/api/v1/runs/{run}/snapshots/** status=200
/// [snapdiff] request`). Written to standard error at `info`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RequestLogMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  let logger: Logger

  init(level: Logger.Level) {
    var logger = Logger(label: "snapdiff.requests") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = level
    self.logger = logger
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    try await RequestTiming.answer(request, context, next: next) { status, nanoseconds in
      log(request, context, status: status, nanoseconds: nanoseconds)
    }
  }

  private func log(_ request: Request, _ context: Context, status: Int, nanoseconds: UInt64) {
    let milliseconds = Double(nanoseconds) / 1e6
    var metadata: Logger.Metadata = [
      "method": .string(request.method.rawValue),
      "path": .string(request.uri.path),
      "route": .string(Self.route(context, status: status)),
      "status": .stringConvertible(status),
      "duration_ms": .string(String(Double((milliseconds * 10).rounded()) / 10)),
    ]
    if let id = context.logger[metadataKey: "hb.request.id"] { metadata["request_id"] = id }
    logger.log(level: status >= 500 ? .error : .info, "request", metadata: metadata)
  }

  /// The route pattern the request matched (`/api/v1/runs/{run}`), or what stands for it when
  /// none did: the same few values whatever the path, so metrics make no series per key.
  static func route(_ context: Context, status: Int) -> String {
    context.endpointPath ?? (status == 404 ? "unmatched" : "none")
  }
}
