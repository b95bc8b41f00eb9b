import Hummingbird
import SnapdiffCore
import SnapdiffWire

/// `GET /api/v1/runs/{run}/approvals` (the run's approval operations) and
/// `POST /api/v1/approvals/{operation}/undo` (one operation undone whole, in one request).
@available(macOS 14, iOS 17, tvOS 17, *)
struct ApprovalsController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get(.init(APIPaths.Route.approvals), use: list)
    router.post(.init(APIPaths.Route.undoOperation), use: undo)
  }

  /// `GET /api/v1/runs/{run}/approvals`
  @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> ApprovalList {
    let id = try RunsController.runID(context)
    return try await Blocking.run { [service] in try service.approvals(run: id) }
  }

  /// `POST /api/v1/approvals/{operation}/undo`
  @Sendable func undo(_ request: Request, context: ServerRequestContext) async throws -> ApprovalUndoResponse {
    let raw = try context.parameters.require(APIPaths.Route.operationParameter)
    guard let id = APIPaths.decode(raw[...]), !id.isEmpty, id.utf8.count <= 64 else {
      throw APIError.badRequest("the operation id '\(raw)' is not valid")
    }
    return try await Blocking.run { [service] in try service.undo(operation: id) }
  }
}
