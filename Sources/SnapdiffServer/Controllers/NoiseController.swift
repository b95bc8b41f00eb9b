import Hummingbird
import SnapdiffCore
import SnapdiffWire

/// Known noise and flaky snapshots: `POST /api/v1/runs/{run}/noise` (approve differences as
/// noise, with the selectors of approve), `GET /api/v1/noise`, `POST /api/v1/noise/remove`, and
/// `GET /api/v1/flaky`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct NoiseController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.post(.init(APIPaths.Route.approveAsNoise), use: approveAsNoise)
    router.get(.init(APIPaths.Route.noise), use: list)
    router.post(.init(APIPaths.Route.removeNoise), use: remove)
    router.get(.init(APIPaths.Route.flaky), use: flaky)
  }

  /// `POST /api/v1/runs/{run}/noise` `{"keys": […], "failed", "sameAs", "difference", "dryRun"}`
  @Sendable func approveAsNoise(_ request: Request, context: ServerRequestContext) async throws -> ReviewResult {
    let id = try RunsController.runID(context)
    let body = try await JSONBody.decode(ReviewRequest.self, from: request)
    if body.all == true || body.new == true {
      throw APIError.badRequest(
        "only a difference from a baseline can be noise: \"keys\", \"failed\", \"sameAs\" or \"difference\"")
    }
    return try await Blocking.run { [service] in
      try service.approveAsNoise(run: id, selection: body.selection, dryRun: body.dryRun ?? false)
    }
  }

  /// `GET /api/v1/noise?key=&environment=&branch=`
  @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> KnownNoiseList {
    let parameters = request.uri.queryParameters
    var key: SnapshotKey?
    if let raw = parameters.get("key") {
      do {
        key = try SnapshotKey(raw)
      } catch {
        throw APIError.unprocessable(error.description)
      }
    }
    let chosen = key
    let environment = parameters.get("environment")
    let branch = parameters.get("branch")
    return try await Blocking.run { [service] in
      try service.noise(key: chosen, environment: environment, branch: branch)
    }
  }

  /// `POST /api/v1/noise/remove` (`RemoveNoiseRequest`)
  @Sendable func remove(_ request: Request, context: ServerRequestContext) async throws -> KnownNoiseList {
    let body = try await JSONBody.decode(RemoveNoiseRequest.self, from: request)
    return try await Blocking.run { [service] in try service.removeNoise(body) }
  }

  /// `GET /api/v1/flaky?runs=50&branch=`
  @Sendable func flaky(_ request: Request, context: ServerRequestContext) async throws -> FlakyList {
    let parameters = request.uri.queryParameters
    var runs = 50
    if let text = parameters.get("runs") {
      guard let value = Int(text), (2...500).contains(value) else {
        throw APIError.badRequest("'runs' must be a number from 2 to 500")
      }
      runs = value
    }
    let branch = parameters.get("branch")
    let newest = runs
    return try await Blocking.run { [service] in try service.flaky(runs: newest, branch: branch) }
  }
}
