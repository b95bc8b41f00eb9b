import Foundation
import SnapdiffCore
import Testing

/// A rejected snapshot is approved only when named, or with `--include-rejected` (issue #12,
/// bug 7), through the real `snapdiff` process.
@Suite("approving rejected snapshots")
struct ApproveRejectedTests {
  let header = PixelRect(x: 0, y: 0, width: 60, height: 8)

  /// Three baselines, three changed frames, one change rejected.
  func prepare(_ workspace: Workspace) throws {
    for key in ["Home", "Profile", "Settings"] { try workspace.writeFrame(key, Workspace.screen([])) }
    try workspace.snapdiff(["check", "frames"])
    for key in ["Home", "Profile", "Settings"] { try workspace.writeFrame(key, Workspace.screen([header])) }
    #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
    #expect(try workspace.snapdiff(["reject", "Home"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/Home.rejected.json"))
  }

  @Test("approve --failed and --all leave a rejected snapshot and its rejection alone; the count says so")
  func groupSelectorsSkipRejected() throws {
    try withWorkspace { workspace in
      try prepare(workspace)
      let dryRun = try workspace.snapdiff(["approve", "--failed", "--dry-run"])
      #expect(dryRun.standardOutput.hasPrefix("would approve 2 snapshots of run "))
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(approve.standardOutput.hasPrefix("approved 2 snapshots of run "))
      #expect(!approve.standardOutput.contains("Home"))
      #expect(try workspace.lastStatuses() == ["Home": "rejected", "Profile": "approved", "Settings": "approved"])
      #expect(try workspace.baseline("Home") == Workspace.screen([]))
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/Home.rejected.json"))
      let all = try workspace.snapdiff(["approve", "--all"])
      #expect(all.standardOutput.hasPrefix("approved 0 snapshots"))
      let glob = try workspace.snapdiff(["approve", "H*"])
      #expect(glob.status == 2)
      #expect(glob.standardError.contains("'H*' matches only rejected snapshots"))
      #expect(glob.standardError.contains("--include-rejected"))
      #expect(try workspace.baseline("Home") == Workspace.screen([]))
    }
  }

  @Test("a rejected snapshot is approved when named, or with --include-rejected")
  func namedOrIncluded() throws {
    try withWorkspace { workspace in
      try prepare(workspace)
      let included = try workspace.snapdiff(["approve", "--failed", "--include-rejected"])
      #expect(included.standardOutput.hasPrefix("approved 3 snapshots of run "))
      #expect(try workspace.baseline("Home") == Workspace.screen([header]))
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/baselines/Home.rejected.json"))
    }
    try withWorkspace { workspace in
      try prepare(workspace)
      let named = try workspace.snapdiff(["approve", "Home"])
      #expect(named.status == 0, "\(named.standardError)")
      #expect(named.standardOutput.hasPrefix("approved 1 snapshot of run "))
      #expect(try workspace.baseline("Home") == Workspace.screen([header]))
      #expect(try workspace.lastStatuses()["Profile"] == "failed")
    }
  }
}
