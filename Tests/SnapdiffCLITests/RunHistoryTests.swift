import Foundation
import SnapdiffCore
import Testing

/// Runs that keep what they compared (issue #14): images by hash in the blob store, reports that
/// show the baseline a run compared after an approval, history and undo, prune of blobs; through
/// the real `snapdiff` process.
@Suite("run history")
struct RunHistoryTests {
  let home = "Home - test_search/Home"
  let search = "Home - test_search/Search"

  /// A workspace with `home` recorded (run 1) and then changed (run 2, failed, 40 px).
  func failedRun(_ workspace: Workspace) throws -> (old: [UInt8], new: [UInt8]) {
    try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
    try workspace.writeFrame(search, Workspace.screen([PixelRect(x: 30, y: 10, width: 8, height: 20)]))
    #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    let old = try FileIO.read(workspace.root + "/baselines/\(home).png")
    try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))
    let check = try workspace.snapdiff(["check", "frames"])
    #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)")
    return (old, try FileIO.read(workspace.root + "/frames/\(home).png"))
  }

  func snapshot(_ key: String, in run: [String: Any]) -> [String: Any] {
    (run["snapshots"] as! [[String: Any]]).first { $0["key"] as? String == key }!
  }

  /// The `src` of every `<img>` in a page.
  /// Every image the report shows or links: `<img src>` (thumbnails) and the viewer's
  /// `<a href … data-image>` links, which it loads when opened.
  static func imageSources(_ html: String) -> [String] {
    let images = html.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    let links = html.components(separatedBy: "<a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
      .filter { $0.hasSuffix(".png") }
    return images + links
  }

  @Test("after an approval the run still shows the baseline it compared, with its counts")
  func approvalKeepsWhatTheRunSaw() throws {
    try withWorkspace { workspace in
      let (old, new) = try failedRun(workspace)
      let runFolder = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      let before = snapshot(home, in: try workspace.lastRun())
      #expect(before["baselineHash"] as? String == SHA256.hex(old))
      #expect(before["currentHash"] as? String == SHA256.hex(new))

      let approve = try workspace.snapdiff(["approve", home], environment: ["SNAPDIFF_USER": "alice"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == new)

      let after = snapshot(home, in: try workspace.lastRun())
      #expect(after["status"] as? String == "approved")
      #expect(after["baselineHash"] as? String == SHA256.hex(old))
      #expect(after["differentPixels"] as? Int == 40)
      // The report's baseline is the run's own copy of the old baseline, not the store's file.
      let html = String(decoding: try FileIO.read(runFolder + "/index.html"), as: UTF8.self)
      let sources = Self.imageSources(html)
      #expect(sources.contains("images/\(SHA256.hex(old)).png"))
      #expect(!sources.contains { $0.contains("baselines/") })
      #expect(try FileIO.read(runFolder + "/images/\(SHA256.hex(old)).png") == old)
      #expect(html.contains("40 of 2,400 pixels differ"))
    }
  }

  @Test("approve --undo restores the previous bytes; history lists both; the run can be rejected again")
  func undoAndHistory() throws {
    try withWorkspace { workspace in
      let (old, new) = try failedRun(workspace)
      #expect(try workspace.snapdiff(["approve", "--failed"], environment: ["SNAPDIFF_USER": "alice"]).status == 0)
      // Rejecting an approved snapshot has nothing to review.
      #expect(try workspace.snapdiff(["reject", home]).status == 2)

      let undo = try workspace.snapdiff(["approve", "--undo", home], environment: ["SNAPDIFF_USER": "bob"])
      #expect(undo.status == 0, "\(undo.standardOutput)\(undo.standardError)")
      #expect(undo.standardOutput.contains("undid the approval of \(home)"))
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == old)
      #expect(try workspace.lastStatuses()[home] == "failed")

      let history = try workspace.snapdiff(["history", home])
      #expect(history.status == 0, "\(history.standardError)")
      let lines = history.standardOutput.split(separator: "\n").map(String.init)
      let approveLine = try #require(lines.first { $0.contains(" approve ") })
      let undoLine = try #require(lines.first { $0.contains(" undo ") })
      #expect(
        approveLine.contains("alice")
          && approveLine.contains("\(SHA256.hex(old).prefix(12)) → \(SHA256.hex(new).prefix(12))"))
      #expect(approveLine.contains("(was failed)"))
      #expect(
        undoLine.contains("bob") && undoLine.contains("\(SHA256.hex(new).prefix(12)) → \(SHA256.hex(old).prefix(12))"))
      #expect(lines.contains("Now: \(SHA256.hex(old).prefix(12))"))
      let log = try String(contentsOfFile: workspace.root + "/.snapdiff/history/approvals.jsonl", encoding: .utf8)
      #expect(log.split(separator: "\n").count == 2)

      // Nothing left to undo: exit 2 with the reason, the baseline untouched.
      let again = try workspace.snapdiff(["approve", "--undo", home])
      #expect(again.status == 2)
      #expect(again.standardError.contains("has no approval to undo"))
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == old)

      // The snapshot is failed again: it can be rejected now.
      #expect(try workspace.snapdiff(["reject", home]).status == 0)
    }
  }

  @Test("undo of a new snapshot's approval deletes the baseline; undo refuses a baseline changed since")
  func undoNewAndChanged() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      #expect(try workspace.snapdiff(["check", "frames", "--record", "never"]).status == 1)
      #expect(!workspace.hasBaseline(home))
      #expect(try workspace.snapdiff(["approve", "--new"]).status == 0)
      #expect(workspace.hasBaseline(home))
      // Changed by hand since: the undo would throw that away, so it refuses.
      try workspace.writeFrame(home, Workspace.screen([]), folder: "baselines")
      let refused = try workspace.snapdiff(["approve", "--undo", home])
      #expect(refused.status == 2)
      #expect(refused.standardError.contains("is no longer the one approved"))
      #expect(workspace.hasBaseline(home))
      // Put back what the approval wrote: the undo deletes it, as it had created it.
      try FileManager.default.copyItem(
        atPath: workspace.root + "/frames/\(home).png", toPath: workspace.root + "/copy.png")
      try FileManager.default.removeItem(atPath: workspace.root + "/baselines/\(home).png")
      try FileManager.default.moveItem(
        atPath: workspace.root + "/copy.png", toPath: workspace.root + "/baselines/\(home).png")
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 0)
      #expect(!workspace.hasBaseline(home))
      #expect(try workspace.lastStatuses()[home] == "new")
    }
  }

  @Test("undo twice goes two approvals back, each run's snapshot reopened")
  func undoTwice() throws {
    try withWorkspace { workspace in
      let (old, first) = try failedRun(workspace)
      let runA = try workspace.lastRun()["id"] as! String
      #expect(try workspace.snapdiff(["approve", home]).status == 0)
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 30, y: 2, width: 4, height: 4)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let runB = try workspace.lastRun()["id"] as! String
      let second = try FileIO.read(workspace.root + "/frames/\(home).png")
      #expect(try workspace.snapdiff(["approve", home]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == second)

      func status(_ run: String) throws -> String? {
        let record = try RunRecord.decode(
          FileIO.read(workspace.root + "/.snapdiff/runs/\(run)/run.json"), path: "run.json")
        return record.snapshots.first { $0.key == home }?.status.rawValue
      }
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == first)
      #expect(try status(runB) == "failed" && status(runA) == "approved")
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == old)
      #expect(try status(runA) == "failed")
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 2)
    }
  }

  @Test("two runs with the same baseline store it once")
  func sameBaselineOnce() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      // The same pixels in other bytes: it passes, and a passing frame that is not its
      // baseline's bytes is not kept.
      let image = Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)])
      try FileIO.writeAtomically(PNGEncoder(speed: .fast).encode(image), to: workspace.root + "/frames/\(home).png")
      #expect(
        try FileIO.read(workspace.root + "/frames/\(home).png")
          != FileIO.read(workspace.root + "/baselines/\(home).png"))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let passed = snapshot(home, in: try workspace.lastRun())
      #expect(passed["status"] as? String == "passed" && passed["currentHash"] == nil && passed["baselineHash"] != nil)
      let hash = SHA256.hex(try FileIO.read(workspace.root + "/baselines/\(home).png"))
      let blobs = try FileSystem.files(under: workspace.root + "/.snapdiff/blobs/sha256")
      #expect(blobs == ["\(hash.prefix(2))/\(hash)"])
      // Each run's copy is the blob itself (a hard link): no bytes twice.
      var blob = stat()
      stat(workspace.root + "/.snapdiff/blobs/sha256/" + blobs[0], &blob)
      #expect(blob.st_nlink == 4)
      for run in try FileSystem.entries(of: workspace.root + "/.snapdiff/runs") where run != "last" {
        var copy = stat()
        stat(workspace.root + "/.snapdiff/runs/\(run)/images/\(hash).png", &copy)
        #expect(copy.st_ino == blob.st_ino)
      }
    }
  }

  @Test("prune removes the blobs nothing refers to, and nothing else")
  func pruneBlobs() throws {
    try withWorkspace { workspace in
      let (old, new) = try failedRun(workspace)
      let failedRunID = try workspace.lastRun()["id"] as! String
      let diffHash = snapshot(home, in: try workspace.lastRun())["diffHash"] as! String
      // Back to the old frame: a third run passes, and references only the baselines.
      try workspace.writeFrame(home, try PNGDecoder().decode(old, path: "old"))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let blobFolder = workspace.root + "/.snapdiff/blobs"
      let all = Set(try BlobStore(root: blobFolder).hashes())
      #expect(all.contains(SHA256.hex(new)) && all.contains(diffHash) && all.contains(SHA256.hex(old)))

      // Every blob is referenced while the runs are there.
      let dry = try workspace.snapdiff(["prune"])
      #expect(dry.standardOutput.contains("unreferenced 0 blobs"), "\(dry.standardOutput)")
      // Without --delete, nothing goes.
      let list = try workspace.snapdiff(["prune", "--keep-runs", "1"])
      #expect(list.standardOutput.contains("would remove 2 run folders"))
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/.snapdiff/runs/" + failedRunID))

      let baselinesBefore = try FileSystem.files(under: workspace.root + "/baselines")
      let pruned = try workspace.snapdiff(["prune", "--keep-runs", "1", "--delete"])
      #expect(pruned.status == 0, "\(pruned.standardError)")
      #expect(pruned.standardOutput.contains("deleted 2 blobs"), "\(pruned.standardOutput)")
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/.snapdiff/runs/" + failedRunID))
      let left = Set(try BlobStore(root: blobFolder).hashes())
      // The current frame and the diff of the removed run went; the baselines stay.
      #expect(left == all.subtracting([SHA256.hex(new), diffHash]))
      #expect(try FileSystem.files(under: workspace.root + "/baselines") == baselinesBefore)
      #expect(try workspace.snapdiff(["status"]).status == 0)
    }
  }

  @Test("an approval's blobs outlive the runs: prune keeps what the approval log names, and undo works after")
  func pruneKeepsHistory() throws {
    try withWorkspace { workspace in
      let (old, _) = try failedRun(workspace)
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      #expect(try workspace.snapdiff(["prune", "--keep-runs", "1", "--delete"]).status == 0)
      #expect(try workspace.snapdiff(["approve", "--undo", home]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(home).png") == old)
    }
  }

  @Test("after prune deletes an approved baseline, history offers no undo and says why; undo refuses the same way")
  func historyAfterPrune() throws {
    try withWorkspace { workspace in
      _ = try failedRun(workspace)
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      let offered = try workspace.snapdiff(["history", home])
      #expect(offered.standardOutput.contains("snapdiff approve --undo"), "\(offered.standardOutput)")
      // A complete run without the approved snapshot: prune deletes its baseline.
      try FileManager.default.removeItem(atPath: workspace.root + "/frames/\(home).png")
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let prune = try workspace.snapdiff(["prune", "--delete"])
      #expect(prune.status == 0 && prune.standardOutput.contains("deleted 1 baseline"), "\(prune.standardOutput)")
      #expect(!workspace.hasBaseline(home))

      let history = try workspace.snapdiff(["history", home])
      #expect(history.status == 0)
      #expect(!history.standardOutput.contains("snapdiff approve --undo"), "\(history.standardOutput)")
      #expect(
        history.standardOutput.contains("No undo offered: the baseline approved at ")
          && history.standardOutput.contains("is gone (deleted since, as prune --delete does)."),
        "\(history.standardOutput)")
      let undo = try workspace.snapdiff(["approve", "--undo", home])
      #expect(undo.status == 2)
      #expect(undo.standardError.contains("is gone (deleted since, as prune --delete does): nothing undone"))
    }
  }
}

