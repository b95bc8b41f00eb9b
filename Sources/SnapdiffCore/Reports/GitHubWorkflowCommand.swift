/// GitHub Actions workflow commands (`::error title=…::message` lines on standard output), which
/// the runner turns into annotations on the workflow run and the pull request.
///
/// Escaping, as the runner parses it (actions/toolkit `packages/core/src/command.ts`,
/// `escapeData` and `escapeProperty`; https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions):
/// the message escapes `%`, CR and LF as `%25`, `%0D`, `%0A`; a property (`title=`) also `:`
/// and `,` as `%3A` and `%2C`, because they end the properties and separate them. `%` goes
/// first, so that an escape already in the text stays text.
///
/// ```swift
/// print(GitHubWorkflowCommand.error(title: "snapdiff: Home", message: "failed: 1,204 px"))
/// // ::error title=snapdiff%3A Home::failed%3A 1,204 px   (no: the message keeps its ':')
/// ```
public enum GitHubWorkflowCommand {
  /// GitHub shows at most this many annotations of one kind per step; later ones are dropped.
  public static let annotationsShownPerKind = 10

  /// `::error title=TITLE::MESSAGE`, escaped.
  public static func error(title: String, message: String) -> String {
    "::error title=\(escapeProperty(title))::\(escapeData(message))"
  }

  /// `::notice title=TITLE::MESSAGE`, escaped.
  public static func notice(title: String, message: String) -> String {
    "::notice title=\(escapeProperty(title))::\(escapeData(message))"
  }

  /// A command's message: `%`, CR, LF escaped.
  public static func escapeData(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": escaped += "%25"
      case "\r": escaped += "%0D"
      case "\n": escaped += "%0A"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A command's property value: as a message, and `:` and `,` escaped too.
  public static func escapeProperty(_ text: String) -> String {
    var escaped = ""
    for scalar in escapeData(text).unicodeScalars {
      switch scalar {
      case ":": escaped += "%3A"
      case ",": escaped += "%2C"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// The annotations for a run: one `::error` per snapshot that fails it (`failing`, worst
  /// first as given), at most ``annotationsShownPerKind``, then one `::notice` naming how many
  /// more there are and where they are listed.
  ///
  /// - Parameters:
  ///   - failing: the snapshots that fail the run, in the order to show them.
  ///   - report: the path of the run's `index.html`, named in each message.
  public static func annotations(for failing: [SnapshotRecord], report: String) -> [String] {
    var lines = failing.prefix(annotationsShownPerKind).map { snapshot in
      error(
        title: "snapdiff: \(snapshot.key)",
        message: "\(snapshot.status.rawValue): \(GitHubJobSummary.difference(of: snapshot))\nreport: \(report)")
    }
    if failing.count > annotationsShownPerKind {
      lines.append(
        notice(
          title: "snapdiff",
          message:
            "\(failing.count - annotationsShownPerKind) more failing snapshots: see the job summary and \(report)"))
    }
    return lines
  }
}
