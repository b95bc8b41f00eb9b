/// Baselines that no snapshot of a complete run used: candidates for deletion.
public enum Pruning {
  /// The baselines in the run's scope (its environment folder, or the store's root without
  /// environment folders) that none of the run's snapshots compared against: baselines of
  /// snapshots that are gone.
  ///
  /// - Throws: `RunError` when the run did not cover the whole folder of current frames.
  public static func unusedBaselines(in store: BaselineStore, by record: RunRecord, folder: RunFolder)
    throws -> [BaselineStore.Location]
  {
    guard record.complete else {
      throw RunError("run \(record.id) looked at only some frames (--only): prune needs a complete run")
    }
    // A missing snapshot's baseline has no frame left to compare with: it counts as unused.
    // run.json names each baseline by its path (the record format): compared as paths.
    let used = Set(record.snapshots.filter { $0.status != .missing }.compactMap { $0.baseline.map(folder.resolve) })
    // A frame that matched a variant used its snapshot's baseline too (the variant is one of it).
    let byVariant = Set(record.snapshots.filter { $0.variant != nil && $0.status != .missing }.map(\.key))
    let scope = store.environment
    let keys = try store.keys(inEnvironment: scope)
    return keys.filter { !byVariant.contains($0.rawValue) }.map { key in
      store.location(of: key, inEnvironment: scope)
    }.filter { !used.contains($0.path) }
  }

  /// The run folders older than the `keep` newest (by id, which sorts by time), removed when
  /// `delete` is set. The last run, open service runs and runs in progress (their lock held)
  /// are never removed.
  ///
  /// - Returns: the ids of the runs removed (or that would be).
  public static func runsBeyond(_ keep: Int, in runsDirectory: String, delete: Bool) throws -> [String] {
    let runs = FileSystem.absolute(runsDirectory)
    let last = FileSystem.linkTarget(runs + "/last")
    let ids = try FileSystem.entries(of: runs).filter {
      $0 != "last" && FileSystem.isFile(runs + "/" + $0 + "/run.json")
    }
    let confinement = Confinement(root: runs, place: "runs folder")
    var removed: [String] = []
    for id in ids.dropLast(max(keep, 0)) where id != last {
      let folder = RunFolder(path: runs + "/" + id)
      guard (try? folder.load())?.closedAt != nil, !FileLock.isHeld(folder.path + "/.lock") else { continue }
      if delete {
        try confinement.check(folder.path)
        try FileSystem.removeTree(folder.path)
      }
      removed.append(id)
    }
    return removed
  }
}
