#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock on a lock file (`flock`), held for the length of a closure.
///
/// Writers of the same store or run take the same lock, so a read-modify-write never loses
/// another writer's update. The kernel drops the lock when the process dies, so a killed
/// `snapdiff` never leaves a stale lock behind (the file itself stays, empty, and is harmless).
///
/// Processes on other machines that share the folder (several `snapdiff serve` instances behind a
/// load balancer, on PostgreSQL) are excluded by a `CrossProcessLocks` coordinator as well: the
/// `locks` of the `StorageBackend` attached to the folder the lock file is in (PostgreSQL advisory
/// locks), taken after the `flock`, always in that order, so the CLI on one machine (`flock` alone)
/// and the instances (both) exclude each other.
///
/// A thread that holds a lock may take it again (a store mutation made of smaller ones, each
/// locked on its own: a merge's promotion, an undo's write): the inner call runs at once, inside
/// the outer hold. Without that, the inner `flock` on a second descriptor (or the advisory lock on a
/// second connection) would wait for the outer one forever.
///
/// ## The order of the locks
///
/// A thread that holds several locks takes them in one order, ``Rank``: first the blob store's
/// (shared while adding blobs, exclusive while collecting them), then a run's, then the baseline
/// store's. `check` and `merge` (blobs, the new run), a service frame (blobs, then the run to
/// append its verdict), `approve` (blobs, the run, the store for each baseline), `approve --undo`
/// (blobs, the approval's run, the store), a branch merge (blobs, the store) and `prune` (the
/// blobs, exclusively) all follow it, so no two of them can each hold what the other waits for,
/// whichever of them takes a lock exclusively. A lock of a lower rank asked for while a higher one
/// is held is refused at once (`FileError`), rather than left to deadlock the day two writers meet.
public enum FileLock {
  /// What a lock guards, in the order a thread takes them (a lower rank first).
  public enum Rank: Int, Sendable, Comparable {
    /// The blob store's lock (`.snapdiff/blobs/.lock`).
    case blobs
    /// A run's lock (`<run>/.lock`).
    case run
    /// The baseline store's lock (`<store>/.snapdiff.lock`).
    case store

    public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Runs `body` while holding the lock file at `path` (created when missing): exclusively, or
  /// `shared` with other shared holders (readers, or writers that only add, as the blob store's).
  /// Re-entrant per thread.
  ///
  /// - Throws: `FileError` when the lock cannot be taken; when this thread holds it shared and
  ///   asks for it exclusively (a shared hold cannot be upgraded without a gap another writer
  ///   could use); or when this thread holds a lock of a higher `rank` (the order above).
  public static func withLock<T>(_ path: String, rank: Rank, shared: Bool = false, _ body: () throws -> T) throws
    -> T
  {
    let thread = ThreadHolds.current
    let holds = heldByThisThread.withLock { $0[thread] ?? [:] }
    switch holds[path]?.kind {
    case .exclusive?: return try body()
    case .shared?:
      guard shared else {
        throw FileError(path: path, message: "is locked shared by this thread: it cannot be taken exclusively inside")
      }
      return try body()
    case nil: break
    }
    if let (higher, hold) = holds.first(where: { $0.value.rank > rank }) {
      throw FileError(
        path: path,
        message:
          "is a \(rank) lock asked for while this thread holds the \(hold.rank) lock \(higher): locks are taken blobs, run, store (FileLock.Rank)"
      )
    }
    heldByThisThread.withLock { $0[thread, default: [:]][path] = Hold(kind: shared ? .shared : .exclusive, rank: rank) }
    defer {
      heldByThisThread.withLock {
        $0[thread]?[path] = nil
        if $0[thread]?.isEmpty == true { $0[thread] = nil }
      }
    }
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw FileError.system(path: path, action: "open the lock file") }
    defer { close(descriptor) }
    while flock(descriptor, shared ? LOCK_SH : LOCK_EX) != 0 {
      if errno != EINTR { throw FileError.system(path: path, action: "lock") }
    }
    defer { flock(descriptor, LOCK_UN) }
    guard let coordinator = StorageBackend.serving(path)?.locks else { return try body() }
    return try coordinator.withLock(path, shared: shared, body)
  }

  /// Whether some process holds the lock file at `path` now (`false` when there is no file).
  public static func isHeld(_ path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(descriptor, LOCK_UN)
    return StorageBackend.serving(path)?.locks?.isHeld(path) ?? false
  }

  /// How a thread holds a lock, and the lock's rank.
  private struct Hold {
    enum Kind { case shared, exclusive }
    var kind: Kind
    var rank: Rank
  }

  /// The lock files each thread holds now (by thread), so that a thread taking a lock it holds
  /// already does not wait for itself, and one taking locks out of order is stopped.
  private static let heldByThisThread = LockedValue<[UInt: [String: Hold]]>([:])
}

/// The calling thread's identity, while it runs (a key into `FileLock`'s holds; a thread's holds
/// are gone before it ends, so a reused identity finds none).
private enum ThreadHolds {
  static var current: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

/// Locks by name that hold across machines (PostgreSQL advisory locks), beside `flock`.
public protocol CrossProcessLocks: Sendable {
  /// Runs `body` holding the lock named after the lock file `path`, exclusively or `shared`.
  func withLock<T>(_ path: String, shared: Bool, _ body: () throws -> T) throws -> T
  /// Whether another process holds the lock named after `path` now.
  func isHeld(_ path: String) -> Bool
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = Lock()

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }

  /// The value now. Read it here, never as `withLock { $0 }`: when `Value` holds a function,
  /// passing it `inout` through the generic `withLock` stores it back wrapped in two more
  /// reabstraction thunks on every read, so each call of the function went through more of them
  /// (a run's records backend, read several times a frame, cost a PostgreSQL service more
  /// CPU per frame the more frames it had taken, and would in the end have run out of stack).
  var current: Value { lock.withLock { value } }
}
