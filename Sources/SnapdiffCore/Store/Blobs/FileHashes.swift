import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The SHA-256 of files already hashed, remembered by what `stat` says of them (device, inode,
/// size, modification and change times to the nanosecond), so that a run does not hash every
/// unchanged baseline again: a baseline is replaced by `rename` (a new inode) and any write
/// changes its change time, which no one can set. Kept in `<blobs>/file-hashes`, one entry a
/// line, shared by the processes of one data folder, at most `limit` entries.
///
/// A remembered hash is trusted only when its blob exists (`RunImages.keep` hashes the bytes
/// before writing a new blob), and a file whose `stat` changed while it was read is hashed.
///
/// ```swift
/// let hashes = FileHashes.shared(for: blobs)
/// let stamp = FileHashes.Stamp(path)
/// let bytes = try FileIO.read(path)
/// let hash = hashes.hash(of: path, bytes: bytes, stampedBefore: stamp)
/// ```
public final class FileHashes: @unchecked Sendable {
  /// The file, `<blobs>/file-hashes`.
  public let path: String
  public let limit: Int
  private let confinement: Confinement
  private var known: [Stamp: String] = [:]
  private var added: [Stamp: String] = [:]
  private let lock = DispatchSemaphore(value: 1)

  /// What `stat` says of a file, as far as its content goes.
  public struct Stamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    /// The file's stamp now, or `nil` when it is not a regular file.
    public init?(_ path: String) {
      var status = stat()
      guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
      size = Int64(status.st_size)
      modified = status.modificationTime.nanoseconds
      changed = status.statusChangeTime.nanoseconds
    }

    init?(line: Substring) {
      let fields = line.split(separator: " ")
      guard fields.count == 6, let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
        let size = Int64(fields[2]), let modified = Int64(fields[3]), let changed = Int64(fields[4])
      else { return nil }
      (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    var line: String { "\(device) \(inode) \(size) \(modified) \(changed)" }

    /// A blob file's stamp: `lstat` (a link is never a blob), and no change time, which every
    /// hard link into a run moves; `changed` is -1, which no file's stamp has.
    init?(blobAt path: String) {
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
      size = Int64(status.st_size)
      modified = status.modificationTime.nanoseconds
      changed = -1
    }
  }

  private static let registry = Registry()

  /// The process's one instance for `blobs` (the service keeps it between requests).
  public static func shared(for blobs: BlobStore, limit: Int = 100_000) -> FileHashes {
    registry.instance(for: blobs.root) { FileHashes(blobs: blobs, limit: limit) }
  }

  init(blobs: BlobStore, limit: Int) {
    path = blobs.root + "/file-hashes"
    self.limit = limit
    confinement = blobs.confinement
    known = Self.load(path)
  }

  /// The SHA-256 of `bytes`, read from `path` after `stampedBefore` was taken: remembered when
  /// the file's stamp is unchanged and known, else computed (and remembered).
  public func hash(of path: String, bytes: [UInt8], stampedBefore: Stamp?) -> String {
    hashAndOrigin(of: path, bytes: bytes, stampedBefore: stampedBefore).hash
  }

  /// `hash(of:bytes:stampedBefore:)`, and whether it was computed from `bytes` just now
  /// (`computed`: a blob store may take it as it is) rather than remembered.
  public func hashAndOrigin(of path: String, bytes: [UInt8], stampedBefore: Stamp?) -> (hash: String, computed: Bool) {
    guard let stampedBefore, Stamp(path) == stampedBefore else { return (SHA256.hex(bytes), true) }
    lock.wait()
    let remembered = known[stampedBefore] ?? added[stampedBefore]
    lock.signal()
    if let remembered { return (remembered, false) }
    let hash = SHA256.hex(bytes)
    lock.wait()
    added[stampedBefore] = hash
    lock.signal()
    return (hash, true)
  }

  /// Whether the blob file at `path` is whole: a regular file (never a link) of `size` bytes
  /// (when given) whose bytes hash to `hash`. A file found whole is remembered by its device,
  /// inode, size and modification time, which replacing, cutting or writing it changes, so each
  /// version of a blob is hashed once, not each time a run links it. (Like the baseline cache's
  /// checksum, this finds damage, not forgery: whoever can rewrite a blob and set its times back
  /// can rewrite the baselines.)
  public func isWholeBlob(_ path: String, hash: String, size: Int? = nil) -> Bool {
    guard let stamp = Stamp(blobAt: path), size.map({ Int64($0) == stamp.size }) ?? true else { return false }
    lock.wait()
    let remembered = known[stamp] ?? added[stamp]
    lock.signal()
    if remembered == hash { return true }
    guard let bytes = try? FileIO.readRegularFile(path, limit: Int(clamping: stamp.size)),
      Stamp(blobAt: path) == stamp, SHA256.hex(bytes) == hash
    else { return false }
    rememberBlob(stamp, hash: hash)
    return true
  }

  /// Remembers the blob file just written at `path` as whole (its bytes hash to `hash`).
  public func wroteBlob(at path: String, hash: String) {
    if let stamp = Stamp(blobAt: path) { rememberBlob(stamp, hash: hash) }
  }

  private func rememberBlob(_ stamp: Stamp, hash: String) {
    lock.wait()
    added[stamp] = hash
    lock.signal()
  }

  /// Writes what was learnt since the last save, merged with the file as it is now (another
  /// process may have saved meanwhile), keeping at most `limit` entries. A file that cannot be
  /// written is no error: hashes are computed again next time.
  public func save() {
    lock.wait()
    defer { lock.signal() }
    guard !added.isEmpty else { return }
    var merged = Self.load(path)
    for (stamp, hash) in added { merged[stamp] = hash }
    // Over the limit: the entries learnt now stay, the others go in no particular order.
    if merged.count > limit {
      for stamp in merged.keys where added[stamp] == nil {
        merged[stamp] = nil
        if merged.count <= limit { break }
      }
    }
    let text = merged.map { "\($0.key.line) \($0.value)\n" }.sorted().joined()
    guard (try? confinement.createFolders(containing: path)) != nil,
      (try? confinement.write(Array(text.utf8), to: path)) != nil
    else { return }
    for (stamp, hash) in added { known[stamp] = hash }
    added = [:]
  }

  private static func load(_ path: String) -> [Stamp: String] {
    guard let bytes = try? FileIO.read(path, limit: 1 << 26) else { return [:] }
    var entries: [Stamp: String] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      guard let space = line.lastIndex(of: " "), let stamp = Stamp(line: line) else { continue }
      let hash = String(line[line.index(after: space)...])
      if BlobStore.isHash(hash) { entries[stamp] = hash }
    }
    return entries
  }

  private final class Registry: @unchecked Sendable {
    private var instances: [String: FileHashes] = [:]
    private let lock = DispatchSemaphore(value: 1)

    func instance(for root: String, make: () -> FileHashes) -> FileHashes {
      lock.wait()
      defer { lock.signal() }
      if let existing = instances[root] { return existing }
      let made = make()
      instances[root] = made
      return made
    }
  }
}
