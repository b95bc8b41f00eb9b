#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every image a run compared (baseline, current frame, diff image) and every baseline an
/// approval replaced, stored once by the SHA-256 of its bytes: `<data>/blobs/sha256/ab/abcd…`
/// (the first two hex digits make a folder, so no folder holds more than a few thousand files).
///
/// A blob never changes once written (its name is its content; the file is made read-only), so
/// runs share one file for an image they all compared, and `run.json` records hashes that stay
/// true after the baseline store moves on. A blob is checked before it is used (`contains`: a
/// regular file whose bytes hash to its name, hashed once per version of the file): one that was
/// replaced, cut short or turned into a link is written again from the bytes being put, never
/// linked into a run or read as it is; `prune` repairs the others from a good copy. Writers that
/// add blobs hold the store's lock shared (`whileAdding`) until what they added is referenced (a
/// `run.json`, the approval log); `BlobCollection` holds it exclusively, so a blob written by a
/// run in progress is never collected.
///
/// ```swift
/// let blobs = BlobStore.beside(runsDirectory: ".snapdiff/runs")
/// let hash = try blobs.put(pngBytes)          // stored once, however often it is put
/// let same = try blobs.read(hash)
/// ```
public struct BlobStore: Sendable {
  /// `<data>/blobs`, absolute.
  public let root: String
  /// The rule every write and removal in the store goes through.
  public let confinement: Confinement

  public init(root: String) {
    self.root = FileSystem.absolute(root)
    confinement = Confinement(root: self.root, place: "blob store")
  }

  /// The blob store of the data folder that holds `runsDirectory` (`.snapdiff/runs` →
  /// `.snapdiff/blobs`), where the CLI and the service both keep it.
  public static func beside(runsDirectory: String) -> BlobStore {
    let runs = FileSystem.absolute(runsDirectory)
    return BlobStore(root: PathText.parent(of: runs) + "/blobs")
  }

