#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a killed `snapdiff` (SIGKILL, a power cut) leaves behind, and its removal: run folders
/// without `run.json` (a `check` killed before it finished), the atomic writes' temporary files
/// (`.NAME.PID.RANDOM.tmp`, `last.PID.tmp`) in the store and the data folder, and the service's
/// half-received uploads (`<data>/uploads/upload-*`).
///
/// `check`, `serve` and `prune` call `clean` when they start. Only leftovers older than
/// `gracePeriod` are touched, and a run folder only when no process holds its lock (a running
/// `check` holds it from the moment the folder exists until `run.json` is written), so a
/// concurrent writer is never hit.
///
/// ```swift
/// let cleaned = Leftovers.clean(store: store, runsDirectory: ".snapdiff/runs")
/// print("\(cleaned.paths.count) leftovers, \(cleaned.bytes) bytes")
/// ```
public enum Leftovers {
  /// How old a leftover must be before it is removed: far longer than any write in progress
  /// takes between two changes of its file.
  public static let gracePeriod: Double = 600

  /// What `clean` removed.
  public struct Cleaned: Sendable, Equatable {
    /// The files and folders removed, absolute.
    public var paths: [String] = []
    /// Their size in all.
    public var bytes: Int = 0
  }

  /// Removes the leftovers older than `olderThan` seconds. Problems (a file that cannot be
  /// removed) are passed over: cleaning never stops the command that asked for it.
  ///
  /// - Parameters:
  ///   - store: its folders are searched for temporary files (links not followed).
  ///   - runsDirectory: run folders without `run.json`, and temporary files in every run folder.
  ///   - dataFolders: more folders searched for temporary files (the baseline cache).
  ///   - uploadsDirectory: the service's `upload-*` files.
  /// - Complexity: one `lstat` per file in the store and the data folders.
  @discardableResult
  public static func clean(
    store: BaselineStore?, runsDirectory: String, dataFolders: [String] = [], uploadsDirectory: String? = nil,
    olderThan: Double = gracePeriod
  ) -> Cleaned {
    var cleaned = Cleaned()
    let cutoff = now() - olderThan
    func isOld(_ path: String) -> Bool { (modificationTime(path) ?? .infinity) < cutoff }
    func remove(_ path: String) {
      let size = treeSize(path)
      if (try? FileSystem.removeTree(path)) != nil {
        cleaned.paths.append(path)
        cleaned.bytes += size
      }
    }
    let runs = FileSystem.absolute(runsDirectory)
    for name in (try? FileSystem.entries(of: runs)) ?? [] {
      let path = runs + "/" + name
      if isTemporary(name) || (name.hasPrefix("last.") && name.hasSuffix(".tmp")) {
        if isOld(path) { remove(path) }
        continue
      }
      guard FileSystem.kind(of: path) == .directory else { continue }
      if !FileSystem.exists(path + "/run.json") {
        if isOld(newestChange(under: path)) && !FileLock.isHeld(path + "/.lock") { remove(path) }
      }
    }
    var searched = [runs] + dataFolders.map { FileSystem.absolute($0) }
    if let store { searched.append(store.root) }
    for folder in searched {
      for path in temporaryFiles(under: folder) where isOld(path) { remove(path) }
    }
    if let uploadsDirectory {
      let uploads = FileSystem.absolute(uploadsDirectory)
      for name in (try? FileSystem.entries(of: uploads)) ?? [] where name.hasPrefix("upload-") {
        let path = uploads + "/" + name
        if FileSystem.kind(of: path) == .file && isOld(path) { remove(path) }
      }
    }
    return cleaned
  }

  /// `.NAME.PID.RANDOM.tmp`: `FileIO.writeAtomically`'s temporary files.
  static func isTemporary(_ name: String) -> Bool {
    name.hasPrefix(".") && name.hasSuffix(".tmp") && name.utf8.count > 5
  }

  /// Temporary files below `folder`, links not followed.
  static func temporaryFiles(under folder: String) -> [String] {
    var found: [String] = []
    func walk(_ path: String) {
      for bytes in (try? FileSystem.nameBytes(of: path)) ?? [] {
        let name = String(decoding: bytes, as: UTF8.self)
        let child = path + "/" + name
        switch FileSystem.kind(of: child) {
        case .directory: walk(child)
        case .file where isTemporary(name): found.append(child)
        default: continue
        }
      }
    }
    if FileSystem.kind(of: folder) == .directory || FileSystem.isDirectory(folder) { walk(folder) }
    return found
  }

  /// The path under `folder` (itself included) changed last: a run folder is only as old as
  /// its newest file.
  static func newestChange(under folder: String) -> String {
    var newest = (path: folder, time: modificationTime(folder) ?? .infinity)
    func walk(_ path: String) {
      for name in (try? FileSystem.entries(of: path)) ?? [] {
        let child = path + "/" + name
        let time = modificationTime(child) ?? .infinity
        if time > newest.time { newest = (child, time) }
        if FileSystem.kind(of: child) == .directory { walk(child) }
      }
    }
    walk(folder)
    return newest.path
  }

  private static func treeSize(_ path: String) -> Int {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    guard (status.st_mode & S_IFMT) == S_IFDIR else { return Int(status.st_size) }
    return ((try? FileSystem.entries(of: path)) ?? []).reduce(0) { $0 + treeSize(path + "/" + $1) }
  }

  private static func modificationTime(_ path: String) -> Double? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    let time = status.modificationTime
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
