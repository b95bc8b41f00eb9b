/// What became of one `takeSnapshot`.
public struct SnapshotVerdict: Sendable, Equatable {
  public enum Status: String, Sendable {
    /// Matched its baseline.
    case passed
    /// Did not match, or could not be checked: the test fails.
    case failed
    /// Had no baseline: the frame became it (record mode).
    case recorded
    /// Not taken (a page that is not allowed, or has no shooter).
    case skipped
    /// Written to the frames folder, for `snapdiff check` to decide afterwards (no engine in this
    /// process and no service to ask: an iOS UI-test bundle).
    case written
  }

  /// `<id> - <test name>/<name>`.
  public var key: String
  public var status: Status
  /// Why it failed or was skipped, ready to show in a test failure.
  public var message: String?
  public var differentPixels: Int = 0
  public var baselinePath: String?
  public var currentPath: String?
  public var diffPath: String?
  /// How many captures the frame took (``StableCapture``): 1 when captured once, 2 for a screen
  /// that was still at once, more for one that was moving.
  public var captures: Int = 1
  /// What the snapshot's regions found, in words: where each floating region's content was
  /// found, and what a region could not do as asked (a layout region without element trees).
  public var regionNotes: [String] = []

  public init(key: String, status: Status, message: String? = nil) {
    self.key = key
    self.status = status
    self.message = message
  }
}
