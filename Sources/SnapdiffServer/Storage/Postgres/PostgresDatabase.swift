import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import SnapdiffCore

/// The service's PostgreSQL database (`snapdiff serve --database postgres://…`): one connection
/// pool (`PostgresClient`, run beside the HTTP server as one of its services) that the run index
/// (`PostgresRunIndex`), the runs' records (`PostgresSnapshotRecords`) and the advisory locks
/// (`AdvisoryLocks`) share.
///
/// The service's handlers call blocking code on threads of the server's own (`Blocking`,
/// `WorkPool`), never on Swift's cooperative pool; `wait` bridges that code to the client, which
/// is async: the query runs in a task on the cooperative pool while the calling thread waits for
/// its answer. Never call `wait` from a task.
@available(macOS 14, iOS 17, tvOS 17, *)
final class PostgresDatabase: Sendable {
  let client: PostgresClient
  let location: DatabaseURL
  let logger = Logger(label: "snapdiff.postgres")
  /// How long one query may take (a database that stopped answering, a lock wait aside).
  static let queryTimeout: Duration = .seconds(15)
  /// Whether the database can be reached: a query to a database gone is refused within about a
  /// second (`DatabaseUnavailable`), not after `queryTimeout`.
  let availability: DatabaseAvailability

  init(_ location: DatabaseURL, maximumConnections: Int) {
    self.location = location
    availability = DatabaseAvailability(location: location, logger: logger)
    var configuration = location.clientConfiguration
    configuration.options.maximumConnections = maximumConnections
    configuration.options.connectTimeout = .seconds(5)
    client = PostgresClient(configuration: configuration, backgroundLogger: logger)
  }

  /// Connects once (naming the host and port in the error when it cannot), and brings the schema
  /// up to date (`PostgresSchema`): what start-up does before the server listens.
  ///
  /// - Throws: `ServerConfigurationError` naming the database and the cause.
  static func prepare(_ location: DatabaseURL) async throws {
    let logger = Logger(label: "snapdiff.postgres")
    let connection: PostgresConnection
    do {
      connection = try await withTimeout(.seconds(10)) {
        try await PostgresConnection.connect(
          configuration: location.connectionConfiguration, id: 1, logger: logger)
      }
    } catch {
      throw ServerConfigurationError(
        "cannot reach the PostgreSQL database \(location.shown): \(describe(error))")
    }
    defer { Task { try? await connection.close() } }
    try await PostgresSchema.migrate(connection, logger: logger, shown: location.shown)
  }

  /// Runs `query` on the pool from a thread that may block (not a task), and waits for it.
  ///
  /// - Throws: `DatabaseUnavailable` at once while the database is known to be unreachable,
  ///   and when a query has no answer after `DatabaseAvailability.patience` or fails on its
  ///   connection and a probe finds the database unreachable; otherwise the query's error.
  func wait<T: Sendable>(_ work: @escaping @Sendable (PostgresClient) async throws -> T) throws -> T {
    if let unavailable = availability.knownUnreachable() { throw unavailable }
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let client = client
    let task = Task {
      do {
        box.result = .success(try await Self.withTimeout(Self.queryTimeout) { try await work(client) })
      } catch {
        box.result = .failure(error)
      }
      done.signal()
    }
    if done.wait(timeout: .now() + DatabaseAvailability.patience.seconds) == .timedOut {
      // Slow: a long query, a lock, or a database gone (the pool waits, reconnecting).
      if let unavailable = availability.check() {
        task.cancel()
        throw unavailable
      }
      done.wait()
    }
    let result = box.result!
    if case .failure(let error) = result {
      if DatabaseAvailability.isConnectionFailure(error) {
        throw availability.check()
          ?? DatabaseUnavailable(reason: "the connection to \(location.shown) failed: \(Self.describe(error))")
      }
      // `PSQLError`'s own description hides what happened.
      if error is PSQLError { throw DatabaseError(description: Self.describe(error)) }
    }
    return try result.get()
  }

  /// Whether the database answers now (`SELECT 1` within two seconds): what readiness asks.
  func unreachability() async -> String? {
    do {
      try await Self.withTimeout(.seconds(2)) { try await self.client.query("SELECT 1", logger: self.logger) }
      return nil
    } catch {
      return "the PostgreSQL database \(location.shown) does not answer: \(Self.describe(error))"
    }
  }

  /// `body`, or `DatabaseTimeout` once `limit` has passed.
  static func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    try await withThrowingTaskGroup(of: T.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: limit)
        throw DatabaseTimeout(limit: limit)
      }
      defer { group.cancelAll() }
      return try await group.next()!
    }
  }

  /// What went wrong, worded for an operator: the server's message, or the connection's error
  /// (`PSQLError`'s own description hides both).
  static func describe(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] {
      return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
    }
    if let underlying = error.underlying { return "\(underlying)" }
    return "\(error.code)"
  }
}

