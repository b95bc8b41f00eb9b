extension RunVerdict {
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
