/// Whether a run, as it stands now, passes: what the service reports for a run and `status`
/// prints first.
public enum RunVerdict: String, Sendable, Codable, CaseIterable {
  case passed
  case failed
  /// No snapshot yet: a run just opened (or one whose test posted nothing). Not `passed`: a
  /// suite that never reached its snapshots has not shown that anything looks right.
  case empty

  /// `empty` without snapshots; `failed` when a snapshot failed, was rejected or could not be
  /// compared, or is new in record mode never (as `check` decides its exit status); `passed`
  /// otherwise. Approvals count: a run whose failures were all approved reads `passed`.
  public init(_ record: RunRecord) {
    guard !record.snapshots.isEmpty else {
      self = .empty
      return
    }
    let failing = record.snapshots.contains { snapshot in
      switch snapshot.status {
      case .failed, .rejected: true
      case .new: record.recordMode == .never && !snapshot.recorded
      default: snapshot.error != nil
      }
    }
    self = failing ? .failed : .passed
  }
}
