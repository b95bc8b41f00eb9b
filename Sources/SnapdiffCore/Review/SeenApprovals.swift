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

  /// After `approvals` (one operation's log entries, from one run): marks, in every other open or
  /// recent run of that branch on that store, the snapshots awaiting review whose current frame
  /// is the one approved (or, for a deleted baseline, that are missing), or passes against it
  /// (``Recheck``), as approved in that run.
  ///
  /// - Returns: the ids of the runs changed.
  @discardableResult
  public func take(_ approvals: [ApprovalEntry]) throws -> [String] {
    guard let first = approvals.first, let source = first.run else { return [] }
    var approved: [[UInt8]: ApprovalEntry] = [:]
    for approval in approvals where approval.action == .approve { approved[Array(approval.key.utf8)] = approval }
    var changed: [String] = []
    for folder in try others(sharingWith: first, except: source) {
      guard try folder.load().snapshots.contains(where: { approved[Array($0.key.utf8)] != nil }) else { continue }
      var took = false
      let record = try folder.update { record in
        // The very frame approved takes it over; another failed or new frame is re-checked
        // against it (all at once, on every core: each decodes two images).
        var identical: [(index: Int, approval: ApprovalEntry)] = []
        var differing: [(index: Int, approval: ApprovalEntry)] = []
        for index in record.snapshots.indices {
          let snapshot = record.snapshots[index]
          guard [.failed, .new, .missing].contains(snapshot.status),
            let approval = approved[Array(snapshot.key.utf8)]
          else { continue }
          if approval.new == nil ? snapshot.status == .missing : snapshot.currentHash == approval.new {
            identical.append((index, approval))
          } else if approval.new != nil, snapshot.status != .missing {
            differing.append((index, approval))
          }
        }
        let passing: [(index: Int, approval: ApprovalEntry)] =
          recheck.map { recheck in
            let pairs = differing.map { (record.snapshots[$0.index], $0.approval) }
            return zip(differing, recheck.passing(pairs, of: record, in: folder)).filter(\.1).map(\.0)
          } ?? []
        let takers = identical.map { (taker: $0, rechecked: false) } + passing.map { (taker: $0, rechecked: true) }
        for (taker, rechecked) in takers {
          let snapshot = record.snapshots[taker.index]
          record.snapshots[taker.index].status = .approved
          record.snapshots[taker.index].approvedIn = ApprovedElsewhere(
            run: source, operation: taker.approval.operationID, user: taker.approval.user, time: taker.approval.time,
            previousStatus: snapshot.status, rechecked: rechecked ? true : nil)
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
