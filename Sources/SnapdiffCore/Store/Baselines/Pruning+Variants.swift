extension Pruning {
  /// A variant no run matched in the last runs that checked its snapshot.
  public struct StaleVariant: Sendable {
    public var key: SnapshotKey
    public var variant: BaselineStore.Variant
    /// How many runs checked the snapshot since the variant was last matched (or approved).
    public var runsSince: Int
    /// The newest run that matched it (its snapshot record names the variant), if a run here did.
    public var lastMatched: String?
  }

  /// The variants where `store` writes (its environment folder, its first overlay) that none of
  /// the newest `runs` runs that checked their snapshot matched: the other machine's rendering
  /// they were approved for is gone, or the baseline matches again.
  ///
  /// "Last matched" is the run records themselves: a snapshot that passes by a variant names it
  /// in `run.json` (`variant`), so nothing is written to the store while a run checks. A run
  /// counts when it compared against this store, environment and overlay, holds the key with
  /// a compared status, and came after the variant's newest approval (runs from before it could
  /// not have matched it). Runs whose folders were removed (`prune --keep-runs`) are not counted:
  /// with fewer runs kept, fewer variants are stale.
  ///
  /// - Complexity: one `run.json` read per run folder.
  public static func staleVariants(in store: BaselineStore, runsDirectory: String, unmatchedFor runs: Int) throws
    -> [StaleVariant]
  {
    let variants = try store.writtenVariants()
    guard !variants.isEmpty else { return [] }
    let history = BaselineHistory(store: store, runsDirectory: runsDirectory)
    let approvals = try history.entries().filter {
      $0.action == .approve && $0.variant != nil && $0.environment == store.environment
        && $0.overlay == store.overlays.first
    }
    let records = try runsOnStore(store, runsDirectory: runsDirectory)
    var stale: [StaleVariant] = []
    for (key, variant) in variants {
      let approved = approvals.last { $0.key.utf8.elementsEqual(key.rawValue.utf8) && $0.variant == variant.name }
      var counted = 0
      var lastMatched: String?
      // Newest first, back to the variant's approval.
      for record in records.reversed() {
        if let approved, record.createdAt < approved.time { break }
        guard let snapshot = record.snapshots.first(where: { $0.key.utf8.elementsEqual(key.rawValue.utf8) }),
          snapshot.error == nil, [.passed, .failed, .approved, .rejected].contains(snapshot.status)
        else { continue }
        if snapshot.variant == variant.name {
          lastMatched = record.id
          break
        }
        counted += 1
      }
      if counted >= max(runs, 1) {
        stale.append(StaleVariant(key: key, variant: variant, runsSince: counted, lastMatched: lastMatched))
      }
    }
    return stale
  }

  /// The runs in `runsDirectory` that compared against `store` (its root, environment and first
  /// overlay), oldest first; folders without a readable `run.json` are passed over.
  private static func runsOnStore(_ store: BaselineStore, runsDirectory: String) throws -> [RunRecord] {
    let runs = FileSystem.absolute(runsDirectory)
    guard FileSystem.isDirectory(runs) else { return [] }
    return try FileSystem.entries(of: runs).filter { $0 != "last" }.sorted().compactMap { id -> RunRecord? in
      let folder = RunFolder(path: runs + "/" + id)
      guard FileSystem.isFile(folder.recordPath), let record = try? folder.load(),
        FileSystem.absolute(folder.resolve(record.baselinesDirectory)) == store.root,
        record.environment == store.environment, record.overlays?.first == store.overlays.first
      else { return nil }
      return record
    }
  }
}
