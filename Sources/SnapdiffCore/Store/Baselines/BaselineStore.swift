/// The baseline store: a folder with one PNG per snapshot key (`<root>/<key>.png`), optionally
/// environment folders (`<root>/<environment>/<key>.png`) that fall back to the root, and beside
/// each baseline its settings (`<key>.snapdiff.json`), tree (`<key>.tree.json`), rejected
/// changes (`<key>.rejected.json`) and known noise (`<key>.noise.json`, `BaselineStore+Noise`).
/// A snapshot may have more accepted baselines, its variants, in a hidden `.variants` folder
/// beside them (`BaselineStore+Variants.swift`).
///
/// Writes are atomic (temporary file, `fsync`, `rename`) and serialised by a lock file, so
/// concurrent writers never lose an update and a killed writer leaves the old file or the new
/// one. No key can reach outside the root, and no write, rename or removal leaves the store
/// through a symbolic link (`Confinement`): a link inside the store that leads out of it (an
/// environment folder, a key's folder) is refused with `StoreEscapeError`. A store root that
/// is itself a link is the store.
///
/// ```swift
/// let store = try BaselineStore(root: "baselines", environment: "iPhone15-iOS17@3x")
/// if let baseline = try store.locate(try SnapshotKey("Home - test_search/Home")) { … }
/// ```
public struct BaselineStore: Sendable {
  /// The store's folder, absolute.
  public let root: String
  /// The environment folder searched first (and written to), if any.
  public let environment: String?
  /// The rule every write, rename and removal in the store goes through.
  public let confinement: Confinement
  /// Branch overlays (`BranchOverlay`), folders in the store relative to it
  /// (`.branches/feature%2Flogin`): searched before the store's own baselines, first to last,
  /// and written to (the first). Empty for the store as it is: the CLI's, a run on the trunk.
  public var overlays: [String] = []

  /// The file that marks a top-level folder as an environment folder, so listings of the root
  /// leave it out.
  static let environmentMarker = ".snapdiff-environment"

  /// - Throws: `KeyError` when the environment name is not a single safe folder name.
  public init(root: String, environment: String? = nil) throws(KeyError) {
    self.root = FileSystem.absolute(root)
    if let environment {
      let key = try SnapshotKey(environment)
      guard !PathText.containsSeparator(key.rawValue) else {
        throw KeyError(key: environment, problem: "is not a single folder name")
      }
    }
    self.environment = environment
    confinement = Confinement(root: self.root, place: "baseline store")
  }

  /// Refuses, before anything is written, a store whose environment folder is a link leading
  /// out of the store, or (given a key) a key whose baseline would be written through one.
  ///
  /// - Throws: `StoreEscapeError` naming the path and the link.
  public func checkConfined(_ key: SnapshotKey? = nil) throws(StoreEscapeError) {
    if let environment { try confinement.check(environmentRoot(environment)) }
    if let key { try confinement.check(writePath(for: key)) }
  }

  /// A baseline found in the store.
  public struct Location: Sendable, Equatable {
    public var path: String
    /// The environment folder it came from; `nil` for the store's root.
    public var environment: String?
  }

  /// The baseline of `key`: in each overlay, then in the store, the environment folder first
  /// when there is one, else the root.
  ///
  /// - Throws: `FileError` when the file there is a link that leads outside the store.
  public func locate(_ key: SnapshotKey) throws(FileError) -> Location? {
    for layer in layers {
      if let environment {
        let path = layer + "/" + environment + "/" + key.relativePath()
        if FileSystem.isFile(path) {
          try checkInside(path)
          return Location(path: path, environment: environment)
        }
      }
      let path = layer + "/" + key.relativePath()
      if FileSystem.isFile(path) {
        try checkInside(path)
        return Location(path: path, environment: nil)
      }
    }
    return nil
  }

  /// Where `key`'s files are written: the first overlay, if any, and its environment folder
  /// when there is one.
  public func writePath(for key: SnapshotKey, suffix: String = ".png") -> String {
    (environment.map(environmentRoot) ?? writeBase) + "/" + key.relativePath(suffix: suffix)
  }

  /// Every key a run on this store sees: in each overlay and in the store, the root's keys
  /// (environment folders left out) and the environment folder's.
  public func visibleKeys() throws -> Set<SnapshotKey> {
    var keys = Set<SnapshotKey>()
    for layer in layers {
      keys.formUnion(try Self.keys(in: layer, leavingOutEnvironments: true))
      if let environment { keys.formUnion(try Self.keys(in: layer + "/" + environment, leavingOutEnvironments: false)) }
    }
    return keys
  }

  /// The path of a file beside a baseline (`.snapdiff.json`, `.tree.json`, `.rejected.json`).
  public func sidecarPath(of location: Location, suffix: String) -> String {
    String(location.path.dropLast(4)) + suffix
  }

