import Hummingbird
import HummingbirdCore
import ServiceLifecycle
import SnapdiffCore
import SnapdiffWire

/// The `snapdiff serve` application: the index opened and synchronised with the run folders,
/// the router built, bound to the configured address.
///
/// ```swift
/// let app = try await buildApplication(configuration)
/// try await app.runService()          // until SIGINT or SIGTERM
/// ```
///
/// - Throws: `ServerConfigurationError` for a configuration that cannot work (a non-loopback
///   host without a token…), or the error opening the data folder or the index.
@available(macOS 14, iOS 17, tvOS 17, *)
public func buildApplication(_ configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
  try configuration.validate()
  if let database = configuration.database {
    // Reachable, and its schema brought up to date, before anything listens.
    try await PostgresDatabase.prepare(database)
  }
  let service = try await Blocking.run {
    let service = try RunService(configuration: configuration)
    if service.postgres == nil { try service.index.synchronize() }
    return service
  }
  var services: [any Service] = []
  if let postgres = service.postgres {
    // The pool runs beside the server (stopped after it, once requests in flight are done);
    // the index is rebuilt from the shared folders once it runs (`ready` says so until then).
    services.append(postgres.client)
    Task {
      do {
        _ = try await Blocking.run { try service.index.synchronize() }
      } catch {
        postgres.logger.error("the run index could not be rebuilt: \(PostgresDatabase.describe(error))")
      }
    }
  }
  let maxUploadBytes = configuration.maxUploadBytes
  let registry = ConnectionRegistry(limit: ConnectionRegistry.fitting(configuration.maxConnections))
  return Application(
    router: buildRouter(service),
    // HTTP/1 with `100 Continue` for clients that wait for it (curl over 1 MiB), and the
    // connection guard: header and idle timeouts, the connection cap.
    server: .guardedHTTP1(
      configuration: HTTP1Channel.Configuration(
        additionalChannelHandlers: [ExpectContinueHandler(maxBodyBytes: maxUploadBytes)]),
      registry: registry, headerTimeout: configuration.headerTimeout, idleTimeout: configuration.idleTimeout),
    configuration: ApplicationConfiguration(
      address: .hostname(configuration.host, port: configuration.port),
      serverName: "snapdiff/\(configuration.version)"),
    services: services,
    onServerRunning: { channel in
      await configuration.onServerRunning?(channel.localAddress?.port ?? configuration.port)
    })
}

/// The routes: the API under `/api/v1`, the review pages at `/` and `/runs/{run}`, `/metrics`;
/// every request timed and logged (`RequestMetricsMiddleware`, `RequestLogMiddleware`). Errors
/// become JSON (or an HTML page off the API); access rules apply before any route.
@available(macOS 14, iOS 17, tvOS 17, *)
func buildRouter(_ service: RunService) -> Router<ServerRequestContext> {
  let router = Router(context: ServerRequestContext.self)
  // Outermost: they see the status the error middleware answers.
  router.add(middleware: RequestLogMiddleware(level: service.configuration.logRequests ? .info : .critical))
  router.add(middleware: RequestMetricsMiddleware(metrics: service.metrics))
  // Outside the error middleware: its JSON errors are compressed too.
  router.add(middleware: CompressionMiddleware())
  router.add(middleware: ErrorMiddleware(shown: service.shownPaths))
  router.add(
    middleware: AccessMiddleware(token: service.configuration.token, privateReads: service.configuration.privateReads))
  // The API's routes are SnapdiffWire's templates (`APIPaths.Route`), as its clients build them.
  HealthController(version: service.configuration.version, index: service.index).addRoutes(to: router)
  RunsController(service: service).addRoutes(to: router)
  SnapshotsController(service: service).addRoutes(to: router)
  BaselinesController(service: service).addRoutes(to: router)
  BranchesController(service: service).addRoutes(to: router)
  NoiseController(service: service).addRoutes(to: router)
  ApprovalsController(service: service).addRoutes(to: router)
  ReviewPageController(service: service).addRoutes(to: router)
  MetricsController(service: service).addRoutes(to: router)
  return router
}

/// Builds the application and serves until SIGINT or SIGTERM (requests in flight finish first):
/// what `snapdiff serve` runs.
///
/// - Throws: what ``buildApplication(_:)`` throws, or a `ServerConfigurationError` naming the
///   address when the server cannot listen (the port is taken…).
@available(macOS 14, iOS 17, tvOS 17, *)
public func runApplication(_ configuration: ServerConfiguration) async throws {
  let app = try await buildApplication(configuration)
  do {
    try await app.runService()
  } catch {
    throw ServerConfigurationError("cannot serve on \(configuration.host):\(configuration.port): \(error)")
  }
}
