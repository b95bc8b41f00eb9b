import Foundation
import SnapdiffCore
import Testing

/// On GitHub Actions (issue #31 item 5): `check` and `merge` append a job summary to
/// `$GITHUB_STEP_SUMMARY` and print `::error` annotations for the snapshots that fail the run.
@Suite("GitHub job summary and annotations")
struct GitHubOutputTests {
  /// A key with every character a workflow command's property must escape but a line break,
  /// which no key may hold (the annotation's message has one of its own), and `|`, `_` and `*`
  /// for the Markdown table.
  let oddKey = "Odd 100% - test_a:b,c/Screen | one *two*"
  let keys = ["Flow - test_one/Login", "Flow - test_two/Settings", "Flow - test_three/Profile"]

  /// Baselines for `keys` and `oddKey`; then the odd key and the first key change, the second
  /// is gone, a new one appears and the third passes.
  func prepare(_ workspace: Workspace) throws {
    for (index, key) in (keys + [oddKey]).enumerated() {
      try workspace.writeFrame(key, Workspace.screen([PixelRect(x: index * 5, y: 5, width: 4, height: 4)]))
    }
    #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    try workspace.writeFrame(keys[0], Workspace.screen([PixelRect(x: 0, y: 0, width: 60, height: 3)]))
    try workspace.writeFrame(oddKey, Workspace.screen([PixelRect(x: 30, y: 20, width: 9, height: 9)]))
    try workspace.removeFrame(keys[1])
    try workspace.writeFrame("Flow - test_new/Screen", Workspace.screen([]))
  }

