/// Collecting the blobs nothing refers to any more: the one rule of what keeps a blob.
///
/// A blob stays while a `run.json` in the runs folder records its hash (a run's baseline,
/// current frame or diff image), while the approval log names it (an old or new baseline or
/// tree, which `approve --undo` may need), or while a baseline file in the store holds its bytes.
/// Everything else goes. The referenced set is computed and the blobs removed while holding the
/// blob store's lock exclusively: a run in progress holds it shared from its first blob until its
/// `run.json` names them, so nothing it wrote can be collected.
///
/// ```swift
/// let result = try BlobCollection.collect(
///   blobs: .beside(runsDirectory: runs), runsDirectory: runs, store: store, delete: true)
/// print("\(result.hashes.count) blobs, \(result.bytes) bytes")
/// ```
public enum BlobCollection {
  /// What a collection found (and, when deleting, removed).
  public struct Result: Sendable, Equatable {
    /// The unreferenced blobs, sorted.
    public var hashes: [String] = []
    /// Their size in all.
    public var bytes: Int = 0
    /// How many blobs stay.
    public var kept: Int = 0
  }

  /// Finds the blobs nothing refers to and, with `delete`, removes them.
  public static func collect(
    blobs: BlobStore, runsDirectory: String, store: BaselineStore, delete: Bool
  ) throws -> Result {
    try blobs.whileCollecting {
      let referenced = try self.referenced(runsDirectory: runsDirectory, store: store)
      var result = Result()
      for hash in try blobs.hashes() {
        if referenced.contains(hash) {
          result.kept += 1
          continue
        }
        result.hashes.append(hash)
        result.bytes += FileIO.regularFileSize(blobs.path(of: hash)) ?? 0
        if delete { try blobs.remove(hash) }
      }
      return result
    }
  }

  /// Every hash a run, the approval log or the store's files refer to.
  ///
  /// - Throws: `RunError` for a `run.json` that does not decode: a blob it might name is never
  ///   collected by guess.
  public static func referenced(runsDirectory: String, store: BaselineStore) throws -> Set<String> {
    let runs = FileSystem.absolute(runsDirectory)
    var hashes = Set<String>()
    for name in (try? FileSystem.entries(of: runs)) ?? [] where name != "last" {
      let path = runs + "/" + name + "/run.json"
      guard FileSystem.isFile(path) else { continue }
      let record = try RunRecord.decode(FileIO.read(path, limit: 1 << 30), path: path)
      for snapshot in record.snapshots { hashes.formUnion(RunImages.hashes(of: snapshot)) }
    }
    let log = ApprovalLog(dataDirectory: PathText.parent(of: runs))
    for entry in try log.entries() {
      hashes.formUnion([entry.old, entry.new, entry.oldTree, entry.newTree].compactMap { $0 })
    }
    // The store's files and its branch overlays' (a hidden folder, which listings leave out).
    for folder in [store.root, store.root + "/" + BranchOverlay.directory] where FileSystem.isDirectory(folder) {
      for file in try FileSystem.files(under: folder) where file.hasSuffix(".png") || file.hasSuffix(".tree.json") {
        hashes.insert(SHA256.hex(try FileIO.read(folder + "/" + file)))
      }
    }
    return hashes
  }
}
