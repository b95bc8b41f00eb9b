/// Runs that see each other's approvals: when a run's approval replaces baselines, the other
/// recent runs (the newest ``recentRuns``, open or closed) of the same branch (same store,
/// environment and overlay) whose snapshots await review with the frame that became the baseline
/// show them as approved in that run, so the team does not review the change twice; `status`, the
/// reports and the service's counts follow. An undo of the approval gives those snapshots their
/// earlier status back.
///
/// A frame that is not byte for byte the approved one (a re-run that drew a few pixels
/// differently) is re-checked against the new baseline when a ``Recheck`` is given and the run
/// recorded its comparison (`RunRecord.comparison`): it is compared under that comparison, with
/// the key's rules in `snapdiff.json` and the settings files beside the baseline and the frame,
/// and taken over only when it passes (``ApprovedElsewhere/rechecked``). A frame that still
/// differs keeps its status and its verdict against the old baseline.
///
/// ```swift
/// let seen = SeenApprovals(runsDirectory: ".snapdiff/runs", recheck: .init(store: store, config: config))
/// let runs = try seen.take(entries)
/// ```
public struct SeenApprovals: Sendable {
  /// The runs folder, absolute.
  public let runsDirectory: String

  /// How many of the newest runs (by id, so by time) are looked at, open or closed.
  public static let recentRuns = 30

  /// What re-checks frames that differ from the approved one; `nil`: only identical frames are
  /// taken over.
  public var recheck: Recheck?

  public init(runsDirectory: String, recheck: Recheck? = nil) {
    self.runsDirectory = FileSystem.absolute(runsDirectory)
    self.recheck = recheck
  }

  /// Where a re-check finds what a run's recorded comparison leaves out: the store the approval
  /// wrote (its environment and overlays, which the runs re-checked share) and `snapdiff.json`'s
  /// rules by key.
  public struct Recheck: Sendable {
    public var store: BaselineStore
    public var config: ProjectConfig

    public init(store: BaselineStore, config: ProjectConfig) {
      self.store = store
      self.config = config
    }
  }

  /// After `approvals` (one operation's log entries, from one run): marks, in every other open or
  /// recent run of that branch on that store, the snapshots awaiting review whose current frame
  /// is the one approved (or, for a deleted baseline, that are missing) as approved in that run.
  ///
  /// - Returns: the ids of the runs changed.
  @discardableResult
  public func take(_ approvals: [ApprovalEntry]) throws -> [String] {
    guard let first = approvals.first, let source = first.run else { return [] }
    var approved: [[UInt8]: ApprovalEntry] = [:]
    for approval in approvals where approval.action == .approve { approved[Array(approval.key.utf8)] = approval }
    var changed: [String] = []
    let baselines = NewBaselines(blobs: BlobStore.beside(runsDirectory: runsDirectory))
    for folder in try others(sharingWith: first, except: source) {
      guard try folder.load().snapshots.contains(where: { approved[Array($0.key.utf8)] != nil }) else { continue }
      var took = false
      let record = try folder.update { record in
        for index in record.snapshots.indices {
          let snapshot = record.snapshots[index]
          guard [.failed, .new, .missing].contains(snapshot.status),
            let approval = approved[Array(snapshot.key.utf8)]
          else { continue }
          let sameFrame =
            approval.new == nil
            ? snapshot.status == .missing
            : snapshot.currentHash != nil && snapshot.currentHash == approval.new
          let passes =
            !sameFrame && approval.new != nil
            && passesAgainst(approval, snapshot, in: folder, record.comparison, record.currentDirectory, baselines)
          guard sameFrame || passes else { continue }
          record.snapshots[index].status = .approved
          record.snapshots[index].approvedIn = ApprovedElsewhere(
            run: source, operation: approval.operationID, user: approval.user, time: approval.time,
            previousStatus: snapshot.status, rechecked: passes ? true : nil)
          took = true
        }
      }
      if took {
        try RunReports.write(record, to: folder)
        changed.append(folder.id)
      }
    }
    return changed
  }

  /// Before `approvals` are undone (or after): the runs that took them over give those
  /// snapshots their earlier status back.
  ///
  /// - Returns: the ids of the runs changed.
  @discardableResult
  public func withdraw(_ approvals: [ApprovalEntry]) throws -> [String] {
    guard let first = approvals.first, let source = first.run else { return [] }
    var withdrawn = Set<[UInt8]>()
    for approval in approvals { withdrawn.insert(Array((approval.operationID + "\u{0}" + approval.key).utf8)) }
    var changed: [String] = []
    for folder in try others(sharingWith: first, except: source) {
      guard try folder.load().snapshots.contains(where: { $0.approvedIn != nil }) else { continue }
      var gave = false
      let record = try folder.update { record in
        for index in record.snapshots.indices {
          let snapshot = record.snapshots[index]
          guard snapshot.status == .approved, let elsewhere = snapshot.approvedIn,
            withdrawn.contains(Array((elsewhere.operation + "\u{0}" + snapshot.key).utf8))
          else { continue }
          record.snapshots[index].status = elsewhere.previousStatus
          record.snapshots[index].approvedIn = nil
          gave = true
        }
      }
      if gave {
        try RunReports.write(record, to: folder)
        changed.append(folder.id)
      }
    }
    return changed
  }

