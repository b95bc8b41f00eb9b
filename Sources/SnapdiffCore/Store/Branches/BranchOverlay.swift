/// Branch overlays in a baseline store: for a store that is not in git (the service's), the
/// baselines approved on a branch, kept apart until the branch is merged.
///
/// A branch's overlay is the folder `.branches/<branch>` in the store (the name percent-encoded
/// into one folder: `feature/login` → `.branches/feature%2Flogin`), laid out as the store is
/// (keys, environment folders, sidecar files). A run on a branch forked from a base branch reads
/// its branch's overlay first, then the base branch's overlay when the base has one, then the
/// store (the trunk); approvals and recorded baselines go to its branch's overlay. Merging the
/// branch promotes every baseline of its overlay into the store (each one logged as an
/// approval) and removes the overlay.
///
/// A team that commits `baselines/` with its code needs none of this: git is the branch
/// mechanism there, and `snapdiff check` never reads or writes overlays.
///
/// ```swift
/// var store = try BaselineStore(root: "baselines")
/// store.overlays = try BranchOverlay.chain(branch: "feature/login", base: "main", in: store)
/// ```
public enum BranchOverlay {
  /// The folder of every overlay, in the store (`BaselineStore.overlaysDirectory`).
  public static let directory = BaselineStore.overlaysDirectory

  /// The longest overlay folder name: the file name limit of Linux's and macOS's file systems.
  public static let maximumFolderNameBytes = 255

