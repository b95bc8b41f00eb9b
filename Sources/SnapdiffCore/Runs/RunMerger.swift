/// `snapdiff merge`: joins the runs of one run's parts (CI jobs that each ran `check --shard
/// i/n` or `check --partial`) into one complete run, with one set of reports.
///
/// A baseline is `missing` in the merged run only when no part received its frame (nor skipped
/// it). The parts' current frames and diff images are copied into the new run folder, so the
/// merged run keeps what its review needs, like any other.
///
/// ```swift
/// let merger = RunMerger(store: try BaselineStore(root: "baselines"), runsDirectory: ".snapdiff/runs")
/// let outcome = try merger.merge([RunFolder(path: "shard-1"), RunFolder(path: "shard-2")])
/// print(outcome.record.counts)
/// ```
public struct RunMerger: Sendable {
  public var store: BaselineStore
  public var runsDirectory: String

  public init(store: BaselineStore, runsDirectory: String) {
    self.store = store
    self.runsDirectory = FileSystem.absolute(runsDirectory)
  }

  /// Merges `parts` into a new run, marked as the last one.
  ///
  /// - Throws: `RunError` when the parts do not make one run: a part that is complete on its
  ///   own or still open, shards that are not all of `1/n … n/n` once each, environments or
  ///   record modes that differ, a key in two parts; `KeyError` for keys that collide;
  ///   `StoreEscapeError` for a part whose files lead out of its folder.
  public func merge(_ parts: [RunFolder]) throws -> RunChecker.Outcome {
    guard let first = parts.first else { throw RunError("say which runs to merge") }
    let records = try parts.map { try $0.load() }
    try Self.checkParts(records, folders: parts)

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

    let (folder, createdAt) = try RunFolder.create(in: runsDirectory)
    let images = RunImages(folder: folder, blobs: BlobStore.beside(runsDirectory: runsDirectory))
    return try FileLock.withLock(folder.path + "/.lock") {
      try images.blobs.whileAdding {
        var snapshots: [SnapshotRecord] = []
        for (record, part) in zip(records, parts) {
          try copyImages(from: part, to: folder)
          for var snapshot in record.snapshots {
            // The images the part compared, into this blob store (a part from another machine
            // brings them in its images/ folder) and linked into the merged run.
            for hash in RunImages.hashes(of: snapshot) { try adopt(hash, from: part, into: images) }
            // The baseline as this store has it (a part may come from another machine).
            let baseline = try store.locate(SnapshotKey(snapshot.key))
            snapshot.baseline = baseline.map { folder.relative($0.path) }
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
      try part.confinement.check(source)
      let bytes = try FileIO.read(source)
      guard SHA256.hex(bytes) == hash else {
        throw RunError("\(source): its bytes do not hash to its name: the part's images are damaged")
      }
      try images.blobs.put(bytes)
    }
    try images.link(hash)
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
    let shards = records.compactMap { $0.shard.flatMap { try? Shard($0) } }
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

  /// Copies a part's current frames and diff images (`current/…`, `diff/…`) into `folder`;
  /// nothing is read through a link out of the part's folder.
  private func copyImages(from part: RunFolder, to folder: RunFolder) throws {
    for subfolder in ["current", "diff"] where FileSystem.isDirectory(part.path + "/" + subfolder) {
      for file in try FileSystem.files(under: part.path + "/" + subfolder) {
        let source = part.path + "/" + subfolder + "/" + file
        try part.confinement.check(source)
        let target = folder.path + "/" + subfolder + "/" + file
        try folder.confinement.createFolders(containing: target)
        try folder.confinement.write(FileIO.read(source), to: target)
      }
    }
  }
}
