/// Where a snapshot stands after a run, and after review.
public enum SnapshotStatus: String, Sendable, Codable, CaseIterable, Comparable {
  /// Matches its baseline within tolerance.
  case passed
  /// Differs from its baseline beyond tolerance (or in size).
  case failed
  /// Has no baseline yet.
  case new
  /// Has a baseline but no current frame.
  case missing
  /// A reviewer accepted the change: the current frame is the baseline now.
  case approved
  /// A reviewer refused the change: the same change stays failed in later runs.
  case rejected
  /// The test did not take it: its page is not allowed by the `SnapshotController`, or has no
  /// shooter. Reported, never failing.
  case skipped

  /// Whether a reviewer can act on a snapshot with this status: approve it (for `missing`,
  /// approving deletes the baseline) or reject it. The one rule `snapdiff approve`, the reports'
  /// approve commands and the review page's buttons go by.
  public var isReviewable: Bool {
    switch self {
    case .failed, .new, .missing, .rejected: true
    case .passed, .approved, .skipped: false
    }
  }

  /// The statuses a reviewer can act on, in report order (the report's script is written from it).
  public static var reviewable: [SnapshotStatus] { allCases.filter(\.isReviewable).sorted() }

  /// Whether a snapshot with this status, in a run with `recordMode`, waits for a reviewer: it is
  /// reviewable, and not a `new` snapshot whose frame the record mode already made its baseline
  /// (the run passes with it; `approve` still accepts it). A failure re-recorded by mode `all` or
  /// `failed` still waits: the run failed with it. `snapdiff status`'s exit status and the
  /// service's `toReview` count by this.
  public func awaitsReview(recordMode: RecordMode) -> Bool {
    isReviewable && !(self == .new && recordMode.records(.new))
  }

  /// Whether a snapshot with this status passes its check: passed, approved or skipped (a
  /// snapshot that could not be compared never passes, whatever its status).
  public var passes: Bool {
    switch self {
    case .passed, .approved, .skipped: true
    case .failed, .new, .missing, .rejected: false
    }
  }

  /// The order reports list statuses in: what needs attention first.
  public static func < (lhs: SnapshotStatus, rhs: SnapshotStatus) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .failed: 0
    case .new: 1
    case .missing: 2
    case .rejected: 3
    case .skipped: 4
    case .approved: 5
    case .passed: 6
    }
  }
}
