import Hummingbird
import NIOHTTP1

/// Turns every error into a response with a fitting status: JSON
/// (`{"error": {"message": …, "status": …}}`) under `/api/`, a small HTML page elsewhere (the
/// review page's routes). Unknown routes get a message that names them.
///
/// An unexpected error (500) is logged whole. Every answer names the server's own folders by
/// their role (`<data>/runs/…`, `<baselines>/…`) rather than by their absolute paths
/// (``ShownPaths``). A malformed request (a bad chunk size…) is left to Hummingbird, which
/// answers 400 and closes the connection: the rest of it cannot be read.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ErrorMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  let shown: ShownPaths

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPParserError {
      throw error
    } catch {
      var apiError = APIError(error)
      if let httpError = error as? HTTPError, httpError.status == .notFound, httpError.body == nil {
        apiError.message = "no route \(request.method) \(request.uri.path)"
      }
      if apiError.status.code >= 500 {
        context.logger.error("\(request.method) \(request.uri.path): \(apiError.message)")
      }
      apiError.message = shown.hide(apiError.message)
      if request.uri.path.hasPrefix(APIPaths.prefix + "/") || request.uri.path == APIPaths.prefix {
        return try apiError.response(from: request, context: context)
      }
      return ReviewPage.errorPage(apiError)
    }
  }
}
