import Hummingbird

/// Turns every error into a response with a fitting status: JSON
/// (`{"error": {"message": …, "status": …}}`) under `/api/`, a small HTML page elsewhere (the
/// review page's routes). Unknown routes get a message that names them.
///
/// An unexpected error (500) is logged whole, and answered with the server's own folders named
/// by their role (`<data>/runs/…`, `<baselines>/…`) rather than by their absolute paths.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ErrorMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  /// Absolute folders and the names they are shown by, longest first.
  let shownFolders: [(path: String, name: String)]

  init(dataDirectory: String, baselines: String) {
    shownFolders = [(dataDirectory, "<data>"), (baselines, "<baselines>")].sorted { $0.0.count > $1.0.count }
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      var apiError = APIError(error)
      if let httpError = error as? HTTPError, httpError.status == .notFound, httpError.body == nil {
        apiError.message = "no route \(request.method) \(request.uri.path)"
      }
      if apiError.status.code >= 500 {
        context.logger.error("\(request.method) \(request.uri.path): \(apiError.message)")
        for folder in shownFolders {
          apiError.message = apiError.message.replacing(folder.path + "/", with: folder.name + "/")
        }
      }
      if request.uri.path.hasPrefix(APIPaths.prefix + "/") || request.uri.path == APIPaths.prefix {
        return try apiError.response(from: request, context: context)
      }
      return ReviewPage.errorPage(apiError)
    }
  }
}
