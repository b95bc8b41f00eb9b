extension RunFolder {
  /// The baseline store a command acts on for this run: the store at `root`, the one the command
  /// names (`--baselines`, the project config, or the service's store), with the run's environment
  /// and branch overlays, after checking that the run compared against that very store.
  ///
  /// `run.json` is a file anyone can edit: its `baselinesDirectory` never chooses where an
  /// approval, a rejection or a prune goes. A run that says it compared against another store is
  /// refused, and so are an environment or overlays that are not single folders in the store.
  ///
  /// - Throws: `RunError` naming both stores (and how to name the run's one) when they differ, or
  ///   the recorded overlay that could leave the store; `KeyError` for an environment that is not
  ///   one folder name.
  public func store(at root: String, for record: RunRecord) throws -> BaselineStore {
    let named = FileSystem.absolute(root)
    let recorded = resolve(record.baselinesDirectory)
    guard Self.sameFolder(named, recorded) else {
      let shown = PathText.withControlsHidden(recorded)
      throw RunError(
        "run \(id) compared against the baseline store \(shown) (run.json's baselinesDirectory), "
          + "not \(named), the store this command uses: nothing changed. If the run's store is the right one, "
          + "name it: --baselines \(shown)")
    }
    // The recorded spelling of the same folder: the baselines run.json names lie under it.
    var store = try BaselineStore(root: recorded, environment: record.environment)
    let overlays = record.overlays ?? []
    for overlay in overlays {
      let name = overlay.dropFirst(BranchOverlay.directory.count + 1)
      guard overlay.hasPrefix(BranchOverlay.directory + "/"), !name.isEmpty, !name.hasPrefix("."),
        !PathText.containsSeparator(String(name))
      else {
        throw RunError(
          "\(recordPath): overlay '\(PathText.withControlsHidden(overlay))' is not a branch folder of the store (\(BranchOverlay.directory)/NAME)"
        )
      }
    }
    store.overlays = overlays
    return store
  }

  /// Whether two absolute paths are one folder: the same real path where both exist (a link to
  /// the store is the store), else the same path as written.
  private static func sameFolder(_ first: String, _ second: String) -> Bool {
    if first == second { return true }
    guard let realFirst = FileSystem.resolved(first), let realSecond = FileSystem.resolved(second) else { return false }
    return realFirst == realSecond
  }
}
