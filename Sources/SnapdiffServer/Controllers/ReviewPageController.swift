import Hummingbird
import SnapdiffCore

/// The review pages: `/` (the runs) and `/runs/{run}` (one run, with review buttons).
@available(macOS 14, iOS 17, tvOS 17, *)
struct ReviewPageController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get("/", use: runs)
    router.get("/runs/:run", use: run)
  }

  @Sendable func runs(_ request: Request, context: ServerRequestContext) async throws -> Response {
    var query = RunQuery(limit: 100)
    if let offset = request.uri.queryParameters.get("offset").flatMap({ Int($0) }), offset >= 0 {
      query.offset = offset
    }
    let chosen = query
    let list = try await Blocking.run { [service] in try service.list(chosen) }
    return ReviewPage.htmlResponse(ReviewPage.runList(list, authRequired: service.configuration.token != nil))
  }

  @Sendable func run(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let id = try RunsController.runID(context)
    let (record, approvals) = try await Blocking.run { [service] in
      (try service.record(id).1, try service.approvals(run: id).operations)
    }
    return ReviewPage.htmlResponse(
      ReviewPage.run(record, authRequired: service.configuration.token != nil, approvals: approvals))
  }
}
