import Hummingbird
import SnapdiffCore
import SnapdiffWire

/// `/api/v1/baselines/{key}/history` and `…/undo`: a baseline's approvals over time, and the
/// undo of the newest one. The key is the rest of the path, as for snapshots
/// (`Home%20-%20test%2FHome`); `?environment=NAME` picks an environment folder, `?branch=NAME`
/// a branch's overlay.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BaselinesController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get(.init(APIPaths.Route.baselines), use: history)
    router.post(.init(APIPaths.Route.baselines), use: undo)
  }

  /// `GET …/baselines/{key}/history`
  @Sendable func history(_ request: Request, context: ServerRequestContext) async throws -> BaselineHistoryResponse {
    let key = try Self.key(context, action: "history")
    let environment = request.uri.queryParameters.get("environment")
    let branch = request.uri.queryParameters.get("branch")
    return try await Blocking.run { [service] in try service.history(of: key, environment: environment, branch: branch)
    }
  }

  /// `POST …/baselines/{key}/undo`
  @Sendable func undo(_ request: Request, context: ServerRequestContext) async throws -> BaselineUndoResponse {
    let key = try Self.key(context, action: "undo")
    let environment = request.uri.queryParameters.get("environment")
    let branch = request.uri.queryParameters.get("branch")
    return try await Blocking.run { [service] in try service.undo(key, environment: environment, branch: branch) }
  }

  /// The key before the last segment, which must be `action`.
  static func key(_ context: ServerRequestContext, action: String) throws -> SnapshotKey {
    guard let (raw, last) = SnapshotsController.split(try SnapshotsController.tail(context)), last == action else {
      throw APIError.notFound("GET …/baselines/{key}/history or POST …/baselines/{key}/undo")
    }
    return try SnapshotsController.key(raw)
  }
}
