/// The review commands the reports print beside each snapshot, quoted for a POSIX shell so that
/// they can be pasted as they are.
///
/// ```swift
/// ApproveCommand.approve("Home - test_search/Home - search action", run: "20261122-034512-123")
/// // snapdiff approve 'Home - test_search/Home - search action' --run 20261122-034512-123
/// ```
public enum ApproveCommand {
  /// `snapdiff approve '<key>' --run <run id>`: accept this snapshot's current frame.
  public static func approve(_ key: String, run runID: String) -> String {
    "snapdiff approve \(shellQuoted(key)) --run \(shellQuoted(runID, onlyIfNeeded: true))"
  }

  /// `snapdiff approve --same-as '<key>' --run <run id>`: accept every snapshot of the run
  /// whose change is the same as this one's.
  public static func approveSameAs(_ key: String, run runID: String) -> String {
    "snapdiff approve --same-as \(shellQuoted(key))"
      + " --run \(shellQuoted(runID, onlyIfNeeded: true))"
  }

  /// `snapdiff approve --difference rendering --run ID`: every failed snapshot of the run whose
  /// difference is in `group`.
  public static func approveDifference(_ group: String, run runID: String) -> String {
    "snapdiff approve --difference \(shellQuoted(group, onlyIfNeeded: true))"
      + " --run \(shellQuoted(runID, onlyIfNeeded: true))"
  }

  /// `text` in single quotes, each `'` written `'\''`.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - onlyIfNeeded: Leave `text` bare when it is made only of characters no shell treats
  ///     specially (letters, digits, `-`, `_`, `.`, `/`, `:`, `@`, `+`, `,`, `=`).
  public static func shellQuoted(_ text: String, onlyIfNeeded: Bool = false) -> String {
    if onlyIfNeeded && !text.isEmpty && text.unicodeScalars.allSatisfy(isShellSafe) {
      return text
    }
    var quoted = "'"
    for character in text {
      quoted += character == "'" ? "'\\''" : String(character)
    }
    return quoted + "'"
  }

  private static func isShellSafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "+", ",", "=": true
    default: false
    }
  }
}
