/// GitLab's code-quality report (`artifacts: reports: codequality:`): a JSON array of issues in
/// the subset of the Code Climate format GitLab documents (`description`, `check_name`,
/// `fingerprint`, `severity`, `location.path`, `location.lines.begin`), one per snapshot that
/// fails the run. GitLab shows a merge request the issues its head has and its base has not, so
/// a fingerprint names the snapshot and its change (the same change on a later pipeline is the
/// same issue; another change is a new one).
///
/// ```swift
/// let bytes = try GitLabCodeQuality.render(record, path: { $0.key }) { RunVerdict.fails(with: $0, recordMode: .never) }
/// ```
public enum GitLabCodeQuality {
  struct Issue: Codable, Equatable {
    var description: String
    var checkName: String
    var fingerprint: String
    var severity: String
    var location: Location

    enum CodingKeys: String, CodingKey {
      case description, fingerprint, severity, location
      case checkName = "check_name"
    }

    struct Location: Codable, Equatable {
      var path: String
      var lines: Lines
    }

    struct Lines: Codable, Equatable { var begin: Int }
  }

  /// The report's bytes.
  ///
  /// - Parameters:
  ///   - path: the file an issue points at, relative to the repository (the baseline, else the
  ///     current frame, as the working folder names it).
  ///   - fails: which snapshots fail the run (the command's rule: record mode, `--fail-on-missing`).
  public static func render(
    _ record: RunRecord, path: (SnapshotRecord) -> String, fails: (SnapshotRecord) -> Bool
  ) throws -> [UInt8] {
    let issues = record.snapshots.filter(fails).map { snapshot in
      Issue(
        description: "snapdiff: snapshot '\(snapshot.key)' \(sentence(snapshot))",
        checkName: "snapdiff/\(snapshot.error != nil ? "error" : snapshot.status.rawValue)",
        fingerprint: String(
          SHA256.hex(Array("\(snapshot.key)\u{0}\(snapshot.status.rawValue)\u{0}\(snapshot.changeHash ?? "")".utf8))
            .prefix(32)),
        severity: snapshot.error != nil ? "critical" : "major",
        location: Issue.Location(path: path(snapshot), lines: Issue.Lines(begin: 1)))
    }
    return try JSONEncoderBox.encode(issues)
  }

  /// What happened to the snapshot, in words.
  static func sentence(_ snapshot: SnapshotRecord) -> String {
    if let error = snapshot.error { return "could not be compared: \(error)" }
    switch snapshot.status {
    case .new: return "is new: it has no baseline"
    case .missing: return "is missing: its baseline has no current frame"
    case .rejected: return "shows a change rejected before"
    default:
      var text =
        "differs from its baseline: \(ReportFormat.count(snapshot.differentPixels)) px (\(ReportFormat.percent(snapshot.differentRatio)))"
      if let difference = snapshot.difference { text += ", \(difference.sentence)" }
      return text
    }
  }
}
