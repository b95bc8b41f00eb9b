/// The images a run compared, kept by hash: each stored once in the blob store
/// (`BlobStore`) and linked into the run folder as `images/<hash>.png`, so that the run's
/// reports show what the run saw (not what the store holds now) and work wherever the folder
/// is copied. The links are hard links: they cost no space beside the blob.
///
/// ```swift
/// let images = RunImages(folder: folder, blobs: .beside(runsDirectory: ".snapdiff/runs"))
/// snapshot.baselineHash = try images.keep(baselineBytes)
/// ```
public struct RunImages: Sendable {
  public let folder: RunFolder
  public let blobs: BlobStore

  public init(folder: RunFolder, blobs: BlobStore) {
    self.folder = folder
    self.blobs = blobs
  }

  /// The folder of the links, in the run folder.
  public static let directory = "images"

  /// Where the image with `hash` is in a run folder, relative to it.
  public static func relativePath(of hash: String) -> String { directory + "/" + hash + ".png" }

  /// Stores `png` in the blob store and links it into the run folder; returns its hash.
  /// Call it inside `blobs.whileAdding`.
  public func keep(_ png: [UInt8]) throws -> String {
    let hash = try blobs.put(png)
    try link(hash)
    return hash
  }

  /// Reads the file at `path` and keeps it as `keep` does; returns its bytes and hash. A file
  /// unchanged since it was last hashed (a baseline) is not hashed again (`FileHashes`).
  public func keepFile(_ path: String) throws -> (bytes: [UInt8], hash: String) {
    let file = try StampedFile(path)
    return (file.bytes, try keep(file))
  }

  /// Keeps a file already read (`StampedFile`) as `keep` does, without reading it again; returns
  /// its hash. One unchanged since it was last hashed (a baseline) is not hashed again
  /// (`FileHashes`).
  public func keep(_ file: StampedFile) throws -> String {
    let known = FileHashes.shared(for: blobs).hashAndOrigin(of: file.path, bytes: file.bytes, stampedBefore: file.stamp)
    // A hash just computed from these bytes is not computed again to store them (a new data
    // folder hashed every file twice); a remembered one goes through put(_:rememberedHash:).
    let hash =
      known.computed
      ? try blobs.put(file.bytes, computedHash: known.hash) : try blobs.put(file.bytes, rememberedHash: known.hash)
    try link(hash)
    return hash
  }

  /// Links blob `hash` into the run folder (a folder that already has it is left alone), once
  /// the blob is checked whole (`BlobStore.contains`): a damaged blob is never linked into a run.
  ///
  /// - Throws: `FileError` naming the blob when it is gone or damaged (`put` writes it again).
  public func link(_ hash: String) throws {
    let target = folder.path + "/" + Self.relativePath(of: hash)
    if FileSystem.kind(of: target) == .file { return }
    guard blobs.contains(hash) else {
      throw FileError(
        path: blobs.path(of: hash), message: "is gone or damaged (not a regular file whose bytes hash to its name)")
    }
    try folder.confinement.createFolders(containing: target)
    try folder.confinement.link(blobs.path(of: hash), to: target)
  }

  /// The bytes of image `hash` as the run compared it: the run folder's own copy when it is a
  /// regular file whose bytes hash to `hash`, else the blob (`BlobStore.read`, checked the same
  /// way). Never read through a link: what a report shows is the image its hash names.
  ///
  /// - Throws: `FileError` when neither is there and whole.
  public func bytes(of hash: String) throws -> [UInt8] {
    let linked = folder.path + "/" + Self.relativePath(of: hash)
    if FileSystem.kind(of: linked) == .file, let bytes = try? FileIO.readRegularFile(linked, limit: 1 << 34),
      SHA256.hex(bytes) == hash
    {
      return bytes
    }
    return try blobs.read(hash)
  }

  /// The file that holds image `hash` whole, to be served as it is: the run folder's own copy
  /// (inside the folder, a regular file whose bytes hash to `hash`: a hard link to a checked blob
  /// is known whole without hashing it again), else the blob when it is whole; `nil` when neither
  /// is.
  public func wholeFile(of hash: String) -> String? {
    guard BlobStore.isHash(hash) else { return nil }
    let linked = folder.path + "/" + Self.relativePath(of: hash)
    if (try? folder.confinement.check(linked)) != nil,
      FileHashes.shared(for: blobs).isWholeBlob(linked, hash: hash)
    {
      return linked
    }
    return blobs.contains(hash) ? blobs.path(of: hash) : nil
  }

  /// The hashes a snapshot's record holds.
  public static func hashes(of snapshot: SnapshotRecord) -> [String] {
    [snapshot.baselineHash, snapshot.currentHash, snapshot.diffHash].compactMap { $0 }
  }
}