  /// The rows of the Markdown tables in `text`: each row's cells, unescaped (`\|` is a `|` in
  /// a cell, `\X` is X), after checking the header and the delimiter row.
  func tableRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var inTable = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      guard line.hasPrefix("|") else {
        inTable = false
        continue
      }
      let cells = split(line)
      if !inTable {
        #expect(cells == ["Snapshot", "Status", "Difference"], "header: \(line)")
        inTable = true
        continue
      }
      if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == " " || $0 == ":" } }) { continue }
      #expect(cells.count == 3, "a row of three cells: \(line)")
      rows.append(cells)
    }
    return rows
  }

  /// A GitHub-flavoured Markdown table row's cells: split at `|` not escaped, backslash escapes
  /// undone, trimmed.
  func split(_ line: String) -> [String] {
    var cells: [String] = []
    var cell = ""
    var escaped = false
    for character in line.dropFirst() {
      if escaped {
        cell.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "|" {
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        cell = ""
      } else {
        cell.append(character)
      }
    }
    #expect(cell.trimmingCharacters(in: .whitespaces).isEmpty, "the row ends with '|': \(line)")
    return cells
  }

  /// Undoes a workflow command's escapes (`%25`, `%0D`, `%0A`, `%3A`, `%2C`).
  func unescape(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    let escapes = ["%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","]
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      let code = String(rest[percent...].prefix(3))
      #expect(escapes[code] != nil, "a bare % in \(text)")
      result += escapes[code] ?? code
      rest = rest[percent...].dropFirst(3)
    }
    return result + rest
  }

  @Test("check appends a summary whose table names every snapshot that needs a look, and annotates each failure")
  func checkWritesSummaryAndAnnotations() throws {
    try withWorkspace { workspace in
      try prepare(workspace)
      let summary = workspace.root + "/step-summary.md"
      try "## An earlier step's summary\n".write(toFile: summary, atomically: true, encoding: .utf8)
      let check = try workspace.snapdiff(
        ["check", "frames", "--record", "never", "--fail-on-missing"],
        environment: [
          "GITHUB_STEP_SUMMARY": summary, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "team/app",
          "GITHUB_RUN_ID": "1234",
        ])
      #expect(check.status == 1, "\(check.standardError)")
      let statuses = try workspace.lastStatuses()
      let needsLook = statuses.filter { $0.value != "passed" }
      #expect(needsLook.count == 4, "\(statuses)")

      let text = try String(contentsOfFile: summary, encoding: .utf8)
      #expect(text.hasPrefix("## An earlier step's summary\n"), "appended, not replaced")
      #expect(text.contains("### ❌ snapdiff: 2 failed, 1 new, 1 missing, 1 passed (5 snapshots)"), "\(text)")
      let rows = tableRows(text)
      #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) }) == needsLook)
      let oddRow = rows.first { $0[0] == oddKey }
      #expect(oddRow?[2].contains("pixels differ") == true, "\(oddRow ?? [])")
      let run = try workspace.lastRun()["id"] as! String
      #expect(text.contains("Report: `.snapdiff/runs/\(run)/index.html`"), "\(text)")
      #expect(text.contains("[this workflow run's artifacts](https://github.com/team/app/actions/runs/1234)"))

      // One annotation per snapshot that fails the run (failed, new in record mode never,
      // missing with --fail-on-missing), each on one line, escaped.
      let annotations = check.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::error ") }
      #expect(annotations.count == 4, "\(check.standardOutput)")
      var annotated: [String: String] = [:]
      for line in annotations {
        let body = line.dropFirst("::error title=".count)
        let separator = try #require(body.range(of: "::"))
        let title = String(body[..<separator.lowerBound])
        #expect(!title.contains(":") && !title.contains(","), "a property's ':' and ',' are escaped: \(title)")
        let message = String(body[separator.upperBound...])
        annotated[unescape(title)] = unescape(message)
      }
      #expect(Set(annotated.keys) == Set(needsLook.keys.map { "snapdiff: \($0)" }))
      let oddMessage = try #require(annotated["snapdiff: \(oddKey)"])
      #expect(oddMessage.hasPrefix("failed: "), "\(oddMessage)")
      #expect(oddMessage.hasSuffix("\nreport: .snapdiff/runs/\(run)/index.html"), "\(oddMessage)")
      #expect(
        check.standardOutput.contains(
          "::error title=snapdiff%3A Odd 100%25 - test_a%3Ab%2Cc/Screen | one *two*::failed: "),
        "\(check.standardOutput)")
      #expect(check.standardOutput.contains("%0Areport: .snapdiff/runs/\(run)/index.html\n"))
    }
  }

  @Test("merge writes the merged run's summary; without GITHUB_STEP_SUMMARY nothing GitHub's is printed")
  func mergeWritesSummary() throws {
    try withWorkspace { workspace in
      try prepare(workspace)
      var ids: [String] = []
      for index in 1...2 {
        let part = try workspace.snapdiff(["check", "frames", "--shard", "\(index)/2", "--record", "never"])
        #expect(!part.standardOutput.contains("::error"), "\(part.standardOutput)")
        ids.append(try workspace.lastRun()["id"] as! String)
      }
      let summary = workspace.root + "/merge-summary.md"
      let merge = try workspace.snapdiff(["merge"] + ids, environment: ["GITHUB_STEP_SUMMARY": summary])
      #expect(merge.status == 1, "\(merge.standardError)")
      let text = try String(contentsOfFile: summary, encoding: .utf8)
      let statuses = try workspace.lastStatuses()
      #expect(
        Set(tableRows(text).map { $0[0] }) == Set(statuses.filter { $0.value != "passed" }.keys), "\(text)")
      // Missing does not fail a run without --fail-on-missing: failed and new (record mode never) do.
      let failing = statuses.filter { $0.value == "failed" || $0.value == "new" }
      #expect(merge.standardOutput.split(separator: "\n").count { $0.hasPrefix("::error ") } == failing.count)
    }
  }

  @Test("the summary of a run that passed has no table and a tick")
  func passingRunSummary() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(keys[0], Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let summary = workspace.root + "/summary.md"
      let check = try workspace.snapdiff(["check", "frames"], environment: ["GITHUB_STEP_SUMMARY": summary])
      #expect(check.status == 0)
      let text = try String(contentsOfFile: summary, encoding: .utf8)
      #expect(text.hasPrefix("### ✅ snapdiff: 1 passed (1 snapshot)\n"), "\(text)")
      #expect(tableRows(text).isEmpty)
      #expect(!check.standardOutput.contains("::error"))
    }
  }
}
