/// When a run writes current frames as baselines, with swift-snapshot-testing's names.
public enum RecordMode: String, Sendable, Codable, CaseIterable {
  /// A snapshot without a baseline records one and is reported `new` (the default locally).
  case missing
  /// Every current frame becomes its baseline; failures are still reported.
  case all
  /// Failed snapshots are re-recorded (and still reported failed); new ones are recorded.
  case failed
  /// Nothing is written; a snapshot without a baseline fails the run (the default in CI).
  case never

  /// The mode from `SNAPDIFF_RECORD` if set, else `never` when `CI` is set to anything but
  /// empty, `0` or `false`, else `missing`.
  public static func fromEnvironment(_ environment: [String: String]) throws(ConfigurationError)
    -> RecordMode
  {
    try fromVariable(environment) ?? (isCI(environment) ? .never : .missing)
  }

  /// The mode `SNAPDIFF_RECORD` names (any case); nil when it is unset or empty.
  ///
  /// - Throws: `ConfigurationError` naming the variable and the accepted values for any other
  ///   value: a misspelt mode never falls back silently (`SNAPDIFF_RECORD=al` must not check in
  ///   mode `missing`).
  public static func fromVariable(_ environment: [String: String]) throws(ConfigurationError) -> RecordMode? {
    guard let value = environment["SNAPDIFF_RECORD"], !value.isEmpty else { return nil }
    guard let mode = RecordMode(rawValue: value.lowercased()) else {
      throw ConfigurationError(
        "SNAPDIFF_RECORD=\(value) is not a record mode: use missing, all, failed or never")
    }
    return mode
  }

  /// Whether `CI` is set to something other than empty, `0` or `false`.
  public static func isCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"] else { return false }
    return !["", "0", "false"].contains(value.lowercased())
  }

  /// Whether a frame in this state is written as the baseline.
  public func records(_ status: SnapshotStatus) -> Bool {
    switch (self, status) {
    case (.never, _): false
    case (_, .new): true
    case (.all, .failed), (.failed, .failed): true
    default: false
    }
  }
}
