/// A snapshot's accessibility validation as `run.json` and the service's verdict keep it: the
/// level, whether it failed the snapshot, how many elements were measured, and the failures in
/// words (`staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)`).
/// `ContrastCheck` (SnapdiffCore) measures it.
public struct ContrastRecord: Sendable, Codable, Equatable {
  public var level: ContrastLevel
  /// Failures fail the snapshot (`--contrast-fails`); else they are reported only.
  public var failsSnapshot: Bool
  public var checked: Int
  public var failures: [String]

  public init(level: ContrastLevel, failsSnapshot: Bool, checked: Int, failures: [String]) {
    self.level = level
    self.failsSnapshot = failsSnapshot
    self.checked = checked
    self.failures = failures
  }
}
