/// The rule that keeps every write, rename and removal inside one folder (the baseline store, a
/// run folder), even when folders inside it are symbolic links.
///
/// The folder's real path is resolved when a link is met on the way (never, for most paths); a
/// folder that is itself a symbolic link *is* the folder (its target is where everything goes).
/// Before anything is created, written, renamed
/// or removed, the target's path is walked from the folder down, and every component that is a
/// symbolic link must resolve inside the folder's real path. A link that leads out, or that
/// leads nowhere (it could be created outside later), is refused with `StoreEscapeError`.
///
/// ```swift
/// let confinement = Confinement(root: "baselines", place: "baseline store")
/// try confinement.write(png, to: confinement.root + "/Home.png")  // refused through `evil → ../outside`
/// ```
///
/// Every write of `BaselineStore` and `RunFolder` goes through one of these; nothing else in
/// them writes to the file system directly.
public struct Confinement: Sendable {
  /// The folder, absolute (textually normalised; links not resolved).
  public let root: String
  /// The folder's real path: links resolved, including a link at the folder itself. A folder
  /// that does not exist yet is resolved as far as it exists. Resolved on each use, not when the
  /// confinement is made: a service frame makes several (its run folder, the store, the blob
  /// store) and resolving each root was about 45 failing `readlink`s per frame, while only a
  /// path with a symbolic link on it needs the real root.
  public var realRoot: String { Self.realPath(of: root) }
  /// What the folder is, for messages.
  public let place: String

  public init(root: String, place: String) {
    self.root = FileSystem.absolute(root)
    self.place = place
  }

  /// Refuses `path` when it lies outside the folder or when a symbolic link on the way (the
  /// final component included) leads outside the folder's real path or nowhere.
  ///
  /// - Complexity: one `lstat` per component below the folder, two `realpath`s per link.
  public func check(_ path: String) throws(StoreEscapeError) {
    let absolute = FileSystem.absolute(path)
    // On bytes: `/` followed by a combining mark is one `Character` (see `PathText`).
    guard Self.isSameOrBelow(absolute, root) else {
      throw StoreEscapeError(path: absolute, root: root, link: nil, place: place)
    }
    var current = root
    for component in PathText.components(String(absolute.utf8.dropFirst(root.utf8.count))!) {
      current += (current == "/" ? "" : "/") + component
      switch FileSystem.kind(of: current) {
      case nil:
        // Nothing below it exists yet: what is created there is created inside.
        return
      case .symbolicLink:
        guard let target = FileSystem.resolved(current), isInside(target) else {
          throw StoreEscapeError(path: absolute, root: root, link: current, place: place)
        }
      default:
        continue
      }
    }
  }

  /// Creates `folder` and the folders above it, after `check`.
  public func createFolders(_ folder: String) throws {
    try check(folder)
    try FileSystem.createDirectories(folder)
  }

  /// Creates the folder that will hold the file at `path`, after `check`.
  public func createFolders(containing path: String) throws {
    try createFolders(PathText.parent(of: path))
  }

  /// Writes `bytes` to `path` atomically (`FileIO.writeAtomically`), after `check`; the folder
  /// itself is never replaced. `synced: false` skips the `fsync` (see `FileIO.writeAtomically`).
  public func write(_ bytes: [UInt8], to path: String, synced: Bool = true) throws {
    try checkBelow(path)
    try FileIO.writeAtomically(bytes, to: path, synced: synced)
  }

  /// Appends one line to the file at `path` (created when missing) in one `write`, on a line of
  /// its own even after a torn last line, then flushes it (`FileIO.appendLine`), after `check`:
  /// for append-only logs, whose earlier lines never change.
  public func appendLine(_ line: [UInt8], to path: String) throws {
    try checkBelow(path)
    try FileIO.appendLine(line, to: path)
  }

  /// Reads the regular file at `path`, of at most `limit` bytes, after `check`: what every read
  /// of a path that came from outside (a part's `run.json`, an image a record names) goes
  /// through. A link on the way that leads out, a device, a FIFO or a file over the limit is
  /// refused before anything is read.
  public func read(_ path: String, limit: Int) throws -> [UInt8] {
    try checkBelow(path)
    return try FileIO.readRegularFile(path, limit: limit)
  }

  /// Makes `path` a hard link to the file at `source` (which is read, never written), after
  /// `check`; an existing `path` is left as it is. Where a link cannot be made (another file
  /// system, a file system without hard links) the bytes are copied, atomically.
  public func link(_ source: String, to path: String) throws {
    try checkBelow(path)
    if FileSystem.hardLink(source, to: path) { return }
    try FileIO.writeAtomically(FileIO.read(source), to: path)
  }

  /// Makes `path` a hard link to the file at `source`, replacing what is there atomically, after
  /// `check` (`FileIO.replaceWithLink`): a second name in the folder for bytes written once.
  public func replaceWithLink(to source: String, at path: String) throws {
    try checkBelow(path)
    try FileIO.replaceWithLink(to: source, at: path)
  }

  /// Removes the file (or empty folder) at `path`, after `check`; missing is fine. The folder
  /// itself is never removed.
  public func remove(_ path: String) throws {
    try checkBelow(path)
    try FileSystem.remove(path)
  }

  /// Removes the folder (or file) at `path` and everything in it, after `check`; the folder
  /// itself is never removed.
  public func removeTree(_ path: String) throws {
    try checkBelow(path)
    try FileSystem.removeTree(path)
  }

  /// `check`, and `path` is not the folder itself.
  private func checkBelow(_ path: String) throws(StoreEscapeError) {
    let absolute = FileSystem.absolute(path)
    guard absolute != root else { throw StoreEscapeError(path: absolute, root: root, link: nil, place: place) }
    try check(absolute)
  }

  /// Whether a real (resolved) path is the folder's real path or lies under it.
  public func isInside(_ realPath: String) -> Bool {
    Self.isSameOrBelow(realPath, realRoot)
  }

  /// Whether `path` is `folder` or lies under it, compared on bytes.
  static func isSameOrBelow(_ path: String, _ folder: String) -> Bool {
    folder == "/" || path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: (folder + "/").utf8)
  }

  /// `path`'s real path, resolved as far as it exists (the rest appended as it is).
  static func realPath(of path: String) -> String {
    var existing = path
    var rest: [Substring] = []
    while FileSystem.resolved(existing) == nil {
      guard let slash = existing.lastIndex(of: "/"), existing != "/" else { return path }
      rest.insert(existing[existing.index(after: slash)...], at: 0)
      existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
    }
    let base = FileSystem.resolved(existing) ?? existing
    return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.joined(separator: "/")
  }
}
