#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `snapdiff merge`: joins the runs of one run's parts (CI jobs that each ran `check --shard
/// i/n` or `check --partial`) into one complete run, with one set of reports.
///
/// A baseline is `missing` in the merged run only when no part received its frame (nor skipped
/// it). The parts' current frames and diff images come into the blob store, and the new run
/// folder links them, so the merged run keeps what its review needs, like any other.
///
/// A part is a CI artifact: untrusted input. Nothing in it is taken on its word: its files are
/// read only inside its folder, as regular files within `Limits`; an image is taken only when its
/// bytes hash to the hash the record names (what the report shows is what `approve` promotes);
/// the merged record's paths are this run's own (`current/<key>.png`, `diff/<key>.png`), never
/// the part's; a verdict that contradicts its images (a `passed` snapshot whose frame is not its
/// baseline's bytes) or a shard that is not `i/n` is refused.
///
/// A `passed` verdict is checked by its frame: the part kept it (`currentHash`) and its bytes
/// are the baseline this store holds now. A part keeps no frame of a snapshot that passed within
/// the tolerances (its bytes differ from the baseline's), so nothing shows that such a verdict
/// was not `failed` before the part was changed: it is merged as passed and marked `unverified`
/// (`SnapshotRecord.unverified`, which `snapdiff merge` reports), or refused with
/// `verifiedOnly`.
///
/// ```swift
/// let merger = RunMerger(store: try BaselineStore(root: "baselines"), runsDirectory: ".snapdiff/runs")
/// let outcome = try merger.merge([RunFolder(path: "shard-1"), RunFolder(path: "shard-2")])
/// print(outcome.record.counts)
/// ```
public struct RunMerger: Sendable {
  public var store: BaselineStore
  public var runsDirectory: String
  public var limits = Limits()
  /// Refuse the merge when a part's `passed` verdict cannot be checked by its frame, rather
  /// than merge it marked `unverified`.
  public var verifiedOnly = false

  /// What one part may hold; anything over is refused before it is merged.
  public struct Limits: Sendable, Equatable {
    /// The part's `run.json`, in bytes (32 MiB: some 50,000 snapshots as `check` writes them).
    public var recordBytes = 32 << 20
    /// Snapshots in one part.
    public var snapshots = 50_000
    /// One image file of the part (`images/<hash>.png`), in bytes.
    public var imageBytes = 256 << 20
    /// One element tree beside a current frame, in bytes.
    public var treeBytes = 16 << 20
    /// The text one snapshot's record carries into the reports (its key, error, notes, text and
    /// layout changes, region lists), in bytes.
    public var snapshotTextBytes = 64 << 10

    public init() {}
  }

  public init(store: BaselineStore, runsDirectory: String) {
    self.store = store
    self.runsDirectory = FileSystem.absolute(runsDirectory)
  }