  /// Whether `text` can name a blob: 64 lowercase hexadecimal digits (nothing else can reach a
  /// path, whatever a `run.json` says).
  public static func isHash(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The file of blob `hash`.
  public func path(of hash: String) -> String {
    root + "/sha256/" + hash.prefix(2) + "/" + hash
  }

  /// Whether blob `hash` is here and whole: a regular file (never a link) whose bytes hash to
  /// its name (`FileHashes.isWholeBlob`: hashed once per version of the file).
  public func contains(_ hash: String) -> Bool {
    Self.isHash(hash) && fileHashes.isWholeBlob(path(of: hash), hash: hash)
  }

  /// The blob file's hashes, remembered (`FileHashes`).
  private var fileHashes: FileHashes { FileHashes.shared(for: self) }

  /// Stores `bytes` (when no blob holds them yet) and returns their hash. Call it inside
  /// `whileAdding`, and reference the hash before that ends.
  @discardableResult
  public func put(_ bytes: [UInt8]) throws -> String {
    try put(bytes, computedHash: SHA256.hex(bytes))
  }

  /// `put`, for bytes whose hash was computed from these very bytes a moment ago (never a
  /// remembered one: `put(_:rememberedHash:)`), so they are not hashed a second time.
  @discardableResult
  public func put(_ bytes: [UInt8], computedHash hash: String) throws -> String {
    let target = path(of: hash)
    // Same name, same bytes: a whole blob is never written again.
    if fileHashes.isWholeBlob(target, hash: hash, size: bytes.count) { return hash }
    // Absent, or damaged (replaced, cut short, a link): written again from these bytes.
    try confinement.createFolders(containing: target)
    try discardIfNotAFile(target)
    try confinement.write(bytes, to: target)
    chmod(target, 0o444)
    fileHashes.wroteBlob(at: target, hash: hash)
    return hash
  }

  /// Removes what is at `path` when it is not a regular file (a link, which `confinement` would
  /// refuse to write through when it leads out: the link itself goes, nothing it points to).
  private func discardIfNotAFile(_ path: String) throws {
    guard let kind = FileSystem.kind(of: path), kind != .file else { return }
    try confinement.check(PathText.parent(of: path))
    try FileSystem.remove(path)
  }

  /// `put`, for bytes whose hash may be known already (`FileHashes`): a blob that exists under
  /// that name is taken as it is; otherwise the bytes are hashed before they are written, so a
  /// wrong hash never names a blob.
  @discardableResult
  public func put(_ bytes: [UInt8], rememberedHash: String?) throws -> String {
    if let rememberedHash, contains(rememberedHash) { return rememberedHash }
    return try put(bytes)
  }

  /// The bytes of blob `hash`.
  ///
  /// - Throws: `FileError` naming the file when there is no such blob, or when its bytes no
  ///   longer hash to its name (damaged on disk).
  public func read(_ hash: String) throws(FileError) -> [UInt8] {
    guard Self.isHash(hash) else { throw FileError(path: root, message: "'\(hash)' is not a SHA-256 blob name") }
    let file = path(of: hash)
    switch FileSystem.kind(of: file) {
    case nil:
      throw FileError(path: file, message: "no such blob: it was never stored here, or it was collected by prune")
    case .file?:
      break
    default:
      throw FileError(path: file, message: "is damaged: not a regular file (a blob is never a link)")
    }
    let bytes = try FileIO.readRegularFile(file, limit: 1 << 34)
    guard SHA256.hex(bytes) == hash else {
      throw FileError(path: file, message: "is damaged: its bytes no longer hash to its name")
    }
    fileHashes.wroteBlob(at: file, hash: hash)
    return bytes
  }

  /// The element tree stored as blob `hash` (an approval log's `oldTree`/`newTree`).
  ///
  /// - Throws: `FileError` as ``read(_:)`` does, `ConfigurationError` naming the blob when it is
  ///   not a valid tree.
  public func elementTree(_ hash: String) throws -> ElementTree {
    try ElementTree.decode(read(hash), path: path(of: hash))
  }

  /// Writes blob `hash` again from `bytes` (which must hash to it) when it is damaged: what
  /// `prune` does with a good copy it found.
  ///
  /// - Returns: whether it was damaged (and is now whole).
  @discardableResult
  public func repair(_ hash: String, from bytes: [UInt8]) throws -> Bool {
    guard !contains(hash) else { return false }
    guard SHA256.hex(bytes) == hash else {
      throw FileError(path: path(of: hash), message: "the copy offered does not hash to it")
    }
    try put(bytes, computedHash: hash)
    return true
  }

  /// Every blob's hash, sorted (whole or not: `contains` checks one).
  public func hashes() throws -> [String] {
    let folder = root + "/sha256"
    guard FileSystem.isDirectory(folder) else { return [] }
    return try FileSystem.files(under: folder).compactMap { file in
      let name = String(file[file.index(after: file.lastIndex(of: "/") ?? file.startIndex)...])
      return Self.isHash(name) && file.hasPrefix(name.prefix(2) + "/") ? name : nil
    }
  }

  /// Runs `body`, which adds blobs and references them, holding the store's lock shared: many
  /// writers at once, never during a collection.
  public func whileAdding<T>(_ body: () throws -> T) throws -> T {
    try FileSystem.createDirectories(root)
    try confinement.check(lockPath)
    return try FileLock.withLock(lockPath, rank: .blobs, shared: true, body)
  }

  /// Runs `body` holding the store's lock exclusively: no blob is added meanwhile.
  public func whileCollecting<T>(_ body: () throws -> T) throws -> T {
    try FileSystem.createDirectories(root)
    try confinement.check(lockPath)
    return try FileLock.withLock(lockPath, rank: .blobs, body)
  }

  /// Removes blob `hash` (missing is fine).
  public func remove(_ hash: String) throws {
    guard Self.isHash(hash) else { return }
    try confinement.remove(path(of: hash))
  }

  private var lockPath: String { root + "/.lock" }
}
