/// Counts the whole-file reads (`FileIO.read`), the flushes to the disk (`fsync` in
/// `FileIO.writeAtomically` and `FileIO.appendLine`: the logs), the paths resolved to
/// their real path (`FileSystem.resolved`: a `readlink` per component) and the folders asked
/// for with `mkdir` (`FileSystem.createDirectories`) below one folder while it is started: how a
/// test pins that a request reads a file once, not twice, and waits for the disk or walks a path
/// only where it must (savings that would otherwise regress unseen: no timing shows 2 ms among
/// 30). With no counter started, an access pays one lock and an empty check.
///
/// ```swift
/// let files = FileAccessCounter(below: store.root)
/// defer { files.stop() }
/// try session.submit(key: "Home", png: frame)
/// #expect(files.reads == [store.root + "/Home.png": 1])
/// ```
public final class FileAccessCounter: @unchecked Sendable {
  /// The folder, ending in `/`: files below it are counted.
  public let folder: String
  private var readCounts: [String: Int] = [:]
  private var syncCounts: [String: Int] = [:]
  private var resolutionCounts: [String: Int] = [:]
  private var folderCreationCounts: [String: Int] = [:]
  private let lock = Lock()

  /// Starts counting accesses to the files below `folder` (an absolute path, as the accesses
  /// name them).
  public init(below folder: String) {
    self.folder = folder.hasSuffix("/") ? folder : folder + "/"
    Self.registry.withLock { $0.append(self) }
  }

  /// Stops counting (the counts stay readable).
  public func stop() {
    Self.registry.withLock { $0.removeAll { $0 === self } }
  }

  /// Every file read since the counter started, with how many times.
  public var reads: [String: Int] { lock.withLock { readCounts } }

  /// Every file flushed to the disk since the counter started (by the path it was written to),
  /// with how many times.
  public var syncs: [String: Int] { lock.withLock { syncCounts } }

  /// Every path resolved to its real path since the counter started, with how many times.
  public var resolutions: [String: Int] { lock.withLock { resolutionCounts } }

  /// Every folder a `mkdir` was asked for since the counter started (made, or there already),
  /// with how many times.
  public var folderCreations: [String: Int] { lock.withLock { folderCreationCounts } }

  /// Notes a whole-file read of `path` (`FileIO.read`).
  package static func read(_ path: String) {
    note(path) { $0.readCounts[path, default: 0] += 1 }
  }

  /// Notes a flush of the file at `path` to the disk.
  package static func synced(_ path: String) {
    note(path) { $0.syncCounts[path, default: 0] += 1 }
  }

  /// Notes that `path` was resolved to its real path (`FileSystem.resolved`).
  package static func resolved(_ path: String) {
    note(path) { $0.resolutionCounts[path, default: 0] += 1 }
  }

  /// Notes a `mkdir` of `path` (`FileSystem.createDirectories`).
  package static func createdFolder(_ path: String) {
    note(path) { $0.folderCreationCounts[path, default: 0] += 1 }
  }

  private static func note(_ path: String, _ count: (FileAccessCounter) -> Void) {
    let counters = registry.withLock { $0 }
    for counter in counters where path.utf8.starts(with: counter.folder.utf8) {
      counter.lock.withLock { count(counter) }
    }
  }

  private static let registry = Registry()

  private final class Registry: @unchecked Sendable {
    private var counters: [FileAccessCounter] = []
    private let lock = Lock()

    func withLock<T>(_ body: (inout [FileAccessCounter]) -> T) -> T { lock.withLock { body(&counters) } }
  }
}