  /// Merges `parts` into a new run, marked as the last one.
  ///
  /// - Throws: `RunError` when the parts do not make one run: a part that is complete on its
  ///   own or still open, shards that are not all of `1/n … n/n` once each, environments or
  ///   record modes that differ, a key in two parts, a part over `limits`, a shard that is not
  ///   `i/n`, an image whose bytes are not its hash, a verdict its images contradict; `KeyError`
  ///   for keys that collide or cannot be keys; `StoreEscapeError` for a part whose files lead
  ///   out of its folder; `FileError` for a file that is not a regular file.
  public func merge(_ parts: [RunFolder]) throws -> RunChecker.Outcome {
    guard let first = parts.first else { throw RunError("say which runs to merge") }
    let records = try parts.map(loadPart)
    try Self.checkParts(records, folders: parts)
    for (record, part) in zip(records, parts) {
      for snapshot in record.snapshots { try check(snapshot, of: part) }
    }

    var owner: [String: String] = [:]
    for (record, part) in zip(records, parts) {
      for snapshot in record.snapshots {
        if let other = owner.updateValue(part.path, forKey: snapshot.key) {
          throw RunError(
            "'\(snapshot.key)' is in two of the runs to merge (\(other) and \(part.path)): each key belongs to one part"
          )
        }
      }
    }
    let keys = try owner.keys.map { try SnapshotKey($0) }
    try SnapshotKey.checkNoCollisions(keys)
    let missingKeys = try MissingBaselines.keys(in: store, received: Set(keys))
    let unverified = try unverifiedPasses(records)
    if verifiedOnly, let first = unverified.min() {
      throw RunError(
        "\(unverified.count) passed snapshot\(unverified.count == 1 ? "" : "s") of the parts (first '\(first)') kept no frame that is the store's baseline: their verdicts cannot be checked (--verified-only); nothing merged"
      )
    }

    let (folder, createdAt) = try RunFolder.create(in: runsDirectory)
    let images = RunImages(folder: folder, blobs: BlobStore.beside(runsDirectory: runsDirectory))
    return try images.blobs.whileAdding {
      try FileLock.withLock(folder.path + "/.lock", rank: .run) {
        var snapshots: [SnapshotRecord] = []
        for (record, part) in zip(records, parts) {
          for var snapshot in record.snapshots {
            let key = try SnapshotKey(snapshot.key)
            // The images the part compared, into this blob store (a part from another machine
            // brings them in its images/ folder) and linked into the merged run.
            for hash in RunImages.hashes(of: snapshot) { try adopt(hash, from: part, into: images) }
            // Paths are this run's own, never the part's: the frame and diff image as their
            // hashes name them.
            snapshot.current = try placeCurrent(of: snapshot, key: key, from: part, in: images)
            snapshot.diff = try snapshot.diffHash.map { hash in
              folder.relative(try place(hash, at: folder.diffPath(for: key), in: images))
            }
            // The baseline as this store has it (a part may come from another machine).
            let baseline = try store.locate(SnapshotKey(snapshot.key))
            // run.json names the baseline by its path, relative to the run folder: the record format.
            snapshot.baseline = baseline.map { folder.relative($0.path) }
            snapshot.unverified = unverified.contains(snapshot.key) ? true : nil
            snapshots.append(snapshot)
          }
        }
        // A missing snapshot, as `check` records one.
        let checker = RunChecker(currentDirectory: folder.path, store: store, runsDirectory: runsDirectory)
        snapshots += missingKeys.map { checker.check($0, currentPath: nil, folder: folder) }

        var record = RunRecord(
          id: folder.id, createdAt: createdAt,
          currentDirectory: folder.relative(first.resolve(records[0].currentDirectory)),
          baselinesDirectory: folder.relative(store.root), environment: store.environment,
          recordMode: records[0].recordMode, complete: true,
          snapshots: snapshots.sorted { SnapshotKey.Ordering.precedes($0.key, $1.key) })
        record.name = records[0].name
        record.branch = records[0].branch
        record.baseBranch = records[0].baseBranch
        record.mergeBase = records[0].mergeBase
        // One commit for the whole run only when every part says the same one.
        record.commit = Set(records.map(\.commit)).count == 1 ? records[0].commit : nil
        record.mergedFrom = records.map(\.id)
        record.closedAt = RunFolder.timestamp().iso
        try folder.save(record)
        try RunReports.write(record, to: folder)
        try folder.markAsLast()
        return RunChecker.Outcome(record: record, folder: folder)
      }
    }
  }

  /// Blob `hash` of a part: already in the blob store, or read from the part's `images/`
  /// (checked to hash to its name), then linked into the merged run.
  private func adopt(_ hash: String, from part: RunFolder, into images: RunImages) throws {
    guard BlobStore.isHash(hash) else { throw RunError("\(part.recordPath): '\(hash)' is not an image hash") }
    if !images.blobs.contains(hash) {
      let source = part.path + "/" + RunImages.relativePath(of: hash)
      let bytes = try part.confinement.read(source, limit: limits.imageBytes)
      guard SHA256.hex(bytes) == hash else {
        throw RunError("\(source): its bytes do not hash to its name: the part's images are damaged")
      }
      try images.blobs.put(bytes)
    }
    try images.link(hash)
  }

  /// The keys of the parts' `passed` snapshots that their frames do not show passed: no frame
  /// kept, or one whose bytes are not the baseline this store holds now (hashed as `check`
  /// hashes baselines, once per unchanged file: `FileHashes`).
  private func unverifiedPasses(_ records: [RunRecord]) throws -> Set<String> {
    let hashes = FileHashes.shared(for: BlobStore.beside(runsDirectory: runsDirectory))
    var unverified = Set<String>()
    for record in records {
      for snapshot in record.snapshots where snapshot.status == .passed {
        guard let current = snapshot.currentHash, let baseline = try store.locate(SnapshotKey(snapshot.key)),
          let file = try? store.stampedFile(at: baseline),
          hashes.hashAndOrigin(of: file.path, bytes: file.bytes, stampedBefore: file.stamp).hash == current
        else {
          unverified.insert(snapshot.key)
          continue
        }
      }
    }
    return unverified
  }

