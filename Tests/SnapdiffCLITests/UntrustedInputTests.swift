import Foundation
import SnapdiffCore
import Testing

/// What comes from outside the data folder's own writes is checked before it is used (issue 29,
/// items 4 and 6–8): a merged part's paths, images and verdicts; the approval log's run ids and
/// torn lines; damaged blobs. Each through the real `snapdiff` process, with a folder `outside/`
/// that must not change.
@Suite("untrusted parts, logs and blobs")
struct UntrustedInputTests {
  let keyA = "A - test_a/A"
  let keyB = "B - test_b/B"

  /// Everything under `folder`: relative path → bytes (links as their target).
  static func listing(_ folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    guard let names = FileManager.default.enumerator(atPath: folder) else { return result }
    for case let name as String in names {
      let path = folder + "/" + name
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        result[name] = Data(("link:" + target).utf8)
      } else {
        result[name] = FileManager.default.contents(atPath: path) ?? Data()
      }
    }
    return result
  }

  /// Two parts of one run, copied out as CI artifacts: in each, one snapshot failed (its frame
  /// changed). Returns the artifact folders and the changed frames' bytes.
  func twoParts(_ workspace: Workspace) throws -> (parts: [String], frames: [[UInt8]]) {
    var parts: [String] = []
    var frames: [[UInt8]] = []
    for (index, key) in [keyA, keyB].enumerated() {
      try workspace.writeFrame(
        key, Workspace.screen([PixelRect(x: 2 + index, y: 2, width: 5, height: 5)]), folder: "baselines")
      try workspace.writeFrame(
        key, Workspace.screen([PixelRect(x: 9 + index, y: 9, width: 5, height: 5)]), folder: "part\(index)")
      frames.append(try FileIO.read(workspace.root + "/part\(index)/\(key).png"))
    }
    for index in 0..<2 {
      let check = try workspace.snapdiff(["check", "part\(index)", "--partial", "--record", "never"])
      #expect(check.status == 1, "\(check.standardError)")
      let id = try workspace.lastRun()["id"] as! String
      let artifact = workspace.root + "/artifact\(index)"
      try FileManager.default.copyItem(atPath: workspace.root + "/.snapdiff/runs/" + id, toPath: artifact)
      parts.append(artifact)
    }
    try FileManager.default.createDirectory(atPath: workspace.root + "/outside", withIntermediateDirectories: true)
    try PNGEncoder().write(
      Workspace.screen([PixelRect(x: 0, y: 0, width: 60, height: 40)]), to: workspace.root + "/outside/evil.png")
    return (parts, frames)
  }

  /// Changes a part's `run.json` as JSON.
  func tamper(_ part: String, _ change: (inout [String: Any], inout [[String: Any]]) -> Void) throws {
    let path = part + "/run.json"
    var run = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    var snapshots = run["snapshots"] as! [[String: Any]]
    change(&run, &snapshots)
    run["snapshots"] = snapshots
    try JSONSerialization.data(withJSONObject: run).write(to: URL(fileURLWithPath: path))
  }

  @Test(
    "a part's current path outside it, /dev/zero, or a frame swapped after its hash: approve promotes the hashed frame")
  func partPathsAndHashes() throws {
    try withWorkspace { workspace in
      let (parts, frames) = try twoParts(workspace)
      let outsideBefore = Self.listing(workspace.root + "/outside")
      try tamper(parts[0]) { _, snapshots in snapshots[0]["current"] = workspace.root + "/outside/evil.png" }
      try tamper(parts[1]) { _, snapshots in snapshots[0]["current"] = "/dev/zero" }
      // Part 0's copy of its frame replaced after the check: its hash still names the real one.
      try FileIO.writeAtomically(
        FileIO.read(workspace.root + "/outside/evil.png"), to: parts[0] + "/current/\(keyA).png")

      let merge = try workspace.snapdiff(["merge"] + parts)
      #expect(merge.status == 1, "\(merge.standardOutput)\(merge.standardError)")
      let merged = try workspace.lastRun()
      for snapshot in merged["snapshots"] as! [[String: Any]] {
        let key = snapshot["key"] as! String
        #expect(snapshot["current"] as? String == "current/\(key).png")
        #expect(snapshot["diff"] as? String == "diff/\(key).png")
      }
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyA).png") == frames[0])
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyB).png") == frames[1])
      #expect(Self.listing(workspace.root + "/outside") == outsideBefore)
    }
  }

  @Test("approve reads a run's current frame only inside the run, as a regular file, with the bytes its hash names")
  func approveChecksTheRecordedFrame() throws {
    try withWorkspace { workspace in
      _ = try twoParts(workspace)
      let baselineA = try FileIO.read(workspace.root + "/baselines/\(keyA).png")
      let run = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      // The last run holds keyB; its frame copy swapped for another valid PNG.
      try FileIO.writeAtomically(FileIO.read(workspace.root + "/outside/evil.png"), to: run + "/current/\(keyB).png")
      let swapped = try workspace.snapdiff(["approve", keyB])
      #expect(swapped.status == 2)
      #expect(swapped.standardError.contains("its bytes are not the frame run"), "\(swapped.standardError)")
      for (current, message) in [
        ("/dev/zero", "leads outside the run folder"),
        (workspace.root + "/outside/evil.png", "leads outside the run folder"),
        ("../../../outside/evil.png", "leads outside the run folder"),
      ] {
        try tamper(run) { _, snapshots in snapshots[0]["current"] = current }
        let approve = try workspace.snapdiff(["approve", keyB])
        #expect(approve.status == 2, "\(current)")
        #expect(approve.standardError.contains(message), "\(approve.standardError)")
      }
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyA).png") == baselineA)
      #expect(try workspace.lastStatuses()[keyB] == "failed")
    }
  }

  @Test("a part that turned failed into passed, garbage shards, or a part over its limits is refused; nothing merged")
  func tamperedPartsRefused() throws {
    try withWorkspace { workspace in
      let (parts, _) = try twoParts(workspace)
      let runs = workspace.root + "/.snapdiff/runs"
      let before = try FileManager.default.contentsOfDirectory(atPath: runs).sorted()
      func refused(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let merge = try workspace.snapdiff(["merge"] + parts)
        #expect(merge.status == 2, sourceLocation: sourceLocation)
        #expect(merge.standardError.contains(message), "\(merge.standardError)", sourceLocation: sourceLocation)
        #expect(
          try FileManager.default.contentsOfDirectory(atPath: runs).sorted() == before, sourceLocation: sourceLocation)
      }
      let original = try Data(contentsOf: URL(fileURLWithPath: parts[0] + "/run.json"))
      func restore() throws { try original.write(to: URL(fileURLWithPath: parts[0] + "/run.json")) }

      // failed → passed, the images left as they were (and with the diff image removed).
      try tamper(parts[0]) { _, snapshots in
        snapshots[0]["status"] = "passed"
        snapshots[0]["diffHash"] = nil
        snapshots[0]["diff"] = nil
      }
      try refused("is passed, but its frame (sha256")
      try restore()

      // Shards that are not shards.
      for part in parts { try tamper(part) { run, _ in run["shard"] = "x" } }
      try refused("'x' is not a shard")
      for part in parts { try tamper(part) { run, _ in run["shard"] = nil } }

      // 100 KB of error text in one snapshot; a run.json over 32 MiB.
      try tamper(parts[0]) { _, snapshots in snapshots[0]["regionNotes"] = [String(repeating: "n", count: 100_000)] }
      try refused("bytes of text, over the limit of 65536 for one snapshot")
      try restore()
      var padded = original
      padded.append(Data(repeating: 0x20, count: 33 << 20))
      try padded.write(to: URL(fileURLWithPath: parts[0] + "/run.json"))
      let started = Date()
      try refused("over the 33554432-byte limit")
      #expect(Date().timeIntervalSince(started) < 10)
      try restore()

      // run.json itself a link out of the part.
      try FileManager.default.removeItem(atPath: parts[0] + "/run.json")
      try original.write(to: URL(fileURLWithPath: workspace.root + "/outside/run.json"))
      try FileManager.default.createSymbolicLink(
        atPath: parts[0] + "/run.json", withDestinationPath: workspace.root + "/outside/run.json")
      try refused("leads outside the run folder")
    }
  }

  @Test("a log line naming run ../../outside/fakerun, or a run.json whose id is that path: undo writes nothing outside")
  func logRunIDsStayInside() throws {
    try withWorkspace { workspace in
      let (_, frames) = try twoParts(workspace)
      let fake = workspace.root + "/outside/fakerun"
      let id = try workspace.lastRun()["id"] as! String
      let run = workspace.root + "/.snapdiff/runs/" + id
      try FileManager.default.copyItem(atPath: run, toPath: fake)
      let outsideBefore = Self.listing(workspace.root + "/outside")

      // The run's own record claims the outside path as its id when it is approved.
      try tamper(run) { record, _ in record["id"] = "../../outside/fakerun" }
      #expect(try workspace.snapdiff(["approve", keyB]).status == 0)
      let log = workspace.root + "/.snapdiff/history/approvals.jsonl"
      #expect(String(decoding: try FileIO.read(log), as: UTF8.self).contains("\"run\":\"\(id)\""))
      let undo = try workspace.snapdiff(["approve", "--undo", keyB])
      #expect(undo.status == 0, "\(undo.standardError)")
      #expect(try workspace.lastStatuses()[keyB] == "failed")
      #expect(Self.listing(workspace.root + "/outside") == outsideBefore)

      // A log line that names the outside path: skipped with a warning, nothing written there.
      #expect(try workspace.snapdiff(["approve", keyB]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyB).png") == frames[1])
      let text = String(decoding: try FileIO.read(log), as: UTF8.self)
      try Data(text.replacingOccurrences(of: "\"run\":\"\(id)\"", with: "\"run\":\"../../outside/fakerun\"").utf8)
        .write(to: URL(fileURLWithPath: log))
      let forged = try workspace.snapdiff(["approve", "--undo", keyB])
      #expect(forged.status == 2)
      #expect(
        forged.standardError.contains(
          "approvals.jsonl:3: not a valid approval entry, skipped ('../../outside/fakerun' is not a run id)"),
        "\(forged.standardError)")
      #expect(Self.listing(workspace.root + "/outside") == outsideBefore)
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyB).png") == frames[1])
      // The id check itself refuses such ids wherever they come from.
      #expect(try workspace.snapdiff(["approve", "--failed", "--run", "../../outside/fakerun"]).status != 0)
      #expect(!RunFolder.isValidID("../x") && !RunFolder.isValidID(".hidden") && !RunFolder.isValidID("last"))
      #expect(RunFolder.isValidID(id))
    }
  }

  @Test("a torn last line in the approval log: history, undo, approve and prune go on, with a warning naming the line")
  func tornLogLine() throws {
    try withWorkspace { workspace in
      let (_, frames) = try twoParts(workspace)
      // Two approvals (one per key, from the last two runs), then the second line's tail cut off.
      let runs = try FileManager.default.contentsOfDirectory(atPath: workspace.root + "/.snapdiff/runs")
        .filter { $0 != "last" }.sorted()
      #expect(try workspace.snapdiff(["approve", keyA, "--run", runs[0]]).status == 0)
      #expect(try workspace.snapdiff(["approve", keyB, "--run", runs[1]]).status == 0)
      let log = workspace.root + "/.snapdiff/history/approvals.jsonl"
      let bytes = try FileIO.read(log)
      try Data(bytes.dropLast(40)).write(to: URL(fileURLWithPath: log))

      let history = try workspace.snapdiff(["history", keyA])
      #expect(history.status == 0, "\(history.standardError)")
      #expect(history.standardError.contains("approvals.jsonl:2: not a valid approval entry, skipped"))
      #expect(history.standardOutput.contains("approve"))

      let undo = try workspace.snapdiff(["approve", "--undo", keyA])
      #expect(undo.status == 0, "\(undo.standardError)")
      #expect(try workspace.baseline(keyA) == Workspace.screen([PixelRect(x: 2, y: 2, width: 5, height: 5)]))

      // The next approval starts a line of its own: its entry reads back.
      #expect(try workspace.snapdiff(["approve", keyA, "--run", runs[0]]).status == 0)
      #expect(try FileIO.read(workspace.root + "/baselines/\(keyA).png") == frames[0])
      let after = try workspace.snapdiff(["history", keyA, "--json"])
      #expect(after.status == 0)
      #expect(after.standardOutput.split(separator: "\n").count == 3, "\(after.standardOutput)")
      let undoAgain = try workspace.snapdiff(["approve", "--undo", keyA])
      #expect(undoAgain.status == 0, "\(undoAgain.standardError)")

      // prune needs a complete last run.
      #expect(try workspace.snapdiff(["check", "part1", "--record", "never"]).status != 2)
      let prune = try workspace.snapdiff(["prune", "--delete", "--keep-runs", "1"])
      #expect(prune.status == 0, "\(prune.standardError)")
      #expect(prune.standardOutput.contains("removed 2 run folders"), "\(prune.standardOutput)")
      #expect(prune.standardError.contains("approvals.jsonl:2: not a valid approval entry, skipped"))
    }
  }

  @Test(
    "a truncated blob, and one replaced by a link out: a new run links the right bytes, report --out copies nothing outside, prune repairs"
  )
  func damagedBlobs() throws {
    try withWorkspace { workspace in
      let (_, frames) = try twoParts(workspace)
      let baseline = try FileIO.read(workspace.root + "/baselines/\(keyA).png")
      let blobs = BlobStore(root: workspace.root + "/.snapdiff/blobs")
      let hash = SHA256.hex(baseline)
      let currentHash = SHA256.hex(frames[1])
      let secret = Array("secret outside the data folder".utf8)
      try Data(secret).write(to: URL(fileURLWithPath: workspace.root + "/outside/secret"))
      // The baseline's blob cut short in place; part 1's current frame's blob a link out.
      chmod(blobs.path(of: hash), 0o644)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: blobs.path(of: hash)))
      try handle.truncate(atOffset: 10)
      try handle.close()
      try FileManager.default.removeItem(atPath: blobs.path(of: currentHash))
      try FileManager.default.createSymbolicLink(
        atPath: blobs.path(of: currentHash), withDestinationPath: workspace.root + "/outside/secret")

      // An old run's links: report --out never copies what a link points to.
      let oldRun = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      try FileManager.default.removeItem(atPath: oldRun + "/images/\(currentHash).png")
      try FileManager.default.createSymbolicLink(
        atPath: oldRun + "/images/\(currentHash).png", withDestinationPath: workspace.root + "/outside/secret")
      let export = try workspace.snapdiff(["report", "--out", workspace.root + "/exported"])
      #expect(export.status == 2, "\(export.standardOutput)")
      #expect(export.standardError.contains("is damaged: not a regular file"), "\(export.standardError)")
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/exported/images/\(currentHash).png"))

      // A new run with the same baseline and frame: it links whole blobs, written again.
      let check = try workspace.snapdiff(["check", "part1", "--partial", "--record", "never"])
      #expect(check.status == 1, "\(check.standardError)")
      let newRun = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      #expect(try FileIO.read(newRun + "/images/\(currentHash).png") == frames[1])
      #expect(try blobs.read(currentHash) == frames[1])
      #expect(FileManager.default.fileExists(atPath: newRun + "/images/\(hash).png") == false)
      let checkA = try workspace.snapdiff(["check", "part0", "--partial", "--record", "never"])
      #expect(checkA.status == 1)
      let runA = workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String)
      #expect(try FileIO.read(runA + "/images/\(hash).png") == baseline)
      let exported = try workspace.snapdiff(["report", "--out", workspace.root + "/exported"])
      #expect(exported.status == 0, "\(exported.standardError)")
      for (name, bytes) in Self.listing(workspace.root + "/exported/images") {
        #expect(SHA256.hex(Array(bytes)) + ".png" == name)
      }

      // prune (after a complete run) notices a damaged blob and, with --delete, writes it again
      // from a good copy.
      #expect(try workspace.snapdiff(["check", "part0", "--record", "never"]).status == 1)
      chmod(blobs.path(of: hash), 0o644)
      try FileIO.writeAtomically(Array("damaged".utf8), to: blobs.path(of: hash))
      let listed = try workspace.snapdiff(["prune"])
      #expect(listed.status == 0)
      #expect(listed.standardError.contains("blob \(hash) is damaged"), "\(listed.standardError)")
      let repaired = try workspace.snapdiff(["prune", "--delete"])
      #expect(repaired.status == 0, "\(repaired.standardError)")
      #expect(repaired.standardOutput.contains("repaired damaged blob \(hash)"), "\(repaired.standardOutput)")
      #expect(try blobs.read(hash) == baseline)
      #expect(try FileIO.read(workspace.root + "/outside/secret") == secret)
    }
  }
}
