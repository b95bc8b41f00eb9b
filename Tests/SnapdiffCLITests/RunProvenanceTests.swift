import Foundation
import SnapdiffCore
import Testing

/// What `check` records of where its frames come from (the commit, `--branch auto`'s
/// merge-base) in a real git repository, and GitLab's code-quality report, through the real
/// `snapdiff` process.
@Suite("run provenance and GitLab's code-quality report")
struct RunProvenanceTests {
  let home = "Home - test_search/Home"

  /// The CI's commit and branch variables emptied, so that the CI this suite runs on does not
  /// answer for git; git stops at the workspace.
  func isolated(_ workspace: Workspace, _ environment: [String: String] = [:]) -> [String: String] {
    var variables = AutoBranchTests().isolated(workspace)
    for name in ["GITHUB_SHA", "CI_COMMIT_SHA", "BITRISE_GIT_COMMIT", "CI_COMMIT", "GIT_COMMIT"] {
      variables[name] = ""
    }
    return variables.merging(environment) { $1 }
  }

  @Test("check --branch auto records the merge-base, and the commit from .git (loose or packed refs)")
  func mergeBaseAndCommit() throws {
    try withWorkspace { workspace in
      let git = AutoBranchTests()
      try git.repository(workspace)
      let check = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(check.status == 0, "\(check.standardError)")
      let run = try workspace.lastRun()
      #expect(run["mergeBase"] as? String == (try git.git(workspace, ["merge-base", "HEAD", "main"])))
      let head = try git.git(workspace, ["rev-parse", "HEAD"])
      #expect(run["commit"] as? String == head)

      // Packed refs (what `git gc` and clones leave): the same commit.
      try git.git(workspace, ["pack-refs", "--all"])
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/.git/refs/heads/feature/login"))
      #expect(try workspace.snapdiff(["check", "frames"], environment: isolated(workspace)).status == 0)
      #expect(try workspace.lastRun()["commit"] as? String == head)
      #expect(try workspace.lastRun()["mergeBase"] == nil)

      // The CI's variable wins over git.
      let ci = isolated(workspace, ["GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567"])
      #expect(try workspace.snapdiff(["check", "frames"], environment: ci).status == 0)
      #expect(try workspace.lastRun()["commit"] as? String == "0123456789abcdef0123456789abcdef01234567")
    }
  }

  @Test("--gitlab-codequality writes one issue per snapshot that fails the run, in GitLab's fields")
  func gitLabCodeQuality() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      try workspace.writeFrame("Other - test/Other", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames", "--gitlab-codequality", "gl.json"]).status == 0)
      let passing = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: workspace.root + "/gl.json")))
      #expect((passing as? [Any])?.isEmpty == true)

      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))
      let check = try workspace.snapdiff(["check", "frames", "--gitlab-codequality", "reports/gl.json"])
      #expect(check.status == 1)
      let data = try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/reports/gl.json"))
      let issues = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
      #expect(issues.count == 1)
      let issue = try #require(issues.first)
      #expect(issue["check_name"] as? String == "snapdiff/failed")
      #expect(issue["severity"] as? String == "major")
      #expect(
        (issue["description"] as? String)?.hasPrefix("snapdiff: snapshot '\(home)' differs from its baseline: 40 px")
          == true)
      let location = try #require(issue["location"] as? [String: Any])
      #expect(location["path"] as? String == "baselines/\(home).png")
      #expect((location["lines"] as? [String: Any])?["begin"] as? Int == 1)
      let fingerprint = try #require(issue["fingerprint"] as? String)
      #expect(fingerprint.count == 32 && fingerprint.allSatisfy(\.isHexDigit))

      // The same change in the next pipeline is the same issue.
      _ = try workspace.snapdiff(["check", "frames", "--gitlab-codequality", "again.json"])
      let again = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: workspace.root + "/again.json")))
      #expect((again as? [[String: Any]])?.first?["fingerprint"] as? String == fingerprint)
    }
  }
}