  /// Writes `png` as the baseline of `key`, atomically, with its element tree beside it (an
  /// old tree is removed when the new frame has none).
  public func write(_ png: [UInt8], tree: ElementTree? = nil, for key: SnapshotKey) throws {
    try replace(png, tree: tree, for: key)
  }

  /// The baseline a frame was compared with, as a record-mode write expects to find it still:
  /// its path and its file's stamp when it was read (inode, size, times: an atomic replacement
  /// changes the inode).
  public struct Compared: Sendable, Equatable {
    public var path: String
    var stamp: FileHashes.Stamp?

    /// The file as it was read.
    public init(_ file: StampedFile) { (path, stamp) = (file.path, file.stamp) }

    /// The file at `location` now: take it before reading the baseline.
    public init(_ location: Location) { (path, stamp) = (location.path, FileHashes.Stamp(location.path)) }
  }

  /// Writes `png` as the baseline of `key` (as `write`) only when the baseline a run finds for
  /// `key` is still `compared` (`nil`: still none), checked under the same hold of the lock as
  /// the write: recording a frame never overwrites a baseline an approval or an undo wrote after
  /// the frame was compared.
  ///
  /// - Returns: whether it wrote.
  public func record(_ png: [UInt8], tree: ElementTree? = nil, for key: SnapshotKey, comparedWith compared: Compared?)
    throws -> Bool
  {
    try withLock {
      let now = try locate(key)
      guard now?.path == compared?.path else { return false }
      if let now {
        guard let expected = compared?.stamp, FileHashes.Stamp(now.path) == expected else { return false }
      }
      try replace(png, tree: tree, for: key)
      return true
    }
  }

  /// A baseline's bytes and its tree's bytes, as a replacement or removal found them.
  public struct Previous: Sendable {
    public var png: [UInt8]?
    public var tree: [UInt8]?
  }

  /// `write`, returning what was at the write path before (read under the same lock, so no
  /// other writer's baseline comes between): what an approval logs as the old baseline.
  @discardableResult
  public func replace(_ png: [UInt8], tree: ElementTree? = nil, for key: SnapshotKey) throws -> Previous {
    try replaceFiles(png, tree: tree, at: writePath(for: key), treePath: writePath(for: key, suffix: ".tree.json"))
  }

  /// Under the lock: `png` written at `path` and the tree at `treePath` (removed without one),
  /// returning what they held before. The one write of a baseline or a variant an approval logs.
  func replaceFiles(_ png: [UInt8], tree: ElementTree?, at path: String, treePath: String) throws -> Previous {
    let treeBytes = try tree?.encoded()
    return try withLock {
      try confinement.check(path)
      try confinement.check(treePath)
      let previous = try Previous(png: readIfFile(path), tree: readIfFile(treePath))
      try prepareFolder(for: path)
      try confinement.write(png, to: path)
      if let treeBytes {
        try confinement.write(treeBytes, to: treePath)
      } else {
        try confinement.remove(treePath)
      }
      return previous
    }
  }

  /// Deletes the baseline of `key` at `location` (and its sidecar files); returns the baseline
  /// and tree it removed.
  @discardableResult
  /// With `keepingSettings`, its settings and rejected changes stay (an undo that removes a
  /// baseline the approval created).
  public func remove(_ location: Location, keepingSettings: Bool = false) throws -> Previous {
    try withLock {
      let sidecars =
        keepingSettings ? [".tree.json"] : [".snapdiff.json", ".tree.json", ".rejected.json", Self.noiseSuffix]
      let paths =
        [location.path]
        + sidecars.map {
          sidecarPath(of: location, suffix: $0)
        }
      // All checked before the first is removed: a refusal leaves the snapshot whole.
      for path in paths { try confinement.check(path) }
      let previous = try Previous(
        png: readIfFile(location.path), tree: readIfFile(sidecarPath(of: location, suffix: ".tree.json")))
      for path in paths { try confinement.remove(path) }
      return previous
    }
  }

  /// `remove`, only when the baseline at `location` still has the SHA-256 `hash`, checked under
  /// the same hold of the lock as the removal: a baseline an approval wrote after the caller
  /// looked (a prune's listing, a run that found it missing) stays.
  ///
  /// - Returns: what it removed, or `nil` when the baseline changed (or is gone) and stays.
  public func remove(_ location: Location, keepingSettings: Bool = false, ifHash hash: String) throws -> Previous? {
    try withLock {
      guard FileSystem.isFile(location.path), SHA256.hex(try FileIO.read(location.path)) == hash else { return nil }
      return try remove(location, keepingSettings: keepingSettings)
    }
  }

  func readIfFile(_ path: String) throws -> [UInt8]? {
    FileSystem.isFile(path) ? try FileIO.read(path) : nil
  }

  /// Every baseline key in the root (environment folders left out), or in one environment.
  public func keys(inEnvironment environment: String? = nil) throws -> [SnapshotKey] {
    try Self.keys(in: environment.map(environmentRoot) ?? writeBase, leavingOutEnvironments: environment == nil)
  }

