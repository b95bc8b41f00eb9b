import Foundation
import SnapdiffCore
import Testing

/// `check`, `status`, `approve`, `reject`, `prune` on real folders, as real processes.
@Suite("review loop")
struct ReviewLoopTests {
  let home = "Home - test_search/Home"
  let search = "Home - test_search/Home - search action"
  let profile = "Profile - test_profile/Profile"

  let header = PixelRect(x: 0, y: 0, width: 60, height: 4)

  @Test("check → failed → approve → check passes")
  func fullCycle() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      try workspace.writeFrame(search, Workspace.screen([PixelRect(x: 30, y: 10, width: 8, height: 20)]))

      // First run, locally: new snapshots become baselines; nothing fails.
      let first = try workspace.snapdiff(["check", "frames"])
      #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
      #expect(first.standardOutput.contains("2 new"))
      #expect(workspace.hasBaseline(home) && workspace.hasBaseline(search))

      // A change in CI: exit 1, the diff and the current frame kept in the run folder.
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))
      let second = try workspace.snapdiff(["check", "frames"], environment: ["CI": "true"])
      #expect(second.status == 1)
      #expect(second.standardOutput.contains("FAILED   \(home)"))
      #expect(try workspace.lastStatuses() == [home: "failed", search: "passed"])
      let run = try workspace.lastRun()
      let failed = (run["snapshots"] as! [[String: Any]]).first { $0["key"] as? String == home }!
      let runFolder = workspace.root + "/.snapdiff/runs/" + (run["id"] as! String)
      #expect(failed["diff"] as? String == "diff/\(home).png")
      #expect(failed["current"] as? String == "current/\(home).png")
      #expect(failed["baseline"] as? String == "../../../baselines/\(home).png")
      #expect(failed["differentPixels"] as? Int == 40)
      #expect(FileManager.default.fileExists(atPath: runFolder + "/diff/\(home).png"))
      #expect(FileManager.default.fileExists(atPath: runFolder + "/junit.xml"))
      #expect(FileManager.default.fileExists(atPath: runFolder + "/index.html"))

      let status = try workspace.snapdiff(["status"])
      #expect(status.status == 1)
      #expect(status.standardOutput.contains("FAILED   \(home)  40 px"))

      // Approve, without the frames folder: the run kept what it needs.
      try FileManager.default.moveItem(atPath: workspace.root + "/frames", toPath: workspace.root + "/frames-moved")
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(approve.standardOutput.contains("approved 1 snapshot"))
      #expect(try workspace.lastStatuses()[home] == "approved")
      try FileManager.default.moveItem(atPath: workspace.root + "/frames-moved", toPath: workspace.root + "/frames")

      let third = try workspace.snapdiff(["check", "frames"], environment: ["CI": "true"])
      #expect(third.status == 0, "\(third.standardOutput)")
      #expect(third.standardOutput.hasPrefix("Run ") && third.standardOutput.contains("2 passed"))
      #expect(try workspace.snapdiff(["status"]).status == 0)
    }
  }

  @Test("--same-as approves exactly the snapshots with the same change")
  func sameAs() throws {
    try withWorkspace { workspace in
      let screens: [(String, [PixelRect])] = [
        (home, [PixelRect(x: 5, y: 10, width: 10, height: 10)]),
        (search, [PixelRect(x: 30, y: 10, width: 8, height: 20)]),
        (profile, [PixelRect(x: 10, y: 20, width: 30, height: 5)]),
      ]
      for (key, rects) in screens { try workspace.writeFrame(key, Workspace.screen(rects)) }
      try workspace.snapdiff(["check", "frames"])
      // The same header change on home and search; a different one (taller header) on profile.
      try workspace.writeFrame(home, Workspace.screen(screens[0].1 + [header]))
      try workspace.writeFrame(search, Workspace.screen(screens[1].1 + [header]))
      try workspace.writeFrame(profile, Workspace.screen(screens[2].1 + [PixelRect(x: 0, y: 0, width: 60, height: 5)]))
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 1)
      // check and status name the group (home and search, not profile) and how to approve it.
      let pair = [home, search].sorted()
      for output in [check.standardOutput, try workspace.snapdiff(["status"]).standardOutput] {
        #expect(output.contains("2 snapshots share one change: \(pair[0]), \(pair[1])\n"), "\(output)")
        #expect(output.contains("  approve them together: snapdiff approve --same-as '\(pair[0])' --run "))
        #expect(output.components(separatedBy: "share one change").count == 2)
      }

      let dry = try workspace.snapdiff(["approve", "--same-as", home, "--dry-run"])
      #expect(dry.standardOutput.contains("would approve 2 snapshots"))
      #expect(try workspace.lastStatuses().values.filter { $0 == "failed" }.count == 3)

      let approve = try workspace.snapdiff(["approve", "--same-as", home])
      #expect(approve.status == 0)
      #expect(try workspace.lastStatuses() == [home: "approved", search: "approved", profile: "failed"])
      #expect(try workspace.baseline(home) == Workspace.screen(screens[0].1 + [header]))
      #expect(try workspace.baseline(profile) == Workspace.screen(screens[2].1))
    }
  }

  @Test("record modes and CI")
  func recordModes() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      // In CI a new snapshot fails and is not recorded.
      let ci = try workspace.snapdiff(["check", "frames"], environment: ["CI": "1"])
      #expect(ci.status == 1)
      #expect(ci.standardOutput.contains("no baseline (record mode never)"))
      #expect(!workspace.hasBaseline(home))
      // CI=false is not CI.
      #expect(try workspace.snapdiff(["check", "frames"], environment: ["CI": "false"]).status == 0)
      #expect(workspace.hasBaseline(home))

      // failed: re-records the failure, still reports it.
      try workspace.writeFrame(home, Workspace.screen([header]))
      let failed = try workspace.snapdiff(["check", "frames"], environment: ["SNAPDIFF_RECORD": "failed"])
      #expect(failed.status == 1)
      #expect(failed.standardOutput.contains("re-recorded"))
      #expect(try workspace.baseline(home) == Workspace.screen([header]))

      // never by flag, over the environment.
      try workspace.writeFrame(profile, Workspace.screen([]))
      let never = try workspace.snapdiff(
        ["check", "frames", "--record", "never"], environment: ["SNAPDIFF_RECORD": "all"])
      #expect(never.status == 1)
      #expect(!workspace.hasBaseline(profile))

      // all: everything recorded.
      try workspace.writeFrame(home, Workspace.screen([]))
      _ = try workspace.snapdiff(["check", "frames", "--record", "all"])
      #expect(workspace.hasBaseline(profile))
      #expect(try workspace.baseline(home) == Workspace.screen([]))

      let bad = try workspace.snapdiff(["check", "frames"], environment: ["SNAPDIFF_RECORD": "sometimes"])
      #expect(bad.status == 2)
      #expect(bad.standardError.contains("SNAPDIFF_RECORD=sometimes is not a record mode"))
    }
  }

  @Test("missing snapshots are reported, fail only with --fail-on-missing, and prune finds them")
  func missingAndPrune() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      try workspace.writeFrame(profile, Workspace.screen([header]))
      try workspace.snapdiff(["check", "frames"])
      try workspace.removeFrame(profile)
      let run = try workspace.snapdiff(["check", "frames"])
      #expect(run.status == 0)
      #expect(run.standardOutput.contains("MISSING  \(profile)"))
      #expect(try workspace.snapdiff(["check", "frames", "--fail-on-missing"]).status == 1)

      let prune = try workspace.snapdiff(["prune"])
      #expect(prune.standardOutput.contains("unused 1 baseline"))
      #expect(prune.standardOutput.contains("baselines/\(profile).png"))
      #expect(workspace.hasBaseline(profile))
      #expect(try workspace.snapdiff(["prune", "--delete"]).status == 0)
      #expect(!workspace.hasBaseline(profile) && workspace.hasBaseline(home))

      // A partial run cannot prune.
      try workspace.snapdiff(["check", "frames", "--only", "Home*"])
      let partial = try workspace.snapdiff(["prune"])
      #expect(partial.status == 2)
      #expect(partial.standardError.contains("prune needs a complete run"))
    }
  }

  @Test("approving a missing snapshot deletes its baseline")
  func approveMissing() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      try workspace.writeFrame(profile, Workspace.screen([]))
      try workspace.snapdiff(["check", "frames"])
      try workspace.removeFrame(profile)
      try workspace.snapdiff(["check", "frames"])
      #expect(try workspace.snapdiff(["approve", profile]).status == 0)
      #expect(!workspace.hasBaseline(profile))
      #expect(try workspace.lastStatuses()[profile] == "approved")
    }
  }

  @Test("a rejected change stays failed in the next run and says so")
  func reject() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      try workspace.snapdiff(["check", "frames"])
      try workspace.writeFrame(home, Workspace.screen([header]))
      try workspace.snapdiff(["check", "frames"])
      let reject = try workspace.snapdiff(["reject", home])
      #expect(reject.status == 0, "\(reject.standardError)")
      #expect(try workspace.lastStatuses()[home] == "rejected")
      let again = try workspace.snapdiff(["check", "frames"])
      #expect(again.status == 1)
      #expect(again.standardOutput.contains("rejected before"))
      // Approving it after all forgets the rejection.
      #expect(try workspace.snapdiff(["approve", home]).status == 0)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    }
  }

  @Test("keys that could escape the store, or collide, are refused with exit 2")
  func hostileKeys() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("ok/Home", Workspace.screen([]))
      try workspace.writeFrame("back\\slash", Workspace.screen([]))
      let backslash = try workspace.snapdiff(["check", "frames"])
      #expect(backslash.status == 2)
      #expect(backslash.standardError.contains("snapshot key 'back\\slash' contains a backslash"))
      try FileManager.default.removeItem(atPath: workspace.root + "/frames/back\\slash.png")

      try workspace.writeFrame("ok/home", Workspace.screen([]))
      let collision = try workspace.snapdiff(["check", "frames"])
      #expect(collision.status == 2)
      #expect(collision.standardError.contains("differs from 'ok/Home' only by letter case"))
      try FileManager.default.removeItem(atPath: workspace.root + "/frames/ok/home.png")

      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let escape = try workspace.snapdiff(["approve", "../../etc/passwd"])
      #expect(escape.status == 2)
      #expect(escape.standardError.contains("no snapshot in run"))
      let environment = try workspace.snapdiff(["check", "frames", "--environment", "../x"])
      #expect(environment.status == 2)
      #expect(environment.standardError.contains("snapshot key '../x' has a '..' component"))
    }
  }

  @Test("a corrupt frame fails its snapshot with the reason, exit 2, and is never recorded")
  func corruptFrame() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      let path = workspace.root + "/frames/\(profile).png"
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: path, contents: Data("not a png".utf8))
      let run = try workspace.snapdiff(["check", "frames"])
      #expect(run.status == 2)
      #expect(run.standardOutput.contains("error: \(path): not a PNG file"))
      #expect(!workspace.hasBaseline(profile))
      #expect(workspace.hasBaseline(home))
    }
  }

  @Test("environment folders are read first and fall back to the root")
  func environments() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      try workspace.snapdiff(["check", "frames"])
      // The iPhone environment has no baseline yet: it falls back to the root one.
      let fallback = try workspace.snapdiff(["check", "frames", "--environment", "iPhone15-iOS17@3x"])
      #expect(fallback.status == 0)
      // A change recorded for the environment only.
      try workspace.writeFrame(home, Workspace.screen([header]))
      try workspace.snapdiff(["check", "frames", "--environment", "iPhone15-iOS17@3x", "--record", "failed"])
      let envPath = workspace.root + "/baselines/iPhone15-iOS17@3x/\(home).png"
      #expect(try PNGDecoder().decode(contentsOf: envPath) == Workspace.screen([header]))
      #expect(try workspace.baseline(home) == Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames", "--environment", "iPhone15-iOS17@3x"]).status == 0)
      // The root run does not see the environment folder as missing snapshots.
      let root = try workspace.snapdiff(["check", "frames"])
      #expect(!root.standardOutput.contains("MISSING"))
    }
  }
}
