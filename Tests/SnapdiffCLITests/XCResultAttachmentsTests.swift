import Foundation
import SnapdiffCore
import Testing

/// `snapdiff check` on the attachments exported from an Xcode result bundle
/// (`xcrun xcresulttool export attachments`): the frames the test API attached (a device's) are
/// found by their names among the others and checked as a frames folder.
@Suite("check: frames from a result bundle's exported attachments")
struct XCResultAttachmentsTests {
  static let uuids = [
    "6F9A1C2E-0B7D-4E55-9D3A-1F2B3C4D5E6F", "0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D",
    "11111111-2222-3333-4444-555555555555",
  ]

  /// An export as xcresulttool writes it: each attachment under a file name of Xcode's, and a
  /// manifest naming it (`<attachment name>_<index>_<UUID>.<extension>`).
  private func writeExport(_ workspace: Workspace, frame: RGBAImage, masks: String?) throws {
    let export = workspace.root + "/export"
    try workspace.writeFrame("frame", frame, folder: "export")
    try FileManager.default.moveItem(atPath: export + "/frame.png", toPath: export + "/\(Self.uuids[0]).png")
    try workspace.writeFrame("other", Workspace.screen([]), folder: "export")
    try FileManager.default.moveItem(atPath: export + "/other.png", toPath: export + "/\(Self.uuids[1]).png")
    var attachments = [
      #"{"exportedFileName": "\#(Self.uuids[1]).png", "suggestedHumanReadableName": "Screenshot_0_\#(Self.uuids[1]).png", "isAssociatedWithFailure": false}"#,
      #"{"exportedFileName": "\#(Self.uuids[0]).png", "suggestedHumanReadableName": "snapdiff-frame-Home%20-%20test_home%2FHome_0_\#(Self.uuids[0]).png", "isAssociatedWithFailure": false}"#,
    ]
    if let masks {
      try masks.write(toFile: export + "/\(Self.uuids[2]).json", atomically: true, encoding: .utf8)
      attachments.append(
        #"{"exportedFileName": "\#(Self.uuids[2]).json", "suggestedHumanReadableName": "snapdiff-masks-Home%20-%20test_home%2FHome_1_\#(Self.uuids[2]).json"}"#
      )
    }
    let manifest =
      #"[{"testIdentifier": "HomeTests/test_home()", "attachments": ["#
      + attachments.joined(separator: ", ") + "]}]"
    try manifest.write(toFile: export + "/manifest.json", atomically: true, encoding: .utf8)
  }

  @Test("the attached frame and masks are checked against the baseline; other attachments are left alone")
  func checksAttachedFrames() throws {
    try withWorkspace { workspace in
      let key = "Home - test_home/Home"
      try workspace.writeFrame(key, Workspace.screen([]), folder: "baselines")
      let changed = Workspace.screen([PixelRect(x: 4, y: 3, width: 10, height: 4)])

      // Masked by the attached masks: passes.
      try writeExport(
        workspace, frame: changed, masks: #"{"ignoreRegions": [{"x": 0, "y": 0, "width": 20, "height": 10}]}"#)
      let masked = try workspace.snapdiff(["check", "export", "--record", "never"])
      #expect(masked.status == 0, "\(masked.standardOutput)\(masked.standardError)")
      #expect(
        masked.standardError.contains(
          "snapdiff: 1 snapshots from the result bundle's attachments, in export/snapdiff-frames"))
      #expect(try workspace.lastStatuses() == [key: "passed"])
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/export/snapdiff-frames/\(key).snapdiff.json"))

      // Without masks, the change fails; the masks of the earlier read are gone.
      try FileManager.default.removeItem(atPath: workspace.root + "/export")
      try writeExport(workspace, frame: changed, masks: nil)
      let failed = try workspace.snapdiff(["check", "export", "--record", "never"])
      #expect(failed.status == 1, "\(failed.standardOutput)\(failed.standardError)")
      #expect(try workspace.lastStatuses() == [key: "failed"])
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/export/snapdiff-frames/\(key).snapdiff.json"))
    }
  }

  @Test("an export without snapdiff frames is an error that says so")
  func noFrames() throws {
    try withWorkspace { workspace in
      try FileManager.default.createDirectory(atPath: workspace.root + "/export", withIntermediateDirectories: true)
      try
        #"[{"testIdentifier": "T/t()", "attachments": [{"exportedFileName": "a.png", "suggestedHumanReadableName": "Screenshot_0_\#(Self.uuids[0]).png"}]}]"#
        .write(toFile: workspace.root + "/export/manifest.json", atomically: true, encoding: .utf8)
      let run = try workspace.snapdiff(["check", "export"])
      #expect(run.status == 2)
      #expect(run.standardError.contains("none is a snapdiff frame"), "\(run.standardError)")
    }
  }
}
