import Dispatch
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
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      let response = try await next(request, context)
      record(request, context, status: Int(response.status.code), since: start)
      return response
    } catch {
      record(request, context, status: Int((error as? any HTTPResponseError)?.status.code ?? 500), since: start)
      throw error
    }
  }

  private func record(_ request: Request, _ context: Context, status: Int, since start: UInt64) {
    metrics.request(
      method: request.method.rawValue, route: RequestLogMiddleware.route(context, status: status), status: status,
      nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
  }
}
