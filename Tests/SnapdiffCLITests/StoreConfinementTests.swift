import Foundation
import SnapdiffCore
import Testing

/// Nothing is written, renamed or removed outside the baseline store through a symbolic link
/// (issue #12, bug 1), through the real `snapdiff` process.
@Suite("store confinement")
struct StoreConfinementTests {
  /// Every file under `folder` with its bytes: what must not change.
  static func contents(of folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
      let path = folder + "/" + name
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        result[name] = try Data(contentsOf: URL(fileURLWithPath: path))
      } else {
        result[name + "/"] = Data()
      }
    }
    return result
  }

  /// `outside/` with a tree file in it, and `baselines/evil → ../outside`.
  static func plantEscape(in workspace: Workspace, link: String = "evil") throws -> String {
    let outside = workspace.root + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("{\"keep\": true}\n".utf8).write(to: URL(fileURLWithPath: outside + "/y.tree.json"))
    try FileManager.default.createDirectory(atPath: workspace.root + "/baselines", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: workspace.root + "/baselines/" + link, withDestinationPath: "../outside")
    return outside
  }

  @Test("check --record missing refuses a frame whose baseline folder is a link out of the store")
  func checkRecordThroughLink() throws {
    try withWorkspace { workspace in
      let outside = try Self.plantEscape(in: workspace)
      let before = try Self.contents(of: outside)
      try workspace.writeFrame("evil/y", Workspace.screen([]))
      let run = try workspace.snapdiff(["check", "frames", "--record", "missing"])
      #expect(run.status == 2)
      #expect(run.standardError.hasPrefix("snapdiff: error: "))
      #expect(run.standardError.contains("baselines/evil/y.png: leads outside the baseline store"))
      #expect(run.standardError.contains("baselines/evil is a symbolic link that leads outside it"))
      #expect(try Self.contents(of: outside) == before)
    }
  }

  @Test("approve --new refuses to write (and to delete a tree) through a link out of the store")
  func approveThroughLink() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("evil/y", Workspace.screen([]))
      let check = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(check.status == 1, "\(check.standardError)")
      // The link appears between the check and the approval.
      let outside = try Self.plantEscape(in: workspace)
      let before = try Self.contents(of: outside)
      let approve = try workspace.snapdiff(["approve", "--new"])
      #expect(approve.status == 2)
      #expect(approve.standardError.contains("leads outside the baseline store"))
      #expect(try Self.contents(of: outside) == before)
      #expect(try workspace.lastStatuses()["evil/y"] == "new")
    }
  }

  @Test("an environment folder that is a link out of the store is refused")
  func environmentLink() throws {
    try withWorkspace { workspace in
      let outside = try Self.plantEscape(in: workspace, link: "ios17")
      let before = try Self.contents(of: outside)
      try workspace.writeFrame("Home", Workspace.screen([]))
      let run = try workspace.snapdiff(["check", "frames", "--environment", "ios17", "--record", "missing"])
      #expect(run.status == 2)
      #expect(run.standardError.contains("baselines/ios17: is a symbolic link that leads outside the baseline store"))
      #expect(try Self.contents(of: outside) == before)
    }
  }

  @Test("a store root that is a link is the store; links inside it that stay inside are followed")
  func linkedRootAndInnerLinks() throws {
    try withWorkspace { workspace in
      let real = workspace.root + "/real-store"
      try FileManager.default.createDirectory(atPath: real + "/shared", withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: workspace.root + "/baselines", withDestinationPath: "real-store")
      try FileManager.default.createSymbolicLink(atPath: real + "/alias", withDestinationPath: "shared")
      try workspace.writeFrame("alias/Home", Workspace.screen([]))
      try workspace.writeFrame("Top", Workspace.screen([]))
      let run = try workspace.snapdiff(["check", "frames", "--record", "missing"])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(FileManager.default.fileExists(atPath: real + "/shared/Home.png"))
      #expect(FileManager.default.fileExists(atPath: real + "/Top.png"))
    }
  }
}