extension Duration {
  /// In seconds, as `DispatchTime` arithmetic takes them.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A query the database refused or failed, worded by `PostgresDatabase.describe`.
struct DatabaseError: Error, CustomStringConvertible {
  var description: String
}

struct DatabaseTimeout: Error, CustomStringConvertible {
  var limit: Duration
  var description: String { "no answer within \(limit.components.seconds) s" }
}

/// A query's result, handed from its task to the waiting thread (the semaphore orders the
/// write before the read; a query given up on may still write it later, unread).
private final class ResultBox<T: Sendable>: @unchecked Sendable {
  private let lock = NIOLockedValueBox<Result<T, any Error>?>(nil)
  var result: Result<T, any Error>? {
    get { lock.withLockedValue { $0 } }
    set { lock.withLockedValue { $0 = newValue } }
  }
}

/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
/// (`postgresql://` too): where `snapdiff serve --database` keeps the service's state.
public struct DatabaseURL: Sendable, Equatable {
  public var host: String
  public var port: Int
  public var user: String
  public var password: String?
  public var database: String
  public var sslMode: String

  /// Parses `text`.
  ///
  /// - Throws: `ServerConfigurationError` saying what is wrong and what a URL looks like.
  public init(_ text: String) throws(ServerConfigurationError) {
    let example = "postgres://user:password@host:5432/database"
    func bad(_ problem: String) -> ServerConfigurationError {
      ServerConfigurationError("--database '\(Self.hidingPassword(text))': \(problem) (expected \(example))")
    }
    var rest: Substring
    if text.hasPrefix("postgres://") {
      rest = text.dropFirst("postgres://".count)
    } else if text.hasPrefix("postgresql://") {
      rest = text.dropFirst("postgresql://".count)
    } else {
      throw bad("not a postgres:// URL")
    }
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    guard let slash = rest.firstIndex(of: "/") else { throw bad("no database name") }
    let path = rest[rest.index(after: slash)...]
    var authority = rest[..<slash]
    guard !path.isEmpty, !path.contains("/"), let database = Self.decode(path) else { throw bad("no database name") }
    guard let at = authority.lastIndex(of: "@") else { throw bad("no user name") }
    let credentials = authority[..<at]
    authority = authority[authority.index(after: at)...]
    let userPart = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let user = Self.decode(userPart[0]), !user.isEmpty else { throw bad("no user name") }
    password = userPart.count > 1 ? Self.decode(userPart[1]) : nil
    var hostPart = authority
    var portNumber = 5432
    if hostPart.hasPrefix("["), let close = hostPart.firstIndex(of: "]") {
      let after = hostPart[hostPart.index(after: close)...]
      if after.hasPrefix(":") {
        guard let number = Int(after.dropFirst()), (1...65535).contains(number) else { throw bad("a bad port") }
        portNumber = number
      }
      hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
    } else if let colon = hostPart.lastIndex(of: ":") {
      guard let number = Int(hostPart[hostPart.index(after: colon)...]), (1...65535).contains(number) else {
        throw bad("a bad port")
      }
      portNumber = number
      hostPart = hostPart[..<colon]
    }
    guard !hostPart.isEmpty else { throw bad("no host") }
    host = String(hostPart)
    port = portNumber
    self.user = user
    self.database = database
    sslMode = "prefer"
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0] == "sslmode", ["disable", "prefer", "require"].contains(parts[1]) else {
        throw bad("unknown parameter '\(pair)' (only sslmode=disable, prefer or require)")
      }
      sslMode = String(parts[1])
    }
  }

  /// The URL without its password: what messages and logs show.
  public var shown: String { "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" }

  static func hidingPassword(_ text: String) -> String {
    guard let scheme = text.range(of: "://"), let at = text.lastIndex(of: "@"), at > scheme.upperBound,
      let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
    else { return text }
    return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
  }

  private static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var index = text.utf8.startIndex
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%") {
        let high = utf8.index(after: index)
        guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
          let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        index = utf8.index(high, offsetBy: 2)
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return UTF8Text.decode(bytes)
  }

  private var tls: PostgresClient.Configuration.TLS {
    switch sslMode {
    case "disable": .disable
    case "require": .require(.makeClientConfiguration())
    default: .prefer(.makeClientConfiguration())
    }
  }

  var clientConfiguration: PostgresClient.Configuration {
    PostgresClient.Configuration(
      host: host, port: port, username: user, password: password, database: database, tls: tls)
  }

  var connectionConfiguration: PostgresConnection.Configuration {
    let tls: PostgresConnection.Configuration.TLS =
      switch sslMode {
      case "disable": .disable
      case "require": .require(try! .init(configuration: .makeClientConfiguration()))
      default: .prefer(try! .init(configuration: .makeClientConfiguration()))
      }
    return PostgresConnection.Configuration(
      host: host, port: port, username: user, password: password, database: database, tls: tls)
  }
}
