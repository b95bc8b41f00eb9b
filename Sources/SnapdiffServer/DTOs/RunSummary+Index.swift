import SnapdiffCore
import SnapdiffWire

extension RunSummary {
  /// - Parameter page: the run's page link (`ServerConfiguration.pageLink(run:)`).
  init(_ run: IndexedRun, page: String) {
    self.init(
      id: run.id, name: run.name, branch: run.branch, environment: run.environment, recordMode: run.recordMode,
      createdAt: run.createdAt, closedAt: run.closedAt, complete: run.complete, snapshotCount: run.snapshotCount,
      counts: run.counts, errors: run.errorCount, verdict: RunVerdict(rawValue: run.verdict) ?? .failed,
      toReview: Self.toReview(run),
      links: Links(run: APIPaths.run(run.id), page: page))
  }

  /// The run's snapshots that wait for a reviewer (`SnapshotStatus.awaitsReview(recordMode:)`),
  /// from the index's counts by status.
  static func toReview(_ run: IndexedRun) -> Int {
    let recordMode = RecordMode(rawValue: run.recordMode) ?? .never
    return run.counts.reduce(0) { total, count in
      let awaits = SnapshotStatus(rawValue: count.key)?.awaitsReview(recordMode: recordMode) ?? false
      return total + (awaits ? count.value : 0)
    }
  }

  init(_ record: RunRecord, page: String) {
    self.init(IndexedRun(record, fingerprint: ""), page: page)
  }
}
