import Foundation
import SnapdiffCore
import Testing

/// Branches on the command line (issue #14 item 5): `check` records the branch and its base
/// (flags, CI variables, git's HEAD) and never reads an overlay; `branch list` and `branch merge`
/// work on the overlays the service writes.
@Suite("branches")
struct BranchTests {
  let home = "Home - test_search/Home"

  func branches(_ workspace: Workspace) throws -> (String?, String?) {
    let run = try workspace.lastRun()
    return (run["branch"] as? String, run["baseBranch"] as? String)
  }

  @Test("check records the branch: flags over CI variables over git's HEAD")
  func checkRecordsBranch() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      #expect(try branches(workspace) == (nil, nil))

      // A worktree-style .git file pointing at a git folder whose HEAD names a branch.
      try FileManager.default.createDirectory(atPath: workspace.root + "/gitdir", withIntermediateDirectories: true)
      try "ref: refs/heads/topic/login\n".write(
        toFile: workspace.root + "/gitdir/HEAD", atomically: true, encoding: .utf8)
      try "gitdir: gitdir\n".write(toFile: workspace.root + "/.git", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      #expect(try branches(workspace) == ("topic/login", nil))

      let ci = ["GITHUB_HEAD_REF": "feature/x", "GITHUB_BASE_REF": "main"]
      #expect(try workspace.snapdiff(["check", "frames"], environment: ci).status == 0)
      #expect(try branches(workspace) == ("feature/x", "main"))
      let gitlab = ["CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "develop"]
      #expect(try workspace.snapdiff(["check", "frames"], environment: gitlab).status == 0)
      #expect(try branches(workspace) == ("mr", "develop"))
      let flags = try workspace.snapdiff(["check", "frames", "--branch", "b", "--base-branch", "a"], environment: ci)
      #expect(flags.status == 0)
      #expect(try branches(workspace) == ("b", "a"))
      #expect(try workspace.lastRun()["overlays"] == nil)

      // The approval log names the run's branch.
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 1, y: 1, width: 3, height: 3)]))
      #expect(try workspace.snapdiff(["check", "frames"], environment: ci).status == 1)
      #expect(try workspace.snapdiff(["approve", home]).status == 0)
      let history = try workspace.snapdiff(["history", home])
      #expect(history.standardOutput.contains("branch feature/x"), "\(history.standardOutput)")
    }
  }

  @Test("branch merge promotes an overlay into the store, logged; branch list names the overlays")
  func mergeOverlay() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let trunk = try FileIO.read(workspace.root + "/baselines/\(home).png")
      // What the service writes for an approval on feature/login.
      try workspace.writeFrame(
        home, Workspace.screen([PixelRect(x: 1, y: 1, width: 3, height: 3)]),
        folder: "baselines/.branches/feature%2Flogin")
      let branchBytes = try FileIO.read(workspace.root + "/baselines/.branches/feature%2Flogin/\(home).png")
      #expect(try workspace.snapdiff(["branch", "list"]).standardOutput == "feature/login  1 baseline\n")
      // check reads no overlay: the store's baseline still rules.
      #expect(
        try workspace.snapdiff(["check", "frames", "--branch", "feature/login", "--base-branch", "main"]).status == 0)

      let dry = try workspace.snapdiff(["branch", "merge", "feature/login", "--dry-run"])
      #expect(dry.standardOutput == "would merge branch feature/login: 1 baseline\n  \(home)\n")
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == trunk)
      let merge = try workspace.snapdiff(["branch", "merge", "feature/login"], environment: ["SNAPDIFF_USER": "carol"])
      #expect(merge.status == 0, "\(merge.standardError)")
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == branchBytes)
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/baselines/.branches/feature%2Flogin"))
      let history = try workspace.snapdiff(["history", home])
      #expect(history.standardOutput.contains("approve carol"))
      #expect(history.standardOutput.contains("branch feature/login"))
      // Undo reverts the merge: the trunk's baseline back, the branch's back in its overlay.
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == trunk)
      #expect(try FileIO.read(workspace.root + "/baselines/.branches/feature%2Flogin/\(home).png") == branchBytes)
      #expect(try workspace.snapdiff(["branch", "merge", "feature/login"]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == branchBytes)
      let again = try workspace.snapdiff(["branch", "merge", "feature/login"])
      #expect(again.status == 2 && again.standardError.contains("has no overlay"))
    }
  }

  @Test("--branch and --base-branch are held to the service's rule at once: exit 64 naming the size")
  func branchNameLimit() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Workspace.screen([]))
      // 180 bytes, but 300 percent-encoded: no overlay folder could hold it.
      let long = String(repeating: "ab/", count: 60)
      for arguments in [
        ["check", "frames", "--branch", long], ["check", "frames", "--branch", "x", "--base-branch", long],
        ["test", "--branch", long, "--", "true"],
      ] {
        let refused = try workspace.snapdiff(arguments)
        #expect(refused.status == 64, "\(arguments[0]): \(refused.standardError)")
        #expect(
          refused.standardError.contains("is too long: its overlay folder name")
            && refused.standardError.contains("would be 300 bytes, over the 255"),
          "\(refused.standardError)")
      }
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/.snapdiff/runs/last"))
      #expect(try workspace.snapdiff(["check", "frames", "--branch", "feature/login"]).status == 0)
    }
  }
}
