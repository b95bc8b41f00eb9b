import SnapdiffModel

/// A run as the list and `close` report it: what it is, its counts and its verdict.
public struct RunSummary: Codable, Sendable, Equatable {
  public var id: String
  public var name: String?
  public var branch: String?
  public var environment: String?
  public var recordMode: String
  public var createdAt: String
  public var closedAt: String?
  /// The run still takes frames.
  public var open: Bool
  /// The run looked at every frame (`check` without `--only`; for service runs, closed with
  /// `complete`: otherwise they see only the frames posted to them).
  public var complete: Bool
  public var snapshotCount: Int
  /// Snapshots by status (statuses with none left out).
  public var counts: [String: Int]
  public var errors: Int
  /// `passed`, `failed`, or `empty` (no snapshots yet), from the snapshots as they stand now
  /// (approvals count).
  public var verdict: RunVerdict
  public var passed: Bool
  /// Snapshots that wait for a reviewer (`SnapshotStatus.awaitsReview(recordMode:)`): failed,
  /// missing, rejected, and new ones the run's record mode did not record.
  public var toReview: Int
  public var links: Links

  public struct Links: Codable, Sendable, Equatable {
    public var run: String
    /// The review page: absolute with `--public-url`, else a path on this server.
    public var page: String

    public init(run: String, page: String) {
      self.run = run
      self.page = page
    }
  }

  public init(
    id: String, name: String?, branch: String?, environment: String?, recordMode: String, createdAt: String,
    closedAt: String?, complete: Bool, snapshotCount: Int, counts: [String: Int], errors: Int, verdict: RunVerdict,
    toReview: Int, links: Links
  ) {
    self.id = id
    self.name = name
    self.branch = branch
    self.environment = environment
    self.recordMode = recordMode
    self.createdAt = createdAt
    self.closedAt = closedAt
    open = closedAt == nil
    self.complete = complete
    self.snapshotCount = snapshotCount
    self.counts = counts
    self.errors = errors
    self.verdict = verdict
    passed = verdict == .passed
    self.toReview = toReview
    self.links = links
  }
}

/// `GET /api/v1/runs`.
public struct RunList: Codable, Sendable {
  public var runs: [RunSummary]
  /// Runs matching the filters, over all pages.
  public var total: Int
  public var limit: Int
  public var offset: Int

  public init(runs: [RunSummary], total: Int, limit: Int, offset: Int) {
    self.runs = runs
    self.total = total
    self.limit = limit
    self.offset = offset
  }
}

/// What an approval or rejection did.
public struct ReviewResult: Codable, Sendable {
  public var run: String
  /// `approved`, `rejected`, or `wouldApprove` for a dry run.
  public var action: String
  public var dryRun: Bool
  public var snapshots: [Item]
  /// The run afterwards.
  public var summary: RunSummary
  /// For an approval: the approval log's operation that records it, which
  /// `POST /api/v1/approvals/{operation}/undo` undoes in one request.
  public var operation: String?
  /// For an approval: the other runs of the branch that now show the same frames as approved in
  /// this run.
  public var seenIn: [String]?

  public struct Item: Codable, Sendable {
    public var key: String
    /// The status before the review.
    public var previousStatus: SnapshotStatus
    /// For approvals: `update` (the frame becomes the baseline) or `delete` (a missing
    /// snapshot's baseline is removed).
    public var baseline: String?
    /// For an approval as a variant (`"variant"` in the request): its name; `baseline` is then
    /// `variant` (the baseline stays, the frame is added beside it).
    public var variant: String?

    public init(key: String, previousStatus: SnapshotStatus, baseline: String?, variant: String? = nil) {
      self.key = key
      self.previousStatus = previousStatus
      self.baseline = baseline
      self.variant = variant
    }
  }

  public init(
    run: String, action: String, dryRun: Bool, snapshots: [Item], summary: RunSummary, operation: String? = nil,
    seenIn: [String]? = nil
  ) {
    self.operation = operation
    self.seenIn = seenIn
    self.run = run
    self.action = action
    self.dryRun = dryRun
    self.snapshots = snapshots
    self.summary = summary
  }
}

/// `GET /api/v1/health`.
public struct Health: Codable, Sendable {
  public var status = "ok"

  public init() {}
}

/// `GET /api/v1/ready`: `ready`, or `unavailable` with the reason (503).
public struct Readiness: Codable, Sendable {
  public var status: String
  public var reason: String?

  public init(status: String, reason: String? = nil) {
    self.status = status
    self.reason = reason
  }
}

/// `GET /api/v1/version`.
public struct VersionInfo: Codable, Sendable {
  public var name = "snapdiff"
  public var version: String
  public var api = "v1"

  public init(version: String) { self.version = version }
}
