/// The Markdown `check` and `merge` append to `$GITHUB_STEP_SUMMARY` on GitHub Actions, shown
/// on the workflow run's summary page (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions#adding-a-job-summary):
/// the counts, one table row per snapshot that needs a look (failed, new, missing, rejected, not
/// compared) with its status and kind of difference, and where the report is.
///
/// GitHub refuses a step summary over 1 MiB whole, so the table stops at ``byteBudget`` and
/// says how many rows it left out. Keys and messages are escaped: a `|`, `*` or `_` in a key
/// stays text and cannot end a cell.
///
/// ```swift
/// _ = try FileIO.appendLine(Array(GitHubJobSummary.markdown(run, report: "…/index.html").utf8), to: path)
/// ```
public enum GitHubJobSummary {
  /// The most the summary takes, below GitHub's 1 MiB per step.
  public static let byteBudget = 900_000

  /// The summary of `run`.
  ///
  /// - Parameters:
  ///   - failing: whether a snapshot fails the run (the caller's rule: `--fail-on-missing`
  ///     makes missing ones fail); the heading says failed when one does.
  ///   - report: the path of the run's `index.html`.
  ///   - artifactsURL: where the workflow run's artifacts are (the run's page), when known.
  public static func markdown(
    _ run: RunRecord, failing: (SnapshotRecord) -> Bool, report: String, artifactsURL: String? = nil
  ) -> String {
    let attention = run.snapshots.filter(needsLook).sorted { ($0.status, $0.key) < ($1.status, $1.key) }
    let failed = run.snapshots.contains(where: failing)
    let countText = ReportFormat.statusCounts(run.counts)
    let total = "\(run.snapshots.count) snapshot\(run.snapshots.count == 1 ? "" : "s")"
    var text = "### \(failed ? "❌" : "✅") snapdiff: \(countText.isEmpty ? "no snapshots" : countText) (\(total))\n\n"
    var context = ["run `\(run.id)`"]
    if let branch = run.branch {
      context.append("branch \(inline(branch))" + (run.baseBranch.map { " (base \(inline($0)))" } ?? ""))
    }
    if let environment = run.environment { context.append("environment \(inline(environment))") }
    text += context.joined(separator: " · ") + "\n\n"

    if !attention.isEmpty {
      text += "| Snapshot | Status | Difference |\n| --- | --- | --- |\n"
      for (index, snapshot) in attention.enumerated() {
        let row = "| \(cell(snapshot.key)) | \(snapshot.status.rawValue) | \(cell(difference(of: snapshot))) |\n"
        if text.utf8.count + row.utf8.count > byteBudget {
          text += "\n… and \(attention.count - index) more: the report lists every snapshot.\n"
          break
        }
        text += row
      }
      text += "\n"
    }
    text += "Report: \(inline(report))"
    if let artifactsURL { text += ", in [this workflow run's artifacts](\(artifactsURL))" }
    text += "\n"
    if failed { text += "\nApprove: `snapdiff approve --failed` (or `approve KEY…`, `--same-as KEY`)\n" }
    return text + "\n"
  }

  /// The snapshots the table lists: all but those that passed, were approved or were skipped.
  static func needsLook(_ snapshot: SnapshotRecord) -> Bool {
    switch snapshot.status {
    case .passed, .approved, .skipped: snapshot.error != nil
    default: true
    }
  }

  /// What happened to a snapshot in a few words: its kind of difference and its figures, the
  /// reason it could not be compared, or what a new or missing one lacks.
  public static func difference(of snapshot: SnapshotRecord) -> String {
    if let error = snapshot.error { return "not compared: \(error)" }
    switch snapshot.status {
    case .failed, .rejected:
      var parts: [String] = []
      if let difference = snapshot.difference { parts.append(difference.sentence) }
      parts.append(ReportFormat.figures(snapshot))
      if snapshot.previouslyRejected { parts.append("rejected before") }
      return parts.joined(separator: "; ")
    case .new: return snapshot.recorded ? "no baseline: recorded as the baseline" : "no baseline"
    case .missing: return "no current frame for the baseline"
    case .approved: return "approved"
    case .skipped: return "skipped: \(snapshot.skipReason ?? "no reason given")"
    default: return snapshot.status.rawValue
    }
  }

  /// Text in a table cell: every character Markdown could read as syntax escaped with a
  /// backslash (GitHub-flavoured Markdown lets any ASCII punctuation be), and line breaks as
  /// spaces, so that the cell is the text and `|` cannot end it.
  public static func cell(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\n", "\r", "\r\n": escaped += " "
      case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#", "!":
        escaped += "\\" + String(character)
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// `text` as inline code; a backtick inside it takes a longer fence.
  static func inline(_ text: String) -> String {
    let flat = text.replacingNewlines()
    guard flat.contains("`") else { return "`\(flat)`" }
    return "`` \(flat) ``"
  }
}

extension String {
  fileprivate func replacingNewlines() -> String {
    String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
  }
}