  /// The parts make one run: each partial and closed, one environment and record mode, and
  /// shards (when any part is one) exactly `1/n … n/n`.
  static func checkParts(_ records: [RunRecord], folders: [RunFolder]) throws(RunError) {
    for (record, folder) in zip(records, folders) {
      if record.closedAt == nil {
        throw RunError("run \(record.id) (\(folder.path)) is still open: close it before merging")
      }
      if record.complete {
        throw RunError(
          "run \(record.id) (\(folder.path)) checked every frame on its own: merge joins the runs of `check --shard i/n` or `check --partial`"
        )
      }
    }
    let environments = Set(records.map { $0.environment ?? "" })
    if environments.count > 1 {
      throw RunError(
        "the runs were checked against different environments (\(environments.sorted().map { $0.isEmpty ? "none" : $0 }.joined(separator: ", "))): merge the runs of one environment"
      )
    }
    let modes = Set(records.map(\.recordMode.rawValue))
    if modes.count > 1 {
      throw RunError(
        "the runs used different record modes (\(modes.sorted().joined(separator: ", "))): check every part with the same --record"
      )
    }
    var shards: [Shard] = []
    for (record, folder) in zip(records, folders) {
      guard let text = record.shard else { continue }
      do {
        shards.append(try Shard(text))
      } catch {
        throw RunError("\(folder.recordPath): \(error)")
      }
    }
    guard !shards.isEmpty else { return }
    guard shards.count == records.count, let count = shards.first?.count, shards.allSatisfy({ $0.count == count })
    else {
      throw RunError(
        "the runs are not parts of one split: every one must come from `check --shard i/n` with the same n")
    }
    var seen = Set<Int>()
    for (shard, record) in zip(shards, records) where !seen.insert(shard.index).inserted {
      throw RunError("shard \(shard) is given twice (run \(record.id) is one of them)")
    }
    let absent = (1...count).filter { !seen.contains($0) }
    if !absent.isEmpty {
      throw RunError(
        "shard\(absent.count == 1 ? "" : "s") \(absent.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: merge needs every part, or its frames would look removed"
      )
    }
  }

  /// A part's `run.json`, read as a regular file inside the part, within `limits`.
  private func loadPart(_ part: RunFolder) throws -> RunRecord {
    let record = try RunRecord.decode(
      part.confinement.read(part.recordPath, limit: limits.recordBytes), path: part.recordPath)
    guard record.snapshots.count <= limits.snapshots else {
      throw RunError(
        "\(part.recordPath): \(record.snapshots.count) snapshots, over the limit of \(limits.snapshots) for one part")
    }
    return record
  }

  /// One snapshot of a part, before anything is merged: its key is a key, its text within
  /// `limits`, and its verdict agrees with the images it names.
  private func check(_ snapshot: SnapshotRecord, of part: RunFolder) throws {
    let key = try SnapshotKey(snapshot.key)
    let text = snapshot.textBytes
    guard text <= limits.snapshotTextBytes else {
      throw RunError(
        "\(part.recordPath): '\(key)' carries \(text) bytes of text, over the limit of \(limits.snapshotTextBytes) for one snapshot"
      )
    }
    func refuse(_ problem: String) -> RunError {
      RunError(
        "\(part.recordPath): '\(key)' is \(snapshot.status.rawValue), but \(problem): the part was changed after its check; nothing merged"
      )
    }
    switch snapshot.status {
    case .passed:
      // A passing frame is kept only when it is its baseline's bytes (`RunChecker.conclude`).
      if let current = snapshot.currentHash, current != snapshot.baselineHash {
        throw refuse(
          "its frame (sha256 \(current.prefix(12))) is not its baseline's bytes (\(BaselineHistory.short(snapshot.baselineHash)))"
        )
      }
      if snapshot.diffHash != nil { throw refuse("it has a diff image") }
    case .failed where snapshot.error == nil, .new, .rejected:
      if snapshot.currentHash == nil { throw refuse("it names no current frame") }
    case .missing:
      if snapshot.currentHash != nil { throw refuse("it names a current frame") }
    default:
      break
    }
  }

  /// A snapshot's current frame, by its hash, at this run's path for it (`current/<key>.png`),
  /// with the element tree the part kept beside it (read inside the part, within `limits`, and
  /// decoded); `nil` for a passing frame (the report shows its baseline) or one without a hash.
  private func placeCurrent(of snapshot: SnapshotRecord, key: SnapshotKey, from part: RunFolder, in images: RunImages)
    throws -> String?
  {
    guard snapshot.status != .passed, let hash = snapshot.currentHash else { return nil }
    let target = try place(hash, at: images.folder.currentCopyPath(for: key), in: images)
    let partTree = Frame.treePath(besidePNG: part.currentCopyPath(for: key))
    if FileSystem.exists(partTree) {
      let tree = try ElementTree.decode(part.confinement.read(partTree, limit: limits.treeBytes), path: partTree)
      try images.folder.confinement.write(try tree.encoded(), to: Frame.treePath(besidePNG: target))
    }
    return images.folder.relative(target)
  }

  /// Blob `hash` (adopted already) given a second name at `path` in the merged run folder.
  private func place(_ hash: String, at path: String, in images: RunImages) throws -> String {
    try images.folder.confinement.createFolders(containing: path)
    try images.folder.confinement.replaceWithLink(to: images.blobs.path(of: hash), at: path)
    return path
  }
}

extension SnapshotRecord {
  /// How many bytes the record takes as JSON: the text it carries into the reports.
  fileprivate var textBytes: Int {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(self).count) ?? Int.max
  }
}
