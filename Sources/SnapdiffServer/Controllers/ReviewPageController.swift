import Hummingbird
import SnapdiffCore

/// The review pages: `/` (the runs; `?branch=` those of one branch), `/runs/{run}` (one run,
/// with review buttons) and `/branches` (the branch overlays, with merge and discard).
@available(macOS 14, iOS 17, tvOS 17, *)
struct ReviewPageController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get("/", use: runs)
    router.get("/runs/:run", use: run)
    router.get("/branches", use: branches)
  }

  @Sendable func branches(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let overviews = try await Blocking.run { [service] in service.branchOverviews() }
    return ReviewPage.htmlResponse(ReviewPage.branchList(overviews, authRequired: service.configuration.token != nil))
  }

  @Sendable func runs(_ request: Request, context: ServerRequestContext) async throws -> Response {
    var query = RunQuery(limit: 100)
    if let offset = request.uri.queryParameters.get("offset").flatMap({ Int($0) }), offset >= 0 {
      query.offset = offset
    }
    if let branch = request.uri.queryParameters.get("branch"), !branch.isEmpty { query.branch = branch }
    let chosen = query
    let (list, columns) = try await Blocking.run { [service] in
      let list = try service.list(chosen)
      return (list, service.branchColumns(list.runs))
    }
    return ReviewPage.htmlResponse(
      ReviewPage.runList(
        list, branches: columns, branch: chosen.branch, authRequired: service.configuration.token != nil))
  }

  @Sendable func run(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let id = try RunsController.runID(context)
    let (record, flaky, overlay, approvals) = try await Blocking.run { [service] in
      let (_, record) = try service.record(id)
      return (
        record, try service.flakyKeys(), record.branch.flatMap { service.overview(of: $0) },
        try service.approvals(run: id).operations
      )
    }
    return ReviewPage.htmlResponse(
      ReviewPage.run(
        record, overlay: overlay, authRequired: service.configuration.token != nil, flakyKeys: flaky,
        approvals: approvals))
  }
}
