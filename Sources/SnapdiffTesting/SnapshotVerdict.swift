import SnapdiffCore

/// What became of one `takeSnapshot`.
public struct SnapshotVerdict: Sendable, Equatable {
  public enum Status: String, Sendable {
    case passed, failed, recorded, skipped
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

  public init(key: String, status: Status, message: String? = nil) {
    self.key = key
    self.status = status
    self.message = message
  }
}
