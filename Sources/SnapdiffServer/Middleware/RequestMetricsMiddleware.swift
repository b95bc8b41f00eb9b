import Hummingbird

/// Times every request into `snapdiff_http_request_duration_seconds` (`ServiceMetrics`): by
/// method, route pattern and the status answered (an error's status, as the error middleware
/// inside this one answers it).
@available(macOS 14, iOS 17, tvOS 17, *)
struct RequestMetricsMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  let metrics: ServiceMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    try await RequestTiming.answer(request, context, next: next) { status, nanoseconds in
      metrics.request(
        method: request.method.rawValue, route: RequestLogMiddleware.route(context, status: status), status: status,
        nanoseconds: nanoseconds)
    }
  }
}
