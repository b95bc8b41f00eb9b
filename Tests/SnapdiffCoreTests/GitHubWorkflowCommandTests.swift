import SnapdiffCore
import Testing

/// The escaping of GitHub workflow commands and of the job summary's table cells (issue #31 item
/// 5): what no snapshot key can carry (line breaks) comes in messages and error texts.
@Suite("GitHub workflow commands")
struct GitHubWorkflowCommandTests {
  @Test("a message escapes %, CR and LF; a property also : and ,; % first, so escapes stay text")
  func escaping() {
    let text = "50% of 2:3, then\r\nnext %0A"
    #expect(GitHubWorkflowCommand.escapeData(text) == "50%25 of 2:3, then%0D%0Anext %250A")
    #expect(GitHubWorkflowCommand.escapeProperty(text) == "50%25 of 2%3A3%2C then%0D%0Anext %250A")
    #expect(
      GitHubWorkflowCommand.error(title: "snapdiff: a,b", message: "failed:\nreport")
        == "::error title=snapdiff%3A a%2Cb::failed:%0Areport")
  }

  @Test("ten errors at most, then one notice counting the rest")
  func annotationsAreCapped() throws {
    let failing = (0..<13).map { index in
      var snapshot = SnapshotRecord(key: "Screen \(index)", status: .failed)
      snapshot.error = "cannot decode\nline two"
      return snapshot
    }
    let lines = GitHubWorkflowCommand.annotations(for: failing, report: "runs/1/index.html")
    #expect(lines.count == 11)
    #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error title=snapdiff%3A Screen ") && !$0.contains("\n") })
    #expect(
      lines[0]
        == "::error title=snapdiff%3A Screen 0::failed: not compared: cannot decode%0Aline two%0Areport: runs/1/index.html"
    )
    #expect(lines[10] == "::notice title=snapdiff::3 more failing snapshots: see the job summary and runs/1/index.html")
  }

  @Test("a table cell escapes what Markdown reads as syntax and flattens line breaks")
  func cells() {
    #expect(GitHubJobSummary.cell("a|b_c*d\ne`f`") == "a\\|b\\_c\\*d e\\`f\\`")
  }
}
