/// Approving and rejecting the snapshots of a run.
///
/// Approving copies the run's current frame over the baseline (or, for a `missing` snapshot,
/// deletes the baseline) and marks the snapshot `approved` in `run.json`; rejecting remembers the
/// change's hash beside the baseline so the same change stays failed in later runs.
///
/// ```swift
/// let review = try Review(folder: RunFolder.open(in: ".snapdiff/runs", id: nil), storeRoot: "baselines")
/// let approved = try review.approve(Review.Selection(sameAs: "Home - test_search/Home"))
/// ```
public struct Review: Sendable {
  public let folder: RunFolder
  /// The store the run compared against, which is the store the command names.
  public let store: BaselineStore
  /// Who approves, for the approval log (`ApprovalLog.processUser` for the CLI).
  public var user: String
  /// `snapdiff.json`, with which other runs' frames that differ from the ones approved are
  /// re-checked against the new baselines (`SeenApprovals`); `nil`: only identical frames are
  /// taken over.
  public var config: ProjectConfig?

  /// - Parameter storeRoot: the store the command or service uses (`--baselines`, the project
  ///   config): approvals go there, and a run whose `run.json` names another store is refused
  ///   (`RunFolder.store(at:for:)`).
  public init(
    folder: RunFolder, storeRoot: String, user: String = ApprovalLog.processUser, config: ProjectConfig? = nil
  ) throws {
    self.folder = folder
    self.user = user
    self.config = config
    store = try folder.store(at: storeRoot, for: folder.load())
  }

  /// Which snapshots a command applies to: the union of every selector given.
  ///
  /// A rejected snapshot (a reviewer refused its change) is picked only when its key is named
  /// exactly, or with `includeRejected`: `failed`, `all`, globs and `sameAs` leave it out, so
  /// "approve all failed" never undoes a rejection by the way.
  public struct Selection: Sendable, Equatable {
    /// Keys or globs (`'Onboarding*'`).
    public var patterns: [String]
    public var failed: Bool
    public var new: Bool
    public var all: Bool
    /// Every snapshot in this key's group (`ReviewGroup`): the same change, or the same kind of
    /// edit (the same colour replaced by the same colour, …).
    public var sameAs: String?
    /// Every failed snapshot whose difference is in this group (`DifferenceClass.group`:
    /// `rendering`, `shifted`, `color`, …).
    public var difference: String?
    /// Whether `failed`, `all`, globs and `sameAs` pick rejected snapshots too.
    public var includeRejected: Bool
    /// Keys or globs left out of what the rest picks (a group's members a reviewer excluded).
    public var except: [String]

    public init(
      patterns: [String] = [], failed: Bool = false, new: Bool = false, all: Bool = false,
      sameAs: String? = nil, difference: String? = nil, includeRejected: Bool = false, except: [String] = []
    ) {
      self.except = except
      self.difference = difference
      self.patterns = patterns
      self.failed = failed
      self.new = new
      self.all = all
      self.sameAs = sameAs
      self.includeRejected = includeRejected
    }

    public var isEmpty: Bool { patterns.isEmpty && !failed && !new && !all && sameAs == nil && difference == nil }
  }

  /// The largest current frame (or tree beside it) approve reads: a PNG at the decoder's pixel
  /// limit fits.
  static let frameBytesLimit = 1 << 30