  /// Whether `snapshot`'s kept frame (a failed or new one, its bytes checked against its hash)
  /// passes against the baseline `approval` wrote, under the run's recorded comparison. Anything
  /// that keeps it from being compared (no re-check asked, a run that recorded no comparison, a
  /// frame or blob gone or damaged, settings that no longer apply) answers no: the snapshot stays
  /// as it was.
  private func passesAgainst(
    _ approval: ApprovalEntry, _ snapshot: SnapshotRecord, in folder: RunFolder, _ recorded: SnapshotSettings?,
    _ currentDirectory: String, _ baselines: NewBaselines
  ) -> Bool {
    guard let recheck, let recorded, snapshot.status == .failed || snapshot.status == .new,
      let current = snapshot.current, let currentHash = snapshot.currentHash, let new = approval.new,
      let key = try? SnapshotKey(snapshot.key)
    else { return false }
    do {
      let baseline = try baselines.frame(png: new, tree: approval.newTree, key: key)
      let bytes = try baselines.blobs.read(currentHash)
      let copy = folder.resolve(current)
      let frame = try Frame.load(copy, decoded: try PNGDecoder().decode(bytes, path: copy))
      let rule = try SnapshotCheck(recorded: recorded, config: recheck.config)
      let location = try recheck.store.locate(key)
      let frameSettings = folder.resolve(currentDirectory) + "/" + key.relativePath(suffix: ".snapdiff.json")
      var comparison = try rule.comparison(
        for: key, baselineSettings: try location.flatMap { try recheck.store.settings(at: $0) },
        frameSettings: try SnapshotSettings.load(frameSettings))
      // At the level the snapshot was compared at (a settings file may have changed it since).
      comparison.matchLevel = snapshot.matchLevel ?? .strict
      comparison.options.matchLevel = comparison.matchLevel
      return try comparison.compare(baseline, frame).passed
    } catch {
      return false
    }
  }

  /// The baselines an approval wrote, decoded once however many runs re-check against them.
  private final class NewBaselines {
    let blobs: BlobStore
    private var frames: [String: Frame] = [:]

    init(blobs: BlobStore) { self.blobs = blobs }

    func frame(png: String, tree: String?, key: SnapshotKey) throws -> Frame {
      if let frame = frames[png] { return frame }
      let path = blobs.path(of: png)
      let image = try PNGDecoder().decode(try blobs.read(png), path: path)
      let tree = try tree.map { try ElementTree.decode(blobs.read($0), path: blobs.path(of: $0)) }
      let frame = Frame(image: image, tree: tree, path: path)
      frames[png] = frame
      return frame
    }
  }

  /// The other runs (not `source`) that compare with the same store, environment and overlay as
  /// `approval` wrote, on its branch, among the newest ``recentRuns``.
  private func others(sharingWith approval: ApprovalEntry, except source: String) throws -> [RunFolder] {
    let names = ((try? FileSystem.entries(of: runsDirectory)) ?? []).filter(RunFolder.isValidID).sorted(by: >)
      .prefix(Self.recentRuns).filter { $0 != source }
    let store = FileSystem.absolute(approval.baselines, relativeTo: PathText.parent(of: runsDirectory))
    var folders: [RunFolder] = []
    for name in names {
      guard let folder = try? RunFolder.inside(runsDirectory, id: name), FileSystem.isFile(folder.recordPath),
        let record = try? folder.loadStored()
      else { continue }
      guard record.branch == approval.branch, record.environment == approval.environment,
        (record.overlays ?? []).first == approval.overlay, folder.resolve(record.baselinesDirectory) == store
      else { continue }
      folders.append(folder)
    }
    return folders
  }
}

/// Where a snapshot was approved when another run of its branch approved the same frame.
public struct ApprovedElsewhere: Sendable, Codable, Equatable {
  /// The run that approved it, and the approval log's operation.
  public var run: String
  public var operation: String
  public var user: String
  public var time: String
  /// The snapshot's status here before (what an undo of the approval gives it back).
  public var previousStatus: SnapshotStatus
  /// `true` when this run's frame is not the one approved but passed against it under the run's
  /// recorded comparison (absent: the very frame was approved).
  public var rechecked: Bool?

  public init(
    run: String, operation: String, user: String, time: String, previousStatus: SnapshotStatus,
    rechecked: Bool? = nil
  ) {
    self.run = run
    self.operation = operation
    self.user = user
    self.time = time
    self.previousStatus = previousStatus
    self.rechecked = rechecked
  }
}
