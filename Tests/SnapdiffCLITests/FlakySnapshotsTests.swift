import Foundation
import SnapdiffCore
import Testing

/// Flaky snapshots found in the run folders `check` writes, through the real `snapdiff status
/// --flaky`: a snapshot whose verdict flips between runs on the same baseline and commit is
/// listed with its flips; one that fails steadily, or flips only across commits, is not.
@Suite("flaky snapshots")
struct FlakySnapshotsTests {
  let flaky = "Home - test_search/Spinner"
  let steady = "Home - test_search/Header"
  let content = PixelRect(x: 5, y: 10, width: 10, height: 10)
  let glitch = PixelRect(x: 40, y: 5, width: 3, height: 3)

  /// Records both, then checks `flakyFails` as the flaky snapshot's verdicts, the steady one
  /// failing every time with the same change.
  func history(_ workspace: Workspace, flakyFails: [Bool], environment: [String: String] = [:]) throws {
    for (index, fails) in flakyFails.enumerated() {
      try workspace.writeFrame(flaky, Workspace.screen(fails ? [content, glitch] : [content]))
      try workspace.writeFrame(steady, Workspace.screen(index == 0 ? [content] : [content, glitch]))
      let check = try workspace.snapdiff(["check", "frames"], environment: environment)
      #expect(check.status == (index == 0 ? 0 : 1), "\(check.standardOutput)\(check.standardError)")
    }
  }

  @Test("a snapshot whose verdict flips is flaky, with its flips; a steady failure is not")
  func flipsAreFound() throws {
    try withWorkspace { workspace in
      let commit = ["GITHUB_SHA": "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"]
      // Run 1 records both (no verdict on a baseline); then pass, fail, pass, fail.
      try history(workspace, flakyFails: [false, false, true, false, true], environment: commit)
      #expect(try workspace.lastRun()["commit"] as? String == commit["GITHUB_SHA"])

      let status = try workspace.snapdiff(["status", "--flaky"])
      #expect(status.status == 0, "\(status.standardError)")
      #expect(status.standardOutput.contains("1 flaky snapshot in the newest 5 runs"), "\(status.standardOutput)")
      #expect(status.standardOutput.contains("FLAKY    \(flaky)  3 flips in 4 runs (2 passed, 2 failed)"))
      #expect(status.standardOutput.contains("commit 1a2b3c4d5e6f"))
      #expect(!status.standardOutput.contains(steady))

      let json = try workspace.snapdiff(["status", "--flaky", "--json"])
      let found = try #require(
        try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
      #expect(found.map { $0["key"] as? String } == [flaky])
      #expect(found.first?["flips"] as? Int == 3)
      #expect(found.first?["verdicts"] as? [Bool] == [true, false, true, false])

      // Only the newest runs are read: the last two hold one flip.
      #expect(try workspace.snapdiff(["status", "--flaky", "--runs", "2"]).standardOutput.contains("1 flip in 2 runs"))
    }
  }

  @Test("a verdict that changes with the commit, or with the baseline, is not a flake")
  func otherCodeOrBaselineIsNoFlake() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(flaky, Workspace.screen([content]))
      try workspace.writeFrame(steady, Workspace.screen([content]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      // A change that a new commit brings, then fixes: each commit's verdicts are steady.
      for (commit, fails) in [("aaaa1111", false), ("bbbb2222", true), ("bbbb2222", true), ("cccc3333", false)] {
        try workspace.writeFrame(flaky, Workspace.screen(fails ? [content, glitch] : [content]))
        _ = try workspace.snapdiff(["check", "frames"], environment: ["GITHUB_SHA": commit])
      }
      // A failure approved as the new baseline, then passing: a new baseline, no flake.
      try workspace.writeFrame(flaky, Workspace.screen([content, glitch]))
      #expect(try workspace.snapdiff(["check", "frames"], environment: ["GITHUB_SHA": "dddd4444"]).status == 1)
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      #expect(try workspace.snapdiff(["check", "frames"], environment: ["GITHUB_SHA": "dddd4444"]).status == 0)

      let status = try workspace.snapdiff(["status", "--flaky"])
      #expect(status.status == 0)
      #expect(status.standardOutput.contains("No flaky snapshot in the newest 7 runs"), "\(status.standardOutput)")
    }
  }
}
