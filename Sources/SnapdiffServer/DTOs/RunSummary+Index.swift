import SnapdiffCore
import SnapdiffWire

extension RunSummary {
  /// - Parameter page: the run's page link (`ServerConfiguration.pageLink(run:)`).
  init(_ run: IndexedRun, page: String) {
    self.init(
      id: run.id, name: run.name, branch: run.branch, environment: run.environment, recordMode: run.recordMode,
      createdAt: run.createdAt, closedAt: run.closedAt, complete: run.complete, snapshotCount: run.snapshotCount,
      counts: run.counts, errors: run.errorCount, verdict: RunVerdict(rawValue: run.verdict) ?? .failed,
      toReview: run.failedCount + run.newCount + run.missingCount + run.rejectedCount,
      links: Links(run: APIPaths.run(run.id), page: page))
  }

  init(_ record: RunRecord, page: String) {
    self.init(IndexedRun(record, fingerprint: ""), page: page)
  }
}
