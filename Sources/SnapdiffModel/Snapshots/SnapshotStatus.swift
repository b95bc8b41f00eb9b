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
