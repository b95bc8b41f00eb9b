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
    /// Blobs that stay but are damaged (not a regular file whose bytes hash to its name) and had
    /// no good copy, or were not repaired (without `delete`), sorted.
    public var damaged: [String] = []
    /// Damaged blobs written again from a good copy (with `delete`), sorted.
    public var repaired: [String] = []
  }

  /// Finds the blobs nothing refers to and, with `delete`, removes them. Checks the blobs that
  /// stay (`BlobStore.contains`) and, with `delete`, writes a damaged one again from a good copy:
  /// a run folder's `images/<hash>.png` or a baseline with those bytes.
  public static func collect(
    blobs: BlobStore, runsDirectory: String, store: BaselineStore, delete: Bool
  ) throws -> Result {
    try blobs.whileCollecting {
      var copies: [String: [String]] = [:]
      let referenced = try self.referenced(runsDirectory: runsDirectory, store: store, copies: &copies)
      var result = Result()
      for hash in try blobs.hashes() {
        if referenced.contains(hash) {
          result.kept += 1
          if !blobs.contains(hash) {
            let copy = delete ? goodCopy(of: hash, among: copies[hash] ?? []) : nil
            if let copy, try blobs.repair(hash, from: copy) {
              result.repaired.append(hash)
            } else {
              result.damaged.append(hash)
            }
          }
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
    var copies: [String: [String]] = [:]
    return try referenced(runsDirectory: runsDirectory, store: store, copies: &copies)
  }

  /// `referenced`, and where other copies of each blob may be (`copies`: run folders' links,
  /// baseline files), for repairs.
  static func referenced(runsDirectory: String, store: BaselineStore, copies: inout [String: [String]]) throws
    -> Set<String>
  {
    let runs = FileSystem.absolute(runsDirectory)
    var hashes = Set<String>()
    for name in (try? FileSystem.entries(of: runs)) ?? [] where name != "last" {
      let path = runs + "/" + name + "/run.json"
      guard FileSystem.isFile(path) else { continue }
      let record = try RunRecord.decode(FileIO.read(path, limit: 1 << 30), path: path)
      for snapshot in record.snapshots {
        for hash in RunImages.hashes(of: snapshot) {
          hashes.insert(hash)
          copies[hash, default: []].append(runs + "/" + name + "/" + RunImages.relativePath(of: hash))
        }
      }
    }
    let log = ApprovalLog(dataDirectory: PathText.parent(of: runs))
    let (entries, damaged) = try log.read()
    for entry in entries {
      hashes.formUnion([entry.old, entry.new, entry.oldTree, entry.newTree].compactMap { $0 })
    }
    // A damaged line's blobs are kept too: what it named cannot be known, so nothing it may
    // have named is collected.
    for line in damaged { hashes.formUnion(line.hashes) }
    // The store's files and its branch overlays'; each path remembered as a copy of its blob.
    try store.forEachImageFile { path, bytes in
      let hash = SHA256.hex(bytes)
      hashes.insert(hash)
      copies[hash, default: []].append(path)
    }
    return hashes
  }

  /// The bytes of the first of `paths` that is a regular file (not a link) hashing to `hash`.
  private static func goodCopy(of hash: String, among paths: [String]) -> [UInt8]? {
    for path in paths where FileSystem.kind(of: path) == .file {
      if let bytes = try? FileIO.readRegularFile(path, limit: 1 << 34), SHA256.hex(bytes) == hash { return bytes }
    }
    return nil
  }
}
