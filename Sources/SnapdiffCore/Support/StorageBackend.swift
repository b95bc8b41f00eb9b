/// Where the runs of a data folder keep their verdicts, and with whom the locks of its folders
/// are shared, when a service keeps them outside the folders (`snapdiff serve --database
/// postgres://…`: a PostgreSQL table and advisory locks). Nothing attached: each run's
/// `snapshots.jsonl` and `flock` alone, as the CLI works.
///
/// The service is handed its backend (`RunService(configuration:backend:)`, as Hummingbird's
/// examples hand a controller its repository) and attaches it to its own folders for as long as
/// it runs. What works on a folder finds the backend of the folder it works on: a run's
/// `snapshotRecords` by the run's folder, `FileLock` by the lock file's. So one process can hold
/// two services on different folders, each with its own backend (or none), and the CLI's
/// commands in the same process use the folders alone.
///
/// ```swift
/// let backend = StorageBackend(records: { PostgresSnapshotRecords(database: db, runID: $0, …) }, locks: locks)
/// let attachment = try backend.attach(to: [dataDirectory, baselines])
/// defer { attachment.detach() }
/// ```
public struct StorageBackend: Sendable {
  /// The store of run `id`'s verdicts; `nil`: the run folder's log.
  public var records: (@Sendable (_ runID: String) -> any SnapshotRecordStore)?
  /// The locks of other machines taken beside `flock`; `nil`: `flock` alone.
  public var locks: (any CrossProcessLocks)?

  public init(
    records: (@Sendable (_ runID: String) -> any SnapshotRecordStore)? = nil, locks: (any CrossProcessLocks)? = nil
  ) {
    self.records = records
    self.locks = locks
  }

  /// Whether it keeps nothing outside the folders.
  public var isLocal: Bool { records == nil && locks == nil }

  /// Makes this the backend of everything under `folders` until the attachment is detached (or
  /// released). A local backend attaches nothing.
  ///
  /// - Throws: `StorageBackendError` when one of the folders, or a folder inside or around it,
  ///   already has another backend in this process: two backends of one folder would be two
  ///   truths about its runs and locks.
  public func attach(to folders: [String]) throws(StorageBackendError) -> Attachment {
    let attachment = Attachment()
    guard !isLocal else { return attachment }
    let roots = folders.map { FileSystem.absolute($0) }
    let refusal = Self.attached.withLock { (entries: inout [Entry]) -> StorageBackendError? in
      for root in roots {
        if let taken = entries.first(where: { Self.overlap($0.folder, root) }) {
          return StorageBackendError(folder: root, attachedFolder: taken.folder)
        }
      }
      entries += roots.map { Entry(folder: $0, backend: self, attachment: attachment.id) }
      return nil
    }
    if let refusal { throw refusal }
    return attachment
  }

  /// The backend attached to the folder that holds `path` (the innermost one), if any.
  public static func serving(_ path: String) -> StorageBackend? {
    let entries = attached.current
    guard !entries.isEmpty else { return nil }
    var best: Entry?
    for entry in entries where path == entry.folder || path.hasPrefix(entry.folder + "/") {
      if best.map({ entry.folder.utf8.count > $0.folder.utf8.count }) ?? true { best = entry }
    }
    return best?.backend
  }

  /// A backend's hold on its folders: `detach()` (or the attachment's release) lets them go.
  public final class Attachment: Sendable {
    let id = Attachment.newID()

    /// Lets the folders go: from now on they use their own logs and `flock` alone.
    public func detach() {
      StorageBackend.attached.withLock { $0.removeAll { $0.attachment == id } }
    }

    deinit { detach() }

    private static let counter = LockedValue<UInt64>(0)
    private static func newID() -> UInt64 {
      counter.withLock { value in
        value += 1
        return value
      }
    }
  }

  private struct Entry {
    var folder: String
    var backend: StorageBackend
    var attachment: UInt64
  }

  /// Whether one of two absolute folders is, or holds, the other.
  private static func overlap(_ first: String, _ second: String) -> Bool {
    first == second || first.hasPrefix(second + "/") || second.hasPrefix(first + "/")
  }

  /// The attached folders. Read through `current`, never `withLock { $0 }` (`LockedValue`).
  private static let attached = LockedValue<[Entry]>([])
}

/// A folder that already has another backend in this process.
public struct StorageBackendError: Error, Sendable, CustomStringConvertible {
  public var folder: String
  public var attachedFolder: String

  public var description: String {
    "\(folder): \(attachedFolder == folder ? "it" : attachedFolder) already has a storage backend in this process (another service's): two services cannot share a folder with different backends"
  }
}
