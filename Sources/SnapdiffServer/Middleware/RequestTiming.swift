import Dispatch
import Hummingbird

/// What the request log and the request metrics both take from a request: the status answered
/// (an error's own status as the error middleware inside answers it, else 500) and how long the
/// answer took.
@available(macOS 14, iOS 17, tvOS 17, *)
enum RequestTiming {
  /// Answers `request` with `next`, then tells `finished` the status and the nanoseconds taken.
  static func answer(
    _ request: Request, _ context: ServerRequestContext,
    next: (Request, ServerRequestContext) async throws -> Response,
    finished: (_ status: Int, _ nanoseconds: UInt64) -> Void
  ) async throws -> Response {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      let response = try await next(request, context)
      finished(Int(response.status.code), DispatchTime.now().uptimeNanoseconds &- start)
      return response
    } catch {
      finished(
        Int((error as? any HTTPResponseError)?.status.code ?? 500), DispatchTime.now().uptimeNanoseconds &- start)
      throw error
    }
  }
}
