import Foundation
import SnapdiffCore
import Testing

/// The review page's approvals in headless Chromium: `scripts/approvals_page_check.py` starts the
/// built `snapdiff serve` over a project of its own, posts a run whose six screens share one
/// change, and drives the page through Selenium: the group approval listed in the Approvals panel
/// and on each card with Undo, the busy state while a request runs, Undo on one card undoing the
/// whole group as one operation (cards, panel and store agree), and the toolbar at 390 px.
///
/// Skipped without Chromium, chromedriver and Selenium, except under `CI=true`, as
/// `ReviewPageBrowserTests`.
@Suite("the review page's approvals in headless Chromium")
struct ApprovalsPageBrowserTests {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/approvals_page_check.py").path

  @Test(
    "a group approval listed with Undo on the page and its cards, undone whole in one request; busy state; 390 px",
    .enabled(
      if: ReviewPageBrowserTests.missingTools.isEmpty || ReviewPageBrowserTests.isCI,
      "needs chromium, chromedriver and Selenium; under CI=true it runs and fails without them"),
    .timeLimit(.minutes(3)))
  func approvalsInBrowser() throws {
    try #require(
      ReviewPageBrowserTests.missingTools.isEmpty,
      "missing: \(ReviewPageBrowserTests.missingTools.joined(separator: ", "))")
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    let check = try ExternalTool.run(["python3", Self.script, "--snapdiff", executable])
    #expect(check.status == 0, "approvals_page_check.py exited \(check.status):\n\(check.standardError.suffix(4000))")
    #expect(check.standardOutput.contains("approvals page: 6 checks passed"), "\(check.standardOutput)")
  }
}
