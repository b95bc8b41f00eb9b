import Foundation
import SnapdiffCore
import Testing

/// Known noise through the real `snapdiff` process: a difference approved as noise passes in
/// later runs on the same baseline, visibly; any other difference in the same snapshot still
/// fails; fingerprints are listed, go stale when the baseline changes, and are removed.
@Suite("known noise")
struct KnownNoiseTests {
  let home = "Home - test_search/Home"
  let content = PixelRect(x: 5, y: 10, width: 10, height: 10)
  /// A blinking cursor: the noise a reviewer lets through.
  let cursor = PixelRect(x: 40, y: 5, width: 2, height: 6)
  /// A real change elsewhere on the screen.
  let badge = PixelRect(x: 25, y: 30, width: 4, height: 4)

  func snapshot(_ workspace: Workspace) throws -> [String: Any] {
    (try workspace.lastRun()["snapshots"] as! [[String: Any]]).first { $0["key"] as? String == home }!
  }

  /// `home` recorded, then a run whose frame has the cursor (failed).
  func runWithCursor(_ workspace: Workspace) throws {
    try workspace.writeFrame(home, Workspace.screen([content]))
    #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    try workspace.writeFrame(home, Workspace.screen([content, cursor]))
    let failed = try workspace.snapdiff(["check", "frames"])
    #expect(failed.status == 1, "\(failed.standardOutput)\(failed.standardError)")
  }

  @Test("a difference approved as noise passes on the same baseline; another difference still fails")
  func noisePassesOtherChangesFail() throws {
    try withWorkspace { workspace in
      try runWithCursor(workspace)
      let baseline = try FileIO.read(workspace.root + "/baselines/\(home).png")
      let changeHash = try #require(try snapshot(workspace)["changeHash"] as? String)

      let approve = try workspace.snapdiff(["approve", home, "--as-noise"], environment: ["SNAPDIFF_USER": "ana"])
      #expect(approve.status == 0, "\(approve.standardOutput)\(approve.standardError)")
      #expect(approve.standardOutput.contains("as known noise (baselines kept)"))
      #expect(approve.standardOutput.contains("fingerprint \(changeHash.prefix(12)): 12 px in 1 area"))
      // The baseline stays; the run marks the snapshot approved, with its fingerprint.
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == baseline)
      let approved = try snapshot(workspace)
      #expect(approved["status"] as? String == "approved")
      #expect((approved["knownNoise"] as? [String: Any])?["approvedBy"] as? String == "ana")
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/\(home).noise.json"))

      // The same difference on the same baseline: passed, as known noise, and said so.
      let again = try workspace.snapdiff(["check", "frames"])
      #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
      #expect(again.standardOutput.contains("NOISE    \(home)  passed as known noise (approved by ana"))
      let passed = try snapshot(workspace)
      #expect(passed["status"] as? String == "passed")
      #expect((passed["knownNoise"] as? [String: Any])?["changeHash"] as? String == changeHash)
      #expect(passed["diff"] != nil)
      let runFolder = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      let html = String(decoding: try FileIO.read(runFolder + "/index.html"), as: UTF8.self)
      #expect(html.contains(">known noise</span>"))

      // A second, different change in the same snapshot fails, noise or not.
      try workspace.writeFrame(home, Workspace.screen([content, cursor, badge]))
      let other = try workspace.snapdiff(["check", "frames"])
      #expect(other.status == 1, "\(other.standardOutput)")
      #expect(try snapshot(workspace)["status"] as? String == "failed")
      #expect(try snapshot(workspace)["knownNoise"] == nil)
      // So does the change alone, without the cursor.
      try workspace.writeFrame(home, Workspace.screen([content, badge]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)

      // Listed, then removed by its id: the cursor fails again.
      let list = try workspace.snapdiff(["noise", "list"])
      #expect(list.status == 0)
      #expect(list.standardOutput.contains("\(home)  \(changeHash.prefix(12))  12 px in 1 area  approved by ana"))
      #expect(!list.standardOutput.contains("STALE"))
      let unknown = try workspace.snapdiff(["noise", "remove", home, "abcdef123456"])
      #expect(unknown.status == 2)
      #expect(unknown.standardError.contains("no fingerprint 'abcdef123456' of '\(home)'"))
      let remove = try workspace.snapdiff(["noise", "remove", home, String(changeHash.prefix(8))])
      #expect(remove.status == 0, "\(remove.standardOutput)\(remove.standardError)")
      #expect(remove.standardOutput.contains("1 fingerprint removed"))
      try workspace.writeFrame(home, Workspace.screen([content, cursor]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["noise", "list"]).standardOutput.contains("No known noise"))
    }
  }

  @Test("a new baseline leaves the fingerprint stale: it no longer applies, and --stale removes it")
  func newBaselineMakesNoiseStale() throws {
    try withWorkspace { workspace in
      try runWithCursor(workspace)
      #expect(try workspace.snapdiff(["approve", home, "--as-noise"]).status == 0)
      // A new look approved: the content moved.
      let moved = PixelRect(x: 5, y: 14, width: 10, height: 10)
      try workspace.writeFrame(home, Workspace.screen([moved]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      // The cursor on the new baseline is a difference of its own: it fails.
      try workspace.writeFrame(home, Workspace.screen([moved, cursor]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let list = try workspace.snapdiff(["noise", "list"])
      #expect(list.standardOutput.contains("STALE: the baseline changed since"), "\(list.standardOutput)")
      let remove = try workspace.snapdiff(["noise", "remove", "--stale"])
      #expect(remove.status == 0, "\(remove.standardError)")
      #expect(remove.standardOutput.contains("(stale)"))
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/baselines/\(home).noise.json"))
    }
  }

  @Test(
    "only a difference from a baseline can be noise: a new snapshot and --new are refused, and so is a removal of none")
  func refusals() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([content]))
      #expect(try workspace.snapdiff(["check", "frames", "--record", "never"]).status == 1)
      let new = try workspace.snapdiff(["approve", home, "--as-noise"])
      #expect(new.status == 2)
      #expect(new.standardError.contains("is new: only a difference from a baseline can be approved as noise"))
      #expect(try workspace.snapdiff(["approve", "--new", "--as-noise"]).status == 64)
      let unknown = try workspace.snapdiff(["noise", "remove", home, "abcdef123456"])
      #expect(unknown.status == 2)
      #expect(unknown.standardError.contains("'\(home)' has no known noise"))
    }
  }
}
