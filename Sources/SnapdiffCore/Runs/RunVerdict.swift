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
    let failing = record.snapshots.contains { Self.fails(with: $0, recordMode: record.recordMode) }
    self = failing ? .failed : .passed
  }

  /// The verdict of a run of `snapshots` snapshots of which `failing` fail it (`fails(with:)`):
  /// what an index that counts them gives without the record.
  public init(snapshots: Int, failing: Int) {
    self = snapshots == 0 ? .empty : failing > 0 ? .failed : .passed
  }

  /// Whether `snapshot` fails its run: failed, rejected, not compared, or new in record mode
  /// never and not recorded.
  public static func fails(with snapshot: SnapshotRecord, recordMode: RecordMode) -> Bool {
    switch snapshot.status {
    case .failed, .rejected: true
    case .new: recordMode == .never && !snapshot.recorded
    default: snapshot.error != nil
    }
  }
}
