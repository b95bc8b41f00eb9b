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
public enum FileLock {
  /// Runs `body` while holding the lock file at `path` (created when missing): exclusively, or
  /// `shared` with other shared holders (readers, or writers that only add, as the blob store's).
  public static func withLock<T>(_ path: String, shared: Bool = false, _ body: () throws -> T) throws -> T {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw FileError.system(path: path, action: "open the lock file") }
    defer { close(descriptor) }
    while flock(descriptor, shared ? LOCK_SH : LOCK_EX) != 0 {
      if errno != EINTR { throw FileError.system(path: path, action: "lock") }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Whether some process holds the lock file at `path` now (`false` when there is no file).
  public static func isHeld(_ path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(descriptor, LOCK_UN)
    return false
  }
}
