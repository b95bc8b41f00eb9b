/// Whether a run, as it stands now, passes: what the service reports for a run and `status`
/// prints first. (The rule over a run's record is the engine's: `RunVerdict.init(_:)` in
/// SnapdiffCore; the type lives here because the service's API sends it.)
public enum RunVerdict: String, Sendable, Codable, CaseIterable {
  case passed
  case failed
  /// No snapshot yet: a run just opened (or one whose test posted nothing). Not `passed`: a
  /// suite that never reached its snapshots has not shown that anything looks right.
  case empty

  /// The verdict of a run of `snapshots` snapshots of which `failing` fail it (`fails(with:)`):
  /// what an index that counts them gives without the record.
  public init(snapshots: Int, failing: Int) {
    self = snapshots == 0 ? .empty : failing > 0 ? .failed : .passed
  }
}
