import Foundation
import SnapdiffCore
import Testing

/// `check --shard i/n` and `--partial` split a run across CI jobs; `merge` joins them.
@Suite("sharded runs merged")
struct ShardMergeTests {
  /// Twelve screens: baselines for all of them, then frames where two changed, one is gone and
  /// one is new.
  func prepare(_ workspace: Workspace) throws -> [String] {
    let keys = (1...12).map { "Flow \($0 % 3) - test_\($0)/Screen \($0)" }
    for (index, key) in keys.enumerated() {
      try workspace.writeFrame(key, Workspace.screen([PixelRect(x: index * 4, y: 10, width: 4, height: 4)]))
    }
    #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    // The same header change on two screens.
    for index in [2, 7] { try workspace.writeFrame(keys[index], changed(index)) }
    try workspace.removeFrame(keys[5])
    try workspace.writeFrame("Flow new - test_new/Screen", Workspace.screen([]))
    return keys
  }

  /// Screen `index` with a header bar added.
  func changed(_ index: Int) -> RGBAImage {
    Workspace.screen([PixelRect(x: index * 4, y: 10, width: 4, height: 4), PixelRect(x: 0, y: 0, width: 60, height: 3)])
  }

  /// The statuses and pixel counts of a run, by key.
  func verdicts(_ run: [String: Any]) -> [String: String] {
    let snapshots = run["snapshots"] as! [[String: Any]]
    return Dictionary(
      uniqueKeysWithValues: snapshots.map {
        ($0["key"] as! String, "\($0["status"]!) \($0["differentPixels"] ?? 0)")
      })
  }

  @Test("shards 1/3…3/3 merged equal an unsharded run, key for key; a missing screen is found over the union")
  func shardsMergedEqualOneRun() throws {
    try withWorkspace { workspace in
      let keys = try prepare(workspace)
      let whole = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(whole.status == 1)
      let expected = verdicts(try workspace.lastRun())
      #expect(expected[keys[5]]?.hasPrefix("missing") == true)

      var ids: [String] = []
      var seen: [String] = []
      for index in 1...3 {
        let part = try workspace.snapdiff(["check", "frames", "--shard", "\(index)/3", "--record", "never"])
        #expect(part.status == 0 || part.status == 1, "\(part.standardError)")
        let run = try workspace.lastRun()
        #expect(run["shard"] as? String == "\(index)/3")
        #expect(run["complete"] as? Bool == false)
        let partVerdicts = verdicts(run)
        #expect(!partVerdicts.values.contains { $0.hasPrefix("missing") })
        seen += partVerdicts.keys
        ids.append(run["id"] as! String)
      }
      // The parts are disjoint and together hold every frame.
      #expect(seen.count == Set(seen).count && seen.count == expected.count - 1)

      // One part from an artifact folder elsewhere, the others by id.
      let artifact = workspace.root + "/artifact-2"
      try FileManager.default.copyItem(atPath: workspace.root + "/.snapdiff/runs/" + ids[1], toPath: artifact)
      let merge = try workspace.snapdiff(["merge", ids[0], artifact, ids[2]])
      #expect(merge.status == 1, "\(merge.standardError)")
      #expect(merge.standardOutput.contains("MISSING  \(keys[5])"))
      let merged = try workspace.lastRun()
      #expect(verdicts(merged) == expected)
      #expect(merged["complete"] as? Bool == true)
      #expect(merged["mergedFrom"] as? [String] == ids)
      #expect(merge.standardOutput.contains("2 snapshots share one change"))

      // The merged run keeps what review needs: approve works from it, frames folder gone.
      try FileManager.default.removeItem(atPath: workspace.root + "/frames")
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try workspace.baseline(keys[2]) == changed(2))
      #expect(try workspace.baseline(keys[7]) == changed(7))
    }
  }

  @Test("--partial: two jobs' own frames merged; a baseline is missing only when no job had it")
  func partialRuns() throws {
    try withWorkspace { workspace in
      let keys = try prepare(workspace)
      // Job A ran the first half of the tests, job B the rest (the removed screen in neither).
      let files = try FileManager.default.subpathsOfDirectory(atPath: workspace.root + "/frames")
        .filter { $0.hasSuffix(".png") }.sorted()
      for (index, file) in files.enumerated() {
        let job = index < files.count / 2 ? "frames-a" : "frames-b"
        let target = workspace.root + "/" + job + "/" + file
        try FileManager.default.createDirectory(
          atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: workspace.root + "/frames/" + file, toPath: target)
      }
      var ids: [String] = []
      for job in ["frames-a", "frames-b"] {
        let part = try workspace.snapdiff(["check", job, "--partial"])
        #expect(part.standardOutput.contains("MISSING") == false)
        ids.append(try workspace.lastRun()["id"] as! String)
      }
      let merge = try workspace.snapdiff(["merge"] + ids + ["--fail-on-missing"])
      #expect(merge.status == 1)
      let statuses = try workspace.lastStatuses()
      #expect(statuses.filter { $0.value == "missing" }.map(\.key) == [keys[5]])
      #expect(statuses.count == 13)
    }
  }

  @Test("runs that do not make one run are refused, exit 2, naming why; nothing is merged")
  func refusals() throws {
    try withWorkspace { workspace in
      _ = try prepare(workspace)
      func lastID() throws -> String { try workspace.lastRun()["id"] as! String }
      let complete = try lastID()
      try workspace.snapdiff(["check", "frames", "--shard", "1/2"])
      let first = try lastID()
      try workspace.snapdiff(["check", "frames", "--shard", "2/3"])
      let otherSplit = try lastID()
      try workspace.snapdiff(["check", "frames", "--shard", "1/2"])
      let firstAgain = try lastID()
      let cases: [([String], String)] = [
        ([first], "shard 2/2 missing: merge needs every part"),
        ([first, firstAgain], "shard 1/2 is given twice"),
        ([first, otherSplit], "with the same n"),
        ([first, complete], "checked every frame on its own"),
        ([first, "no-such-run"], "no run 'no-such-run'"),
        ([first, workspace.root + "/frames"], "not a run folder (no run.json)"),
      ]
      let runsBefore = try FileManager.default.contentsOfDirectory(atPath: workspace.root + "/.snapdiff/runs").count
      for (runs, message) in cases {
        let merge = try workspace.snapdiff(["merge"] + runs)
        #expect(merge.status == 2, "\(runs)")
        #expect(merge.standardError.contains(message), "\(merge.standardError)")
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: workspace.root + "/.snapdiff/runs").count == runsBefore)
      let badShard = try workspace.snapdiff(["check", "frames", "--shard", "3/2"])
      #expect(badShard.status != 0 && badShard.standardError.contains("'3/2' is not a shard"))
    }
  }
}
