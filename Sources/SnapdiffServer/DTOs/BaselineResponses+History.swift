import SnapdiffCore
import SnapdiffWire

extension BaselineUndoResponse {
  /// The API's answer to an undo: `entry`, the undo's own log entry, and the approval it undid.
  init(_ entry: ApprovalEntry) {
    self.init(undone: entry.undoes ?? "", entry: entry)
  }
}

extension BranchMergeResponse {
  /// The API's answer to a branch merge: the baselines `BranchOverlay.merge` promoted (or, with
  /// `dryRun`, would).
  init(branch: String, dryRun: Bool, promoted: [BranchOverlay.Promoted]) {
    self.init(
      branch: branch, dryRun: dryRun, baselines: promoted.map { .init(key: $0.key, environment: $0.environment) })
  }
}
