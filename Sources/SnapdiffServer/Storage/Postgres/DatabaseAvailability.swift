import Dispatch
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Whether the service's PostgreSQL database can be reached, found out in about a second: what
/// turns a stopped database into an answer at once (503 with `Retry-After`) instead of requests
/// that wait for the pool's 15 s query limit, or a lock's 120 s.
///
/// The connection pool alone cannot tell: with the server gone, a query waits in its queue while
/// it retries connecting. So a query that has no answer after ``patience``, or that fails on its
/// connection, asks for a probe: a connection of its own, opened within ``connectLimit``
/// (refused at once when nothing listens). A probe's answer stands for ``answerLifetime``: while
/// a failed one stands, queries are refused before they are sent; once it has expired the next
/// query tries again, so the service recovers by itself when the database is back.
@available(macOS 14, iOS 17, tvOS 17, *)
final class DatabaseAvailability: Sendable {
  let location: DatabaseURL
  let logger: Logger
  /// How long a query runs before its slowness is taken as a sign of a database gone.
  static let patience: Duration = .milliseconds(500)
  /// How long a probe may take to connect (a host that drops packets, rather than refusing).
  static let connectLimit: Duration = .seconds(1)
  /// How long a probe's answer stands.
  static let answerLifetime: Duration = .milliseconds(500)
  /// Seconds clients are asked to wait before they try again (`Retry-After`).
  static let retryAfterSeconds = 2

  private struct Answer {
    var time: ContinuousClock.Instant
    /// Why the database cannot be reached; nil: it can.
    var unreachable: String?
  }

  private let last = NIOLockedValueBox<Answer?>(nil)

  init(location: DatabaseURL, logger: Logger) {
    self.location = location
    self.logger = logger
  }

  /// The reason of the last probe while it stands and found the database unreachable: a query
  /// is refused at once.
  func knownUnreachable() -> DatabaseUnavailable? {
    guard let answer = last.withLockedValue({ $0 }), let reason = answer.unreachable,
      answer.time.duration(to: .now) < Self.answerLifetime
    else { return nil }
    return DatabaseUnavailable(reason: reason)
  }

  /// Whether the database can be reached now: the standing answer, or a new probe. Blocks the
  /// calling thread (never call it from a task) for at most ``connectLimit``.
  func check() -> DatabaseUnavailable? {
    if let answer = last.withLockedValue({ $0 }), answer.time.duration(to: .now) < Self.answerLifetime {
      return answer.unreachable.map(DatabaseUnavailable.init(reason:))
    }
    let box = NIOLockedValueBox<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let reason = await self.probe()
      box.withLockedValue { $0 = reason }
      done.signal()
    }
    done.wait()
    let reason = box.withLockedValue { $0 }
    let changed = last.withLockedValue { answer -> Bool in
      let was = answer?.unreachable
      answer = Answer(time: .now, unreachable: reason)
      return (was == nil) != (reason == nil)
    }
    if changed {
      if let reason {
        logger.error("database unavailable: \(reason); requests are answered 503 until it is back")
      } else {
        logger.notice("database \(location.shown) answers again")
      }
    }
    return reason.map(DatabaseUnavailable.init(reason:))
  }

  /// Connects once, on a connection of its own: nil when it succeeds, else why not.
  private func probe() async -> String? {
    do {
      let connection = try await PostgresDatabase.withTimeout(Self.connectLimit) { [location, logger] in
        try await PostgresConnection.connect(configuration: location.connectionConfiguration, id: 0, logger: logger)
      }
      try? await connection.close()
      return nil
    } catch is DatabaseTimeout {
      return
        "the PostgreSQL database \(location.shown) does not answer: no connection within \(Self.connectLimit.components.seconds) s"
    } catch {
      return "the PostgreSQL database \(location.shown) does not answer: \(PostgresDatabase.describe(error))"
    }
  }

  /// Whether `error` came from the connection rather than from the query: a connection lost or
  /// refused, the pool giving up connecting, or a server that is shutting down or starting
  /// (SQLSTATE class 57, 08).
  static func isConnectionFailure(_ error: any Error) -> Bool {
    if error is DatabaseTimeout { return true }
    // The pool's own error (its circuit breaker tripped after failing to connect): a type of a
    // module PostgresNIO does not export, known by its name.
    if String(describing: type(of: error)) == "ConnectionPoolError" { return true }
    guard let error = error as? PSQLError else { return false }
    switch error.code {
    case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
      return true
    case .server:
      let state = error.serverInfo?[.sqlState] ?? ""
      return state.hasPrefix("57") || state.hasPrefix("08")
    default:
      return false
    }
  }
}

/// The database cannot be reached: answered 503 with `Retry-After` (`APIError`).
struct DatabaseUnavailable: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}
