import Foundation
import SnapdiffCore
import Testing

/// A run's `run.json` never chooses the store that approve, reject and prune change: they act on
/// the store the command names (`--baselines`, the config), and refuse a run that says it
/// compared against another one. Through the real `snapdiff` process, with a hand-edited run.
@Suite("the store a review changes is the command's, not the run's")
struct RecordedStoreTests {
  let key = "Home - test_home/Home"

  /// A failed run against `baselines/`, and a second store `other/` holding its own baseline of
  /// the key; then the run's `run.json` changed by `tamper`.
  func tamperedRun(_ workspace: Workspace, _ tamper: (inout [String: Any]) -> Void) throws -> String {
    try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 2, y: 2, width: 5, height: 5)]), folder: "baselines")
    try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 3, y: 3, width: 5, height: 5)]), folder: "other")
    try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 9, y: 9, width: 5, height: 5)]))
    let check = try workspace.snapdiff(["check", "frames", "--record", "never"])
    #expect(check.status == 1, "\(check.standardError)")
    let path = workspace.root + "/.snapdiff/runs/last/run.json"
    var run = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    tamper(&run)
    try JSONSerialization.data(withJSONObject: run).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("a run.json pointed at another store: approve, reject and prune refuse it and change neither store")
  func tamperedStoreRefused() throws {
    try withWorkspace { workspace in
      _ = try tamperedRun(workspace) { $0["baselinesDirectory"] = "../../../other" }
      let stores = (
        UntrustedInputTests.listing(workspace.root + "/baselines"),
        UntrustedInputTests.listing(workspace.root + "/other")
      )
      for arguments in [["approve", "--failed"], ["approve", key], ["reject", key], ["prune", "--delete"]] {
        let result = try workspace.snapdiff(arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardOutput)\(result.standardError)")
        #expect(
          result.standardError.contains("compared against the baseline store \(workspace.root)/other")
            && result.standardError.contains("--baselines \(workspace.root)/other"),
          "\(result.standardError)")
        #expect(UntrustedInputTests.listing(workspace.root + "/baselines") == stores.0, "\(arguments)")
        #expect(UntrustedInputTests.listing(workspace.root + "/other") == stores.1, "\(arguments)")
      }
      #expect(try workspace.lastStatuses()[key] == "failed")

      // Named by the command, the run's store is the one approved into.
      let frame = try FileIO.read(workspace.root + "/frames/\(key).png")
      let approve = try workspace.snapdiff(["approve", "--failed", "--baselines", "other"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try FileIO.read(workspace.root + "/other/\(key).png") == frame)
      #expect(UntrustedInputTests.listing(workspace.root + "/baselines") == stores.0)
    }
  }

  @Test("an overlay or environment in run.json that leaves the store is refused")
  func tamperedOverlayRefused() throws {
    try withWorkspace { workspace in
      _ = try tamperedRun(workspace) { $0["overlays"] = ["../../other"] }
      let other = UntrustedInputTests.listing(workspace.root + "/other")
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(
        approve.status == 2 && approve.standardError.contains("is not a branch folder"), "\(approve.standardError)")
      _ = try tamperedRun(workspace) { $0["environment"] = "../other" }
      let environment = try workspace.snapdiff(["approve", "--failed"])
      #expect(environment.status != 0 && environment.status != 1, "\(environment.standardError)")
      #expect(UntrustedInputTests.listing(workspace.root + "/other") == other)
    }
  }

  @Test("a store reached through a link is the same store")
  func linkedStoreAccepted() throws {
    try withWorkspace { workspace in
      _ = try tamperedRun(workspace) { _ in }
      try FileManager.default.createSymbolicLink(atPath: workspace.root + "/linked", withDestinationPath: "baselines")
      let approve = try workspace.snapdiff(["approve", "--failed", "--baselines", "linked"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(
        try FileIO.read(workspace.root + "/baselines/\(key).png") == FileIO.read(workspace.root + "/frames/\(key).png"))
    }
  }
}
