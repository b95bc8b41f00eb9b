/// What a snapshot's status means for its check and its review, from the rules on
/// `SnapshotStatus` (SnapdiffModel), which the CLI, the reports and the service all go by.
extension SnapshotRecord {
  /// Whether the snapshot passes: its status passes (passed, approved, skipped) and it was
  /// compared (a snapshot with an error never passes).
  public var passes: Bool { status.passes && error == nil }
}

extension RunRecord {
  /// The snapshots waiting for a reviewer (`SnapshotStatus.awaitsReview(recordMode:)`): what
  /// `snapdiff status` exits 1 for and the service counts as `toReview`.
  public var awaitingReview: [SnapshotRecord] {
    snapshots.filter { $0.status.awaitsReview(recordMode: recordMode) }
  }
}