  /// The snapshots of `record` that `selection` picks, in key order.
  ///
  /// - Throws: `RunError` when a pattern or `sameAs` matches nothing a reviewer can act on;
  ///   `GlobError` for a pattern longer than any key.
  public static func select(_ selection: Selection, in record: RunRecord) throws -> [SnapshotRecord] {
    // Keys by their bytes: a `Set<String>` would merge NFC and NFD spellings of one name.
    var chosen = Set<[UInt8]>()
    // What a group selector (all, failed, a glob, sameAs) may pick: rejected ones only on request.
    func actionable(_ snapshot: SnapshotRecord) -> Bool {
      snapshot.status.isReviewable && (selection.includeRejected || snapshot.status != .rejected)
    }
    let candidates = record.snapshots.filter(actionable)
    if selection.all { chosen.formUnion(candidates.map(\.keyBytes)) }
    if selection.failed {
      chosen.formUnion(candidates.filter { $0.status == .failed || $0.status == .rejected }.map(\.keyBytes))
    }
    if selection.new { chosen.formUnion(candidates.filter { $0.status == .new }.map(\.keyBytes)) }
    for pattern in selection.patterns {
      let (matches, exact) = try Self.named(by: pattern, among: record.snapshots)
      if matches.isEmpty { throw RunError("no snapshot in run \(record.id) matches '\(pattern)'") }
      // A key named exactly picks its snapshot even when it was rejected.
      let picked = exact ? matches.filter(\.status.isReviewable) : matches.filter(actionable)
      if picked.isEmpty {
        let statuses = Set(matches.map(\.status.rawValue)).sorted().joined(separator: ", ")
        if matches.contains(where: { $0.status == .rejected }) {
          throw RunError(
            "'\(pattern)' matches only rejected snapshots (or ones with nothing to review: \(statuses)): "
              + "name them one by one, or add --include-rejected")
        }
        throw RunError("'\(pattern)' matches only snapshots with nothing to review (\(statuses))")
      }
      chosen.formUnion(picked.map(\.keyBytes))
    }
    if let key = selection.sameAs {
      guard let reference = record.snapshots.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else {
        throw RunError("no snapshot '\(key)' in run \(record.id)")
      }
      guard reference.changeHash != nil else {
        throw RunError("'\(key)' has no change to match (it is \(reference.status.rawValue))")
      }
      // Its group by the one rule (`ReviewGroup`): the same change, or the same kind of edit.
      let others = candidates.filter {
        $0.changeHash != nil && $0.error == nil && !$0.keyBytes.elementsEqual(reference.keyBytes)
      }
      let members = Set(ReviewGroup.members(of: key, among: [reference] + others).map { Array($0.utf8) })
      chosen.formUnion(candidates.filter { members.contains($0.keyBytes) }.map(\.keyBytes))
    }
    if let group = selection.difference {
      guard DifferenceClass.groups.contains(group) else {
        throw RunError(
          "'\(group)' is not a kind of difference: one of \(DifferenceClass.groups.joined(separator: ", "))")
      }
      let matches = candidates.filter { $0.status != .new && $0.status != .missing && $0.difference?.group == group }
      if matches.isEmpty { throw RunError("no snapshot in run \(record.id) to review differs by \(group)") }
      chosen.formUnion(matches.map(\.keyBytes))
    }
    for pattern in selection.except {
      let matches = try Self.named(by: pattern, among: record.snapshots).matches
      if matches.isEmpty { throw RunError("no snapshot in run \(record.id) matches '\(pattern)' (to leave out)") }
      chosen.subtract(matches.map(\.keyBytes))
    }
    return record.snapshots.filter { chosen.contains($0.keyBytes) }
  }

  /// Promotes the selected snapshots' current frames to baselines (deleting the baselines of
  /// `missing` ones) and marks them approved. With `dryRun`, changes nothing.
  ///
  /// The run is locked from the selection to its `run.json` (inside the blob store's lock, the
  /// order every writer locks: `FileLock.Rank`), and each baseline's replacement and its log line
  /// under the store's lock: an
  /// undo or a merge racing the approval sees both or neither, and the log's order is the
  /// store's.
  ///
  /// With `variant`, each frame is added as another accepted baseline of its snapshot under
  /// that name (`BaselineStore.replaceVariant`), and the baseline stays: a frame then passes
  /// when it matches either.
  ///
  /// - Returns: the snapshots approved (or that would be), as they were before.
  /// - Throws: `KeyError` for a variant name that is not one file name; `RunError` when a
  ///   snapshot chosen for a variant has no baseline to be a variant of (new or missing).
  @discardableResult
  public func approve(_ selection: Selection, dryRun: Bool = false, asVariant variant: String? = nil) throws
    -> [SnapshotRecord]
  {
    try approveAsOperation(selection, dryRun: dryRun, asVariant: variant).approved
  }

  /// What one approval did: the snapshots approved (as they were before), the approval log's
  /// operation that records them (what an undo names; nil for a dry run or when none was
  /// chosen), and the other runs that took the approvals over (`SeenApprovals`).
  public struct Approval: Sendable {
    public var approved: [SnapshotRecord]
    public var operation: String?
    public var runsSeeingIt: [String]
  }

