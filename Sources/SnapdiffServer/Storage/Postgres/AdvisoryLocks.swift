import Dispatch
import NIOConcurrencyHelpers
import PostgresNIO
import SnapdiffCore

/// The store's and runs' locks across machines: a PostgreSQL session-level advisory lock
/// (`pg_advisory_lock`, or `pg_advisory_lock_shared`), keyed by a 64-bit hash of the lock's name,
/// held beside the `flock` (the `locks` of the service's `StorageBackend`). The name is the lock file's path relative to
/// the data folder or the baseline store (`data:runs/<id>/.lock`, `baselines:.snapdiff.lock`), so
/// instances that mount the shared folder at different paths still take the same lock.
///
/// A lock holds one pooled connection while its body runs on the calling thread (a worker, never
/// the cooperative pool). PostgreSQL drops a session's locks when its connection goes, so a
/// killed instance leaves none behind, as the kernel does for `flock`.
@available(macOS 14, iOS 17, tvOS 17, *)
final class AdvisoryLocks: CrossProcessLocks {
  let database: PostgresDatabase
  /// Prefixes and the names they stand for, longest first.
  private let roots: [(path: String, name: String)]
  /// The longest a lock is waited for (another instance's long close, or no database).
  static let waitLimit: Duration = .seconds(120)

  init(database: PostgresDatabase, dataDirectory: String, baselines: String) {
    self.database = database
    roots = [(dataDirectory, "data:"), (baselines, "baselines:")].sorted { $0.0.count > $1.0.count }
  }

  /// The lock's name: `path` relative to the data folder or the store.
  func name(of path: String) -> String {
    for root in roots where path.hasPrefix(root.path + "/") {
      return root.name + path.dropFirst(root.path.count + 1)
    }
    return "path:" + path
  }

  /// FNV-1a, 64 bits, as PostgreSQL's `bigint`.
  static func key(_ name: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }

  func withLock<T>(_ path: String, shared: Bool, _ body: () throws -> T) throws -> T {
    if let unavailable = database.availability.knownUnreachable() { throw unavailable }
    let key = Self.key(name(of: path))
    let held = HeldLock()
    let client = database.client
    let logger = database.logger
    Task {
      do {
        try await client.withConnection { connection in
          if shared {
            try await connection.query("SELECT pg_advisory_lock_shared(\(key))", logger: logger)
          } else {
            try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
          }
          // Until the body is done (at once when the waiter gave up meanwhile).
          await held.acquired()
          if shared {
            try await connection.query("SELECT pg_advisory_unlock_shared(\(key))", logger: logger)
          } else {
            try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
          }
        }
      } catch {
        held.failed(error)
      }
    }
    if let failure = held.waitUntilAcquired(limit: Self.waitLimit, availability: database.availability) {
      if let unavailable = failure as? DatabaseUnavailable { throw unavailable }
      if DatabaseAvailability.isConnectionFailure(failure) && !(failure is DatabaseTimeout) {
        throw database.availability.check()
          ?? DatabaseUnavailable(
            reason: "the connection to \(database.location.shown) failed: \(PostgresDatabase.describe(failure))")
      }
      throw FileError(
        path: path,
        message:
          "could not take its lock in the PostgreSQL database \(database.location.shown): \(PostgresDatabase.describe(failure))"
      )
    }
    defer { held.release() }
    return try body()
  }

  func isHeld(_ path: String) -> Bool {
    let key = Self.key(name(of: path))
    let logger = database.logger
    return
      (try? database.wait { client in
        try await client.withConnection { connection in
          var taken = false
          for try await value in try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
            .decode(Bool.self)
          {
            taken = value
          }
          if taken { try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger) }
          return !taken
        }
      }) ?? false
  }
}

/// One lock's hand-over between the task holding the connection and the thread running the body.
private final class HeldLock: @unchecked Sendable {
  private let lock = NIOLockedValueBox(State())
  private let ready = DispatchSemaphore(value: 0)

  private struct State {
    var acquired = false
    var failure: (any Error)?
    var released = false
    var waiting: CheckedContinuation<Void, Never>?
  }

  /// Called by the task once the lock is taken: returns when the body is done.
  func acquired() async {
    await withCheckedContinuation { continuation in
      let resumeNow = lock.withLockedValue { state -> Bool in
        state.acquired = true
        if state.released { return true }
        state.waiting = continuation
        return false
      }
      ready.signal()
      if resumeNow { continuation.resume() }
    }
  }

  func failed(_ error: any Error) {
    let signal = lock.withLockedValue { state -> Bool in
      guard !state.acquired else { return false }
      state.failure = error
      return true
    }
    if signal { ready.signal() }
  }

  /// Waits for the lock: `nil` when taken, else why not (`DatabaseUnavailable` as soon as a
  /// wait longer than `DatabaseAvailability.patience` finds the database gone).
  func waitUntilAcquired(limit: Duration, availability: DatabaseAvailability) -> (any Error)? {
    let deadline = DispatchTime.now() + limit.seconds
    var slice = DatabaseAvailability.patience.seconds
    while ready.wait(timeout: min(deadline, .now() + slice)) == .timedOut {
      // Taken later: released at once.
      if DispatchTime.now() >= deadline {
        release()
        return DatabaseTimeout(limit: limit)
      }
      // Another instance's long close, or no database at all.
      if let unavailable = availability.check() {
        release()
        return unavailable
      }
      slice = 2
    }
    return lock.withLockedValue { $0.failure }
  }

  func release() {
    let continuation = lock.withLockedValue { state -> CheckedContinuation<Void, Never>? in
      state.released = true
      defer { state.waiting = nil }
      return state.waiting
    }
    continuation?.resume()
  }
}