  /// The overlay folder of `branch`, relative to the store: the one rule for branch names, which
  /// the service applies when a run is opened and the CLI to `--branch`.
  ///
  /// - Throws: `BranchNameError` for a branch name that is empty, over 200 bytes, holds control
  ///   characters, or whose folder name (percent-encoded: `/`, `%` and non-ASCII letters take 3
  ///   bytes each) would be over ``maximumFolderNameBytes``.
  public static func folder(of branch: String) throws(BranchNameError) -> String {
    guard !branch.isEmpty, branch.utf8.count <= 200,
      !branch.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      throw BranchNameError(
        branch: branch, problem: "is not a usable branch name: 1 to 200 bytes, without control characters")
    }
    var name = PercentEncoding.segment(branch)
    // Never a hidden name, `.` or `..`: a leading dot is encoded too.
    if name.hasPrefix(".") { name = "%2E" + name.dropFirst() }
    guard name.utf8.count <= maximumFolderNameBytes else {
      throw BranchNameError(
        branch: branch,
        problem:
          "is too long: its overlay folder name (percent-encoded, '/', '%' and non-ASCII letters 3 bytes each) would be \(name.utf8.count) bytes, over the \(maximumFolderNameBytes) a file name can have"
      )
    }
    return directory + "/" + name
  }

  /// Refuses `branch` when a branch with an overlay in `store` differs from it only by letter
  /// case or Unicode normalisation (`Café` as é and as e + ́): the rule keys follow
  /// (`SnapshotKey.Collision`). Two such names read as one branch, yet would be two overlays on
  /// Linux and one folder on macOS.
  ///
  /// - Throws: `BranchNameError` naming both branches and how they differ.
  public static func checkNoCollision(_ branch: String, in store: BaselineStore) throws(BranchNameError) {
    for existing in branches(in: store) {
      if let collision = SnapshotKey.Collision.between(branch, existing) {
        throw BranchNameError(
          branch: branch,
          problem:
            "differs from the branch '\(existing)' \(collision.problem): the two would be two overlays of what reads as one branch"
        )
      }
    }
  }

  /// The overlays a run on `branch`, forked from `base`, reads (first to last): its own, then
  /// `base`'s when that has an overlay folder. None without both names, or when they are equal
  /// (a run on the trunk uses the store as it is).
  ///
  /// - Throws: `BranchNameError` for a name ``folder(of:)`` refuses, or a branch that collides with one
  ///   that has an overlay (``checkNoCollision(_:in:)``).
  public static func chain(branch: String?, base: String?, in store: BaselineStore) throws(BranchNameError) -> [String]
  {
    guard let branch, let base, branch != base else { return [] }
    let own = try folder(of: branch)
    let baseFolder = try folder(of: base)
    try checkNoCollision(branch, in: store)
    return store.hasOverlay(baseFolder) ? [own, baseFolder] : [own]
  }

  /// The branches that have an overlay in `store`, sorted.
  public static func branches(in store: BaselineStore) -> [String] {
    store.overlayFolderNames().compactMap { PercentEncoding.decode($0[...]) }.sorted()
  }

  /// A baseline a merge promoted: its key and environment folder (`nil`: the root).
  public struct Promoted: Sendable, Hashable {
    public var key: String
    public var environment: String?
    /// A variant's name, when the merge promoted a variant (`approve --variant` on the branch).
    public var variant: String? = nil
  }

  /// Promotes every baseline of `branch`'s overlay into the store (its element tree, settings
  /// and rejected changes with it), each logged as an approval by `user` on `branch`, then
  /// removes the overlay. With `dryRun`, lists what would be promoted.
  ///
  /// Approvals on the branch go on while it merges, and none is lost: each baseline is promoted
  /// and removed from the overlay under the store's lock, one at a time (an approval that lands
  /// before is promoted, one after stays in the overlay); then, under one hold of the lock, what
  /// landed meanwhile is promoted and the overlay removed (a later approval makes a new one).
  ///
  /// - Throws: `RunError` when the branch has no overlay.
  public static func merge(
    _ branch: String, in history: BaselineHistory, user: String, dryRun: Bool = false
  ) throws -> [Promoted] {
    let trunk = try BaselineStore(root: history.store.root)
    let overlay = try folder(of: branch)
    // One operation of the approval log: undoing it undoes the whole merge.
    let operation = BaselineHistory.newID()
    guard trunk.hasOverlay(overlay) else {
      throw RunError("branch '\(branch)' has no overlay in \(trunk.root) (nothing approved on it through the service)")
    }
    try trunk.checkConfined(overlay: overlay)
    guard !dryRun else {
      return try trunk.baselines(inOverlay: overlay).map(\.promoted) + variants(of: branch, in: trunk).map(\.promoted)
    }
    var merged: [Promoted] = []
    try history.blobs.whileAdding {
      for baseline in try trunk.baselines(inOverlay: overlay) {
        try trunk.withLock {
          if try promote(
            baseline, from: overlay, branch: branch, into: trunk, history: history, user: user, operation: operation)
          {
            merged.append(baseline.promoted)
          }
        }
      }
      try trunk.withLock {
        for baseline in try trunk.baselines(inOverlay: overlay) {
          if try promote(
            baseline, from: overlay, branch: branch, into: trunk, history: history, user: user, operation: operation)
          {
            merged.append(baseline.promoted)
          }
        }
        // Its variants after its baselines: a variant promoted beside its baseline.
        merged += try promoteVariants(of: branch, into: trunk, history: history, user: user, operation: operation)
        try trunk.removeOverlay(overlay)
      }
    }
    // A key approved again while it merged was promoted twice: listed once.
    var seen = Set<Promoted>()
    return merged.filter { seen.insert($0).inserted }
  }

  /// Under the store's lock: promotes one overlay baseline into the store, logged, and removes it
  /// (and its sidecar files) from the overlay. `false` when it is gone (promoted already).
  private static func promote(
    _ baseline: BaselineStore.OverlayBaseline, from overlay: String, branch: String, into trunk: BaselineStore,
    history: BaselineHistory, user: String, operation: String
  ) throws -> Bool {
    let key = baseline.key
    let location = baseline.location
    let environment = location.environment
    // The overlay as a store: the branch's baselines first, then the trunk's.
    var source = try BaselineStore(root: trunk.root, environment: environment)
    source.overlays = [overlay]
    guard let png = try source.bytesIfPresent(at: location) else { return false }
    let target = try BaselineStore(root: trunk.root, environment: environment)
    let tree = try source.elementTree(at: location)
    let old = try target.replace(png, tree: tree, for: key)
    try history.recordApproval(
      of: key, environment: environment, overlay: nil, old: old,
      new: BaselineStore.Previous(png: png, tree: try tree?.encoded()), run: nil, branch: branch,
      previousStatus: nil, user: user, operation: operation, mergedFrom: overlay)
    if let settings = try source.sidecarBytes(of: location, suffix: ".snapdiff.json") {
      try target.writeSettings(settings, for: key)
    }
    // The overlay's baseline is found first (it is still there): its rejected changes, read
    // after the check that it does not lead out of the store.
    if let promoted = try target.locate(key), let found = try source.locate(key), found == location {
      for hash in try source.rejectedChanges(at: found) { try target.reject(hash, at: promoted) }
    }
    try source.removePromoted(location)
    return true
  }
}

extension BaselineStore.OverlayBaseline {
  /// The baseline as a merge lists it.
  var promoted: BranchOverlay.Promoted { BranchOverlay.Promoted(key: key.rawValue, environment: location.environment) }
}

/// A branch name that cannot be used (``BranchOverlay/folder(of:)``), and why.
public struct BranchNameError: Error, Sendable, Equatable, CustomStringConvertible {
  public var branch: String
  public var problem: String

  public init(branch: String, problem: String) {
    self.branch = branch
    self.problem = problem
  }

  public var description: String {
    "branch '\(PathText.withControlsHidden(branch))' \(problem)"
  }
}
