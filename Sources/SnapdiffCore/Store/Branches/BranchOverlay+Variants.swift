// A branch's variants (`approve KEY --variant NAME` on a run of the branch) merge with its
// baselines: each promoted into the store beside the trunk's baseline and logged.
extension BranchOverlay {
  /// A variant in a branch's overlay, as the store sees it with the overlay first.
  struct OverlayVariant {
    var key: SnapshotKey
    var variant: BaselineStore.Variant
    /// The store that writes into the overlay (its environment folder).
    var overlayStore: BaselineStore

    var promoted: Promoted { Promoted(key: key.rawValue, environment: variant.environment, variant: variant.name) }
  }

  /// The variants in `branch`'s overlay: its root's and each environment folder's.
  static func variants(of branch: String, in trunk: BaselineStore) throws -> [OverlayVariant] {
    let relative = try folder(of: branch)
    let environments = try trunk.environments(inOverlay: relative)
    var found: [OverlayVariant] = []
    for environment in [nil] + environments.map(Optional.some) {
      var store = try BaselineStore(root: trunk.root, environment: environment)
      store.overlays = [relative]
      found += try store.writtenVariants().map { OverlayVariant(key: $0.key, variant: $0.variant, overlayStore: store) }
    }
    return found
  }

  /// Under the store's lock: each variant of `branch`'s overlay written into the store (the same
  /// environment folder), logged as an approval on `branch`, and removed from the overlay.
  static func promoteVariants(
    of branch: String, into trunk: BaselineStore, history: BaselineHistory, user: String, operation: String
  )
    throws -> [Promoted]
  {
    var promoted: [Promoted] = []
    for found in try variants(of: branch, in: trunk) {
      let target = try BaselineStore(root: trunk.root, environment: found.variant.environment)
      let png = try found.overlayStore.bytes(at: found.variant.location)
      let tree = try found.overlayStore.elementTree(at: found.variant.location)
      let old = try target.replaceVariant(png, tree: tree, for: found.key, named: found.variant.name)
      try history.recordApproval(
        of: found.key, environment: found.variant.environment, overlay: nil, old: old,
        new: BaselineStore.Previous(png: png, tree: try tree?.encoded()), run: nil, branch: branch,
        previousStatus: nil, user: user, variant: found.variant.name, operation: operation)
      try found.overlayStore.removeVariant(found.variant)
      promoted.append(found.promoted)
    }
    return promoted
  }
}
