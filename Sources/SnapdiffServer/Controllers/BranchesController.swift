import Hummingbird
import SnapdiffCore
import SnapdiffWire

/// `/api/v1/branches`: the branch overlays of the server's store, their merge into it and their
/// discarding (`BranchOverlay`). The branch name is the rest of the path before `/merge`, percent-decoded
/// (`feature%2Flogin` or `feature/login`).
@available(macOS 14, iOS 17, tvOS 17, *)
struct BranchesController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get(.init(APIPaths.Route.branches), use: list)
    router.post(.init(APIPaths.Route.branch), use: branchAction)
  }

  /// `POST /api/v1/branches/{branch}/merge` or `…/discard`.
  @Sendable func branchAction(_ request: Request, context: ServerRequestContext) async throws -> Response {
    guard let (raw, action) = SnapshotsController.split(try SnapshotsController.tail(context)),
      action == "merge" || action == "discard"
    else {
      throw APIError.notFound("POST …/branches/{branch}/merge or …/discard")
    }
    guard let branch = APIPaths.decode(raw) else {
      throw APIError.badRequest("the branch '\(raw)' is not valid percent-encoded UTF-8")
    }
    if action == "discard" {
      let answer = try await Blocking.run { [service] in try service.discard(branch: branch) }
      return try answer.response(from: request, context: context)
    }
    return try await merge(request, context: context).response(from: request, context: context)
  }

  /// `GET /api/v1/branches`
  @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> BranchList {
    try await Blocking.run { [service] in service.branches() }
  }

  /// `POST /api/v1/branches/{branch}/merge` (`?dryRun=true` changes nothing)
  @Sendable func merge(_ request: Request, context: ServerRequestContext) async throws -> BranchMergeResponse {
    guard let (raw, action) = SnapshotsController.split(try SnapshotsController.tail(context)), action == "merge" else {
      throw APIError.notFound("POST …/branches/{branch}/merge")
    }
    guard let branch = APIPaths.decode(raw) else {
      throw APIError.badRequest("the branch '\(raw)' is not valid percent-encoded UTF-8")
    }
    let dryRun = request.uri.queryParameters.get("dryRun") == "true"
    return try await Blocking.run { [service] in try service.merge(branch: branch, dryRun: dryRun) }
  }
}
