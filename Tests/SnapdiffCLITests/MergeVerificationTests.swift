import Foundation
import SnapdiffCore
import Testing

/// A merge part's `passed` verdict is checked by its frame: a pass whose frame is the store's
/// baseline is merged as it is; one with no frame kept (a pass within the tolerances, or a
/// failure a changed part calls passed) is merged marked `unverified` with a warning, or refused
/// with `--verified-only`. Through the real `snapdiff` process.
@Suite("merge checks passed verdicts by their frames")
struct MergeVerificationTests {
  let identical = "A - test_a/Same"
  let tolerant = "B - test_b/Noise"
  let changed = "C - test_c/Changed"

  /// One partial run, copied out as a CI artifact: `identical` passes byte for byte, `tolerant`
  /// passes within the tolerances, `changed` failed and is then changed to `passed` in the copy.
  func tamperedPart(_ workspace: Workspace) throws -> String {
    for key in [identical, tolerant, changed] {
      try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 2, y: 2, width: 5, height: 5)]), folder: "baselines")
    }
    try FileManager.default.createDirectory(
      atPath: workspace.root + "/frames/A - test_a", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: workspace.root + "/baselines/\(identical).png", toPath: workspace.root + "/frames/\(identical).png")
    var noise = Workspace.screen([PixelRect(x: 2, y: 2, width: 5, height: 5)])
    noise[x: 40, y: 30] = RGBAColor(red: 254, green: 255, blue: 255)
    try workspace.writeFrame(tolerant, noise)
    try workspace.writeFrame(changed, Workspace.screen([PixelRect(x: 20, y: 20, width: 9, height: 9)]))
    let check = try workspace.snapdiff(["check", "frames", "--partial", "--record", "never"])
    #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)")
    #expect(try workspace.lastStatuses() == [identical: "passed", tolerant: "passed", changed: "failed"])
    let part = workspace.root + "/artifact"
    try FileManager.default.copyItem(
      atPath: workspace.root + "/.snapdiff/runs/" + (try workspace.lastRun()["id"] as! String), toPath: part)
    try UntrustedInputTests().tamper(part) { _, snapshots in
      for index in snapshots.indices where snapshots[index]["key"] as? String == changed {
        snapshots[index]["status"] = "passed"
        for field in ["current", "currentHash", "diff", "diffHash", "changeHash", "difference"] {
          snapshots[index][field] = nil
        }
        snapshots[index]["differentPixels"] = 0
        snapshots[index]["differentRatio"] = 0
        snapshots[index]["regions"] = [Any]()
      }
    }
    return part
  }

  @Test("a pass without its frame is merged marked unverified, with a warning")
  func unverifiedMarked() throws {
    try withWorkspace { workspace in
      let part = try tamperedPart(workspace)
      let merge = try workspace.snapdiff(["merge", part])
      #expect(merge.status == 0, "\(merge.standardOutput)\(merge.standardError)")
      #expect(
        merge.standardError.contains(
          "2 passed snapshots (first '\(tolerant)') kept no frame that is the store's baseline"),
        "\(merge.standardError)")
      let snapshots = try workspace.lastRun()["snapshots"] as! [[String: Any]]
      let marks = Dictionary(
        uniqueKeysWithValues: snapshots.map { ($0["key"] as! String, $0["unverified"] as? Bool ?? false) })
      #expect(marks == [identical: false, tolerant: true, changed: true])
    }
  }

  @Test("--verified-only refuses the merge, and no run is made")
  func verifiedOnlyRefuses() throws {
    try withWorkspace { workspace in
      let part = try tamperedPart(workspace)
      let before = try workspace.lastRun()["id"] as! String
      let merge = try workspace.snapdiff(["merge", part, "--verified-only"])
      #expect(merge.status == 2, "\(merge.standardOutput)\(merge.standardError)")
      #expect(
        merge.standardError.contains("2 passed snapshots of the parts (first '\(tolerant)') kept no frame"),
        "\(merge.standardError)")
      #expect(try workspace.lastRun()["id"] as! String == before)
      let runs = try FileManager.default.contentsOfDirectory(atPath: workspace.root + "/.snapdiff/runs")
      #expect(runs.filter { $0 != "last" && !$0.hasPrefix(".") }.count == 1, "\(runs)")
    }
  }
}