  /// `approve`, as one operation of the approval log: every baseline it writes is logged under
  /// one operation id, which `BaselineHistory.undo(operation:user:)` undoes in one step. Then the
  /// other open or recent runs of the branch see the approvals (`SeenApprovals`).
  ///
  /// - Parameter progress: Called after each snapshot approved, with how many of how many.
  public func approveAsOperation(
    _ selection: Selection, dryRun: Bool = false, asVariant variant: String? = nil,
    progress: ((Int, Int) -> Void)? = nil
  ) throws -> Approval {
    if let variant { try BaselineStore.checkVariantName(variant) }
    guard !dryRun else {
      let chosen = try Self.select(selection, in: folder.load())
      if let variant { try Self.checkVariantCandidates(chosen, variant: variant) }
      return Approval(approved: chosen, operation: nil, runsSeeingIt: [])
    }
    let operation = BaselineHistory.newID()
    var entries: [ApprovalEntry] = []
    let approved = try BlobStore.beside(runsDirectory: PathText.parent(of: folder.path)).whileAdding {
      try folder.withLock {
        try approveLocked(selection, asVariant: variant, operation: operation, progress: progress) {
          entries.append($0)
        }
      }
    }
    let seen = SeenApprovals(
      runsDirectory: PathText.parent(of: folder.path), recheck: config.map { .init(store: store, config: $0) })
    let seeing = try seen.take(entries)
    return Approval(approved: approved, operation: entries.isEmpty ? nil : operation, runsSeeingIt: seeing)
  }

  private func approveLocked(
    _ selection: Selection, asVariant variant: String?, operation: String, progress: ((Int, Int) -> Void)?,
    logged: (ApprovalEntry) -> Void
  ) throws -> [SnapshotRecord] {
    var run = try folder.load()
    let chosen = try Self.select(selection, in: run)
    if let variant { try Self.checkVariantCandidates(chosen, variant: variant) }
    // The log names the run by its folder, whatever its `run.json` says its id is: an undo
    // finds it again there, and nothing else (`RunFolder.inside`).
    run.id = folder.id
    // Each approval is logged with the bytes it replaced, kept as blobs (`BaselineHistory`).
    let history = BaselineHistory(store: store, runsDirectory: PathText.parent(of: folder.path))
    var done = 0
    // The whole group under one hold of the store's lock, its log lines appended in one write at
    // the end (what was written is logged whatever stops the rest): the log's order is still the
    // store's, at one `fdatasync` for the group instead of one a snapshot.
    var pending: [ApprovalEntry] = []
    func log(_ entry: ApprovalEntry) {
      pending.append(entry)
      logged(entry)
    }
    func approveEach() throws {
      for snapshot in chosen {
        let key = try SnapshotKey(snapshot.key)
        if snapshot.status == .missing {
          guard let baseline = snapshot.baseline else { continue }
          let location = try location(ofRecordedBaseline: baseline)
          // A run on a branch deletes only what its own overlay holds: the base's baseline is
          // the base branch's to delete.
          if !store.isInWrittenOverlay(location) {
            throw RunError(
              "'\(snapshot.key)': its baseline is the base branch's, not branch \(run.branch ?? "?")'s: delete it on the base branch"
            )
          }
          try store.withLock {
            // Only the baseline the run found missing: one an approval wrote since stays.
            let removed: BaselineStore.Previous?
            if let hash = snapshot.baselineHash, store.hasBaseline(at: location) {
              removed = try store.remove(location, ifHash: hash)
            } else {
              removed = try store.remove(location)
            }
            guard let old = removed else {
              throw RunError(
                "'\(snapshot.key)': its baseline changed since run \(run.id) found the snapshot missing "
                  + "(approved again meanwhile, see snapdiff history): not deleted")
            }
            log(
              try history.approval(
                of: key, environment: location.environment, overlay: store.overlays.first, old: old,
                new: BaselineStore.Previous(), run: run, previousStatus: snapshot.status, user: user,
                operation: operation))
          }
          done += 1
          progress?(done, chosen.count)
          continue
        }
        guard let current = snapshot.current else {
          throw RunError("'\(snapshot.key)' has no current frame in run \(folder.id)")
        }
        // The record's path is read only inside the run folder, as a regular file (never a
        // device or a link out). Never promote a frame that does not decode, to its last row (the
        // copy may have been cut short or damaged since `check` compared it), nor one whose bytes
        // are not the frame the run compared (its hash): what the report showed is what becomes
        // the baseline.
        let currentPath = folder.resolve(current)
        let bytes = try folder.confinement.read(currentPath, limit: Self.frameBytesLimit)
        // A failed (or rejected) snapshot's frame was decoded when `check` compared it: bytes
        // with its hash need no second decode (10 ms an iPhone screen, most of a group's
        // approval). A new frame, one without a hash, or bytes that differ are decoded, so a
        // damaged copy is named for what it is ('truncated PNG') before the hash says so.
        let hash = SHA256.hex(bytes)
        let compared = (snapshot.status == .failed || snapshot.status == .rejected) && snapshot.error == nil
        if !(compared && snapshot.currentHash == hash) { _ = try PNGDecoder().decode(bytes, path: currentPath) }
        if let expected = snapshot.currentHash, hash != expected {
          throw RunError(
            "\(currentPath): its bytes are not the frame run \(folder.id) compared (sha256 \(expected.prefix(12))): nothing approved for '\(snapshot.key)'"
          )
        }
        let treePath = Frame.treePath(besidePNG: currentPath)
        let tree =
          FileSystem.exists(treePath)
          ? try ElementTree.decode(folder.confinement.read(treePath, limit: Self.frameBytesLimit), path: treePath) : nil
        try store.withLock {
          let old =
            try variant.map { try store.replaceVariant(bytes, tree: tree, for: key, named: $0) }
            ?? store.replace(bytes, tree: tree, for: key)
          log(
            try history.approval(
              of: key, environment: store.environment, overlay: store.overlays.first, old: old,
              new: BaselineStore.Previous(png: bytes, tree: try tree?.encoded()), run: run,
              previousStatus: snapshot.status, user: user, variant: variant, operation: operation))
          if let hash = snapshot.changeHash, let location = try store.locate(key) {
            try store.forgetRejection(hash, at: location)
          }
        }
        done += 1
        progress?(done, chosen.count)
      }
    }
    try history.blobs.whileAdding {
      try store.withLock {
        do {
          try approveEach()
        } catch {
          try history.log.append(contentsOf: pending)
          throw error
        }
        try history.log.append(contentsOf: pending)
      }
    }
    let keys = Set(chosen.map(\.keyBytes))
    let record = try folder.update { record in
      for index in record.snapshots.indices where keys.contains(record.snapshots[index].keyBytes) {
        let snapshot = record.snapshots[index]
        let key = try SnapshotKey(snapshot.key)
        record.snapshots[index].baseline =
          snapshot.status == .missing
          ? nil
          : folder.relative(variant.map { store.variantWritePath(for: key, named: $0) } ?? store.writePath(for: key))
        record.snapshots[index].variant = variant
        record.snapshots[index].status = .approved
      }
    }
    try RunReports.write(record, to: folder)
    return chosen
  }