  /// The keys of the PNGs under `folder` (hidden names, so overlays, left out).
  static func keys(in folder: String, leavingOutEnvironments: Bool) throws -> [SnapshotKey] {
    guard FileSystem.isDirectory(folder) else { return [] }
    let files = try FileSystem.files(under: folder) { relative in
      leavingOutEnvironments && !PathText.containsSeparator(relative)
        && FileSystem.exists(folder + "/" + relative + "/" + Self.environmentMarker)
    }
    return files.filter { $0.hasSuffix(".png") }.compactMap { try? SnapshotKey(relativeImagePath: $0) }
  }

  /// The settings stored beside the baseline, if any.
  public func settings(at location: Location) throws -> SnapshotSettings? {
    try SnapshotSettings.load(sidecarPath(of: location, suffix: ".snapdiff.json"))
  }

  /// Writes `bytes` as the settings of `key` where this store writes (a merge carrying a
  /// branch's settings into the store).
  ///
  /// - Throws: `StoreEscapeError` for a write out of the store.
  public func writeSettings(_ bytes: [UInt8], for key: SnapshotKey) throws {
    try confinement.write(bytes, to: writePath(for: key, suffix: ".snapdiff.json"))
  }

  /// The change hashes rejected for the snapshot whose baseline is at `location`.
  public func rejectedChanges(at location: Location) throws -> Set<String> {
    let path = sidecarPath(of: location, suffix: ".rejected.json")
    guard FileSystem.isFile(path) else { return [] }
    return try RejectedChanges.decode(FileIO.read(path, limit: 1 << 24), path: path).changes
  }

  /// Remembers `changeHash` as rejected for the baseline at `location`.
  public func reject(_ changeHash: String, at location: Location) throws {
    let path = sidecarPath(of: location, suffix: ".rejected.json")
    try withLock {
      var rejected = RejectedChanges(changes: [])
      if FileSystem.isFile(path) {
        rejected = try RejectedChanges.decode(FileIO.read(path, limit: 1 << 24), path: path)
      }
      rejected.changes.insert(changeHash)
      try confinement.write(rejected.encoded(), to: path)
    }
  }

  /// Forgets a rejected change (it was approved after all).
  public func forgetRejection(_ changeHash: String, at location: Location) throws {
    let path = sidecarPath(of: location, suffix: ".rejected.json")
    guard FileSystem.isFile(path) else { return }
    try withLock {
      var rejected = try RejectedChanges.decode(FileIO.read(path, limit: 1 << 24), path: path)
      guard rejected.changes.remove(changeHash) != nil else { return }
      if rejected.changes.isEmpty {
        try confinement.remove(path)
      } else {
        try confinement.write(rejected.encoded(), to: path)
      }
    }
  }

  /// Runs `body` holding the store's lock (`<root>/.snapdiff.lock`).
  public func withLock<T>(_ body: () throws -> T) throws -> T {
    try FileSystem.createDirectories(root)
    try confinement.check(root + "/.snapdiff.lock")
    return try FileLock.withLock(root + "/.snapdiff.lock", rank: .store, body)
  }

  /// The folders searched, first to last: each overlay, then the store's root.
  var layers: [String] { overlays.map(overlayFolder) + [root] }

  /// Where writes go: the first overlay, or the root.
  var writeBase: String { overlays.first.map(overlayFolder) ?? root }

  func environmentRoot(_ environment: String) -> String { writeBase + "/" + environment }

  func prepareFolder(for path: String) throws {
    let folder = PathText.parent(of: path)
    try confinement.createFolders(folder)
    if let environment, !FileSystem.exists(environmentRoot(environment) + "/" + Self.environmentMarker) {
      try confinement.write(
        Array("snapdiff environment folder: \(environment)\n".utf8),
        to: environmentRoot(environment) + "/" + Self.environmentMarker)
    }
  }

  /// Refuses a baseline that is, or lies under, a link leading outside the store.
  /// By the confinement's rule (every link on the way resolves inside the store): an `lstat` per
  /// folder below the store, and a `realpath` only where there is a link, rather than resolving
  /// the whole path from `/` (twice per frame in the service, a failing `readlink` per folder).
  func checkInside(_ path: String) throws(FileError) {
    do {
      try confinement.check(path)
    } catch {
      throw FileError(path: path, message: "is a symbolic link that leads outside the baseline store")
    }
  }
}

/// `<key>.rejected.json`: the changes a reviewer refused for one snapshot.
struct RejectedChanges: Codable {
  var changes: Set<String>

  func encoded() throws -> [UInt8] {
    let body = changes.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    return Array("{\"changes\": [\(body)]}\n".utf8)
  }

  static func decode(_ bytes: [UInt8], path: String) throws -> RejectedChanges {
    do {
      return try JSONDecoderBox.decode(RejectedChanges.self, from: bytes)
    } catch {
      throw ConfigurationError("\(path): not a valid list of rejected changes: \(JSONProblem.describe(error))")
    }
  }
}
