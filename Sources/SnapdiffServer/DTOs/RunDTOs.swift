import SnapdiffCore

/// A run as the list and `close` report it: what it is, its counts and its verdict.
struct RunSummary: Encodable, Sendable {
  var id: String
  var name: String?
  var branch: String?
  var environment: String?
  var recordMode: String
  var createdAt: String
  var closedAt: String?
  /// The run still takes frames.
  var open: Bool
  /// The run looked at every frame (`check` without `--only`; for service runs, closed with
  /// `complete`: otherwise they see only the frames posted to them).
  var complete: Bool
  var snapshotCount: Int
  /// Snapshots by status (statuses with none left out).
  var counts: [String: Int]
  var errors: Int
  /// `passed`, `failed`, or `empty` (no snapshots yet), from the snapshots as they stand now
  /// (approvals count).
  var verdict: RunVerdict
  var passed: Bool
  /// Snapshots a reviewer can act on: failed, new, missing, rejected.
  var toReview: Int
  var links: Links

  struct Links: Encodable, Sendable {
    var run: String
    /// The review page: absolute with `--public-url`, else a path on this server.
    var page: String
  }

  /// - Parameter page: the run's page link (`ServerConfiguration.pageLink(run:)`).
  init(_ run: IndexedRun, page: String) {
    id = run.id
    name = run.name
    branch = run.branch
    environment = run.environment
    recordMode = run.recordMode
    createdAt = run.createdAt
    closedAt = run.closedAt
    open = run.closedAt == nil
    complete = run.complete
    snapshotCount = run.snapshotCount
    counts = run.counts
    errors = run.errorCount
    verdict = RunVerdict(rawValue: run.verdict) ?? .failed
    passed = verdict == .passed
    toReview = run.failedCount + run.newCount + run.missingCount + run.rejectedCount
    links = Links(run: APIPaths.run(run.id), page: page)
  }

  init(_ record: RunRecord, page: String) {
    self.init(IndexedRun(record, fingerprint: ""), page: page)
  }
}

/// `GET /api/v1/runs`.
struct RunList: Encodable, Sendable {
  var runs: [RunSummary]
  /// Runs matching the filters, over all pages.
  var total: Int
  var limit: Int
  var offset: Int
}

/// What an approval or rejection did.
struct ReviewResult: Encodable, Sendable {
  var run: String
  /// `approved`, `rejected`, or `wouldApprove` for a dry run.
  var action: String
  var dryRun: Bool
  var snapshots: [Item]
  /// The run afterwards.
  var summary: RunSummary

  struct Item: Encodable, Sendable {
    var key: String
    /// The status before the review.
    var previousStatus: SnapshotStatus
    /// For approvals: `update` (the frame becomes the baseline) or `delete` (a missing
    /// snapshot's baseline is removed).
    var baseline: String?
  }
}

/// `GET /api/v1/health`.
struct Health: Encodable, Sendable {
  var status = "ok"
}

/// `GET /api/v1/ready`: `ready`, or `unavailable` with the reason (503).
struct Readiness: Encodable, Sendable {
  var status: String
  var reason: String?
}

/// `GET /api/v1/version`.
struct VersionInfo: Encodable, Sendable {
  var name = "snapdiff"
  var version: String
  var api = "v1"
}