  /// Refuses a variant for a snapshot with no baseline to be a variant of: a new one (approve
  /// it as the baseline first) or a missing one (its frame is gone).
  private static func checkVariantCandidates(_ chosen: [SnapshotRecord], variant: String) throws {
    for snapshot in chosen where snapshot.status == .new || snapshot.status == .missing || snapshot.baseline == nil {
      throw RunError(
        "'\(snapshot.key)' is \(snapshot.status.rawValue) and has no baseline to add the variant '\(variant)' to: "
          + (snapshot.status == .missing
            ? "a missing snapshot has no frame" : "approve it without --variant first, then its other rendering"))
    }
  }

  /// Marks the selected changes rejected, here and in later runs.
  @discardableResult
  public func reject(_ selection: Selection) throws -> [SnapshotRecord] {
    let chosen = try Self.select(selection, in: folder.load())
    for snapshot in chosen {
      guard let hash = snapshot.changeHash, let baseline = snapshot.baseline else { continue }
      try store.reject(hash, at: try location(ofRecordedBaseline: baseline))
    }
    let keys = Set(chosen.map(\.keyBytes))
    let record = try folder.update { record in
      for index in record.snapshots.indices where keys.contains(record.snapshots[index].keyBytes) {
        record.snapshots[index].status = .rejected
      }
    }
    try RunReports.write(record, to: folder)
    return chosen
  }

  /// A baseline path from `run.json`, checked to lie inside the store.
  func location(ofRecordedBaseline relative: String) throws -> BaselineStore.Location {
    guard let location = store.location(ofRecorded: folder.resolve(relative)) else {
      throw RunError("\(folder.recordPath): baseline '\(relative)' lies outside the store \(store.root)")
    }
    return location
  }
}

extension SnapshotRecord {
  /// The key's UTF-8 bytes: what tells two keys apart on disk.
  var keyBytes: [UInt8] { Array(key.utf8) }
}

extension Review {
  /// The snapshots among `snapshots` that `pattern` names: the one whose key it is, even when the
  /// key holds `*` or `?` (`exact`), else those it matches as a glob. Keys compare by their bytes
  /// (NFC and NFD spellings are two keys). The one rule of every selector that takes keys.
  static func named(by pattern: String, among snapshots: [SnapshotRecord]) throws
    -> (matches: [SnapshotRecord], exact: Bool)
  {
    let exact = snapshots.filter { $0.key.utf8.elementsEqual(pattern.utf8) }
    if !exact.isEmpty { return (exact, true) }
    let glob = try Glob(pattern)
    return (snapshots.filter { (try? SnapshotKey($0.key)).map(glob.matches) ?? false }, false)
  }
}
