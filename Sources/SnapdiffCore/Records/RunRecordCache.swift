#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last decoded `run.json` of the most recently used runs, by path, each kept with the
/// file's identity (device, inode, size, modification and change times). A run taking frames
/// from the service is read several times per frame (the verdict, the index, the review), and
/// decoding a run of hundreds of snapshots costs milliseconds each time; an unchanged file is
/// decoded once. Every write replaces the file (a new inode and change time), so a record
/// written by anyone, this process or the CLI, is never served stale.
final class RunRecordCache: @unchecked Sendable {
  static let shared = RunRecordCache()

  /// How many records are kept (the runs being written to and reviewed).
  private let capacity = 8
  private var entries: [String: (identity: [FileIdentity?], record: RunRecord, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  private let lock = Lock()

  private init() {}

  /// The record at `path`: the cached one while the file is unchanged, else decoded by `read`.
  func record(at path: String, read: () throws -> RunRecord) throws -> RunRecord {
    guard let identity = FileIdentity(path) else { return try read() }
    return try record(key: path, identity: [identity], of: [path], read: read)
  }

  /// An open run's record as `run.json` at `recordPath` and the log at `logPath` make it: the
  /// cached one while neither file changed (a missing log is a state too), else made by `read`,
  /// which must read both files itself: the files are stamped before it is called, and a
  /// record made from an earlier read would be kept under the newer stamp.
  func record(at logPath: String, after recordPath: String, read: () throws -> RunRecord) throws -> RunRecord {
    guard let identity = FileIdentity(recordPath) else { return try read() }
    return try record(
      key: logPath, identity: [identity, FileIdentity(logPath)], of: [recordPath, logPath], read: read)
  }

  private func record(key: String, identity: [FileIdentity?], of paths: [String], read: () throws -> RunRecord)
    throws -> RunRecord
  {
    if let cached = withLock({ () -> RunRecord? in
      guard let entry = entries[key], entry.identity == identity else { return nil }
      clock += 1
      entries[key]?.used = clock
      return entry.record
    }) {
      return cached
    }
    let record = try read()
    // Kept only if no file changed while it was read.
    if paths.map(FileIdentity.init) == identity { remember(record, identity: identity, at: key) }
    return record
  }

  /// Remembers `record` as what was just written to `path` (called under the run's lock).
  func wrote(_ record: RunRecord, to path: String) {
    guard let identity = FileIdentity(path) else { return }
    remember(record, identity: [identity], at: path)
  }

  private func remember(_ record: RunRecord, identity: [FileIdentity?], at path: String) {
    withLock {
      clock += 1
      entries[path] = (identity, record, clock)
      if entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
        entries[oldest] = nil
      }
    }
  }

  private func withLock<T>(_ body: () -> T) -> T {
    lock.withLock(body)
  }
}

/// What tells one version of a file from another without reading it.
struct FileIdentity: Equatable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: timespec
  var changed: timespec

  init?(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    modified = status.modificationTime
    changed = status.statusChangeTime
  }

  static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
  }
}
