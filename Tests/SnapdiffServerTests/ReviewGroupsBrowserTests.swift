import Foundation
import Testing

/// Groups of similar changes, branches and a page that stays true, as a reviewer uses them:
/// `scripts/review_groups_check.py` starts the built `snapdiff serve` over a project it draws (17
/// real PNGs on a branch: a brand colour changed on 12 screens with 12 titles, an exact pair, a
/// change seen once), drives headless Chromium through Selenium over the run page, the run list
/// and the branch list, and reads the store and `snapdiff history` afterwards.
///
/// Like `ReviewPageBrowserTests`, it skips itself without Chromium, chromedriver or Selenium,
/// except under `CI=true`, where a missing tool is a failure.
@Suite("review groups, live counts and branches in headless Chromium")
struct ReviewGroupsBrowserTests {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/review_groups_check.py").path

  @Test(
    "a brand colour on 12 screens is one group; members left out; the page equals a reload after each review; merge and discard from the page",
    .enabled(
      if: ReviewPageBrowserTests.missingTools.isEmpty || ReviewPageBrowserTests.isCI,
      "needs chromium, chromedriver and Selenium; under CI=true it runs and fails without them"),
    .timeLimit(.minutes(5)))
  func groupsAndBranches() throws {
    try #require(
      ReviewPageBrowserTests.missingTools.isEmpty,
      "missing: \(ReviewPageBrowserTests.missingTools.joined(separator: ", "))")
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    let check = try ExternalTool.run(["python3", Self.script, "--snapdiff", executable])
    #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
    #expect(check.standardOutput.contains("checks passed"), "\(check.standardOutput)")
  }
}
