extension BranchOverlay {
  /// The baselines `branch`'s overlay in `store` holds now (approved on the branch, not merged),
  /// by key; none when it has no overlay.
  ///
  /// - Throws: `BranchNameError` for a name ``folder(of:)`` refuses; a key error for a file
  ///   in the overlay that names no key.
  public static func contents(of branch: String, in store: BaselineStore) throws -> [Promoted] {
    try store.baselines(inOverlay: try folder(of: branch)).map(\.promoted).sorted {
      ($0.key, $0.environment ?? "") < ($1.key, $1.environment ?? "")
    }
  }

  /// Discards `branch`'s overlay: what was approved on the branch is dropped, the store keeps
  /// its baselines (a branch abandoned, or to be reviewed again from scratch). Under the store's
  /// lock, so an approval on the branch at the same moment is either discarded with it or lands
  /// in a new overlay. The approval log keeps the branch's entries (`snapdiff history` lists
  /// them under the branch); their blobs stay.
  ///
  /// - Returns: the baselines the overlay held.
  /// - Throws: `RunError` when the branch has no overlay.
  public static func discard(_ branch: String, in store: BaselineStore) throws -> [Promoted] {
    let trunk = try BaselineStore(root: store.root)
    let overlay = try folder(of: branch)
    guard trunk.hasOverlay(overlay) else {
      throw RunError("branch '\(branch)' has no overlay in \(trunk.root) (nothing approved on it through the service)")
    }
    try trunk.checkConfined(overlay: overlay)
    return try trunk.withLock {
      let held = try trunk.baselines(inOverlay: overlay).map(\.promoted)
      try trunk.removeOverlay(overlay)
      return held.sorted { ($0.key, $0.environment ?? "") < ($1.key, $1.environment ?? "") }
    }
  }
}
