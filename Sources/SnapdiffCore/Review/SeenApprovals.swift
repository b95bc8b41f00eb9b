/// Runs that see each other's approvals: when a run's approval replaces baselines, the other
/// recent runs (the newest ``recentRuns``, open or closed) of the same branch (same store, environment and overlay) whose snapshots await
/// review with exactly the frame that became the baseline show them as approved in that run, so
/// the team does not review the change twice; `status`, the reports and the service's counts
/// follow. An undo of the approval gives those snapshots their earlier status back.
///
/// A frame that differs from the approved one (a re-run that drew one pixel differently) is left
/// as it is: it was compared with the old baseline, and a new `check` compares it with the new
/// one.
///
/// ```swift
/// let runs = try SeenApprovals(runsDirectory: ".snapdiff/runs").take(entries)
/// ```
public struct SeenApprovals: Sendable {
  /// The runs folder, absolute.
  public let runsDirectory: String

  /// How many of the newest runs (by id, so by time) are looked at, open or closed.
  public static let recentRuns = 30

  public init(runsDirectory: String) {
    self.runsDirectory = FileSystem.absolute(runsDirectory)
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
          guard sameFrame else { continue }
          record.snapshots[index].status = .approved
          record.snapshots[index].approvedIn = ApprovedElsewhere(
            run: source, operation: approval.operationID, user: approval.user, time: approval.time,
            previousStatus: snapshot.status)
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

  public init(run: String, operation: String, user: String, time: String, previousStatus: SnapshotStatus) {
    self.run = run
    self.operation = operation
    self.user = user
    self.time = time
    self.previousStatus = previousStatus
  }
}
