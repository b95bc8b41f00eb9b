import Hummingbird

/// `GET /api/v1/health` (200 once the index is open and synchronised: the server only listens
/// after that) and `GET /api/v1/version`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct HealthController {
  let version: String

  func addRoutes(to group: RouterGroup<ServerRequestContext>) {
    group.get("health") { _, _ in Health() }
    group.get("version") { [version] _, _ in VersionInfo(version: version) }
  }
}
