import Hummingbird
import SnapdiffWire

/// `GET /api/v1/health` (200 while the process serves), `GET /api/v1/ready` (200 when the run
/// index answers and has been rebuilt from the run folders since the start; 503 otherwise, with
/// the reason) and `GET /api/v1/version`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct HealthController {
  let version: String
  let index: any RunIndex

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get(.init(APIPaths.Route.health)) { _, _ in Health() }
    router.get(.init(APIPaths.Route.ready)) { [index] _, _ in
      let problem = try await Blocking.run { index.unreadiness() }
      return EditedResponse(
        status: problem == nil ? .ok : .serviceUnavailable,
        response: Readiness(status: problem == nil ? "ready" : "unavailable", reason: problem))
    }
    router.get(.init(APIPaths.Route.version)) { [version] _, _ in VersionInfo(version: version) }
  }
}