/// `merge` of parts that come from other machines (CI artifacts): their images come from the
/// parts' `images/` into this blob store.
@Suite("merged runs keep what their parts compared")
struct MergedRunImagesTests {
  @Test("parts copied from elsewhere, with no blob store here: the merged run keeps every image")
  func mergeAdoptsImages() throws {
    try withWorkspace { workspace in
      let keys = ["A - test_a/A", "B - test_b/B"]
      for (index, key) in keys.enumerated() {
        try workspace.writeFrame(
          key, Workspace.screen([PixelRect(x: 2 + index, y: 2, width: 5, height: 5)]), folder: "baselines")
        try workspace.writeFrame(
          key, Workspace.screen([PixelRect(x: 9 + index, y: 9, width: 5, height: 5)]), folder: "part\(index)")
      }
      var artifacts: [String] = []
      for index in 0..<2 {
        #expect(try workspace.snapdiff(["check", "part\(index)", "--partial", "--record", "never"]).status == 1)
        let id = try workspace.lastRun()["id"] as! String
        let artifact = workspace.root + "/artifact\(index)"
        try FileManager.default.copyItem(atPath: workspace.root + "/.snapdiff/runs/" + id, toPath: artifact)
        artifacts.append(artifact)
      }
      // Another machine: nothing of this data folder.
      try FileManager.default.removeItem(atPath: workspace.root + "/.snapdiff")
      let merge = try workspace.snapdiff(["merge"] + artifacts)
      #expect(merge.status == 1, "\(merge.standardOutput)\(merge.standardError)")
      let run = try workspace.lastRun()
      let snapshots = run["snapshots"] as! [[String: Any]]
      let blobs = BlobStore(root: workspace.root + "/.snapdiff/blobs")
      let folder = workspace.root + "/.snapdiff/runs/" + (run["id"] as! String)
      for snapshot in snapshots {
        for field in ["baselineHash", "currentHash", "diffHash"] {
          let hash = try #require(snapshot[field] as? String, "\(field) of \(snapshot["key"]!)")
          #expect(try SHA256.hex(blobs.read(hash)) == hash)
          #expect(FileManager.default.fileExists(atPath: folder + "/images/\(hash).png"))
        }
      }
      // A damaged part is refused, naming the file.
      let images = artifacts[0] + "/images"
      let damaged = try #require(try FileManager.default.contentsOfDirectory(atPath: images).first)
      try FileManager.default.removeItem(atPath: workspace.root + "/.snapdiff")
      try FileIO.writeAtomically(Array("damaged".utf8), to: images + "/" + damaged)
      let refused = try workspace.snapdiff(["merge"] + artifacts)
      #expect(refused.status == 2)
      #expect(refused.standardError.contains("do not hash to its name"), "\(refused.standardError)")
    }
  }
}
