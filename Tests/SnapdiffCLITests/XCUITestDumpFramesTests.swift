import Foundation
import SnapdiffCore
import Testing

/// Frames folders from any runner (issue #13, item 5): an XCUITest dump (`<key>.txt`, what
/// `XCUIApplication().debugDescription` prints) beside a PNG is its tree, a dump alone is a frame,
/// and a folder with files but no snapshot fails instead of passing with 0 snapshots.
@Suite("XCUITest dumps in frames folders")
struct XCUITestDumpFramesTests {
  /// A dump of the 60×40 screen: a clock at (2, 2, 20×8) points.
  static let dump = """
    Attributes: Application, 0x1, pid: 7, label: 'Example'
    Element subtree:
     →Application, 0x1, pid: 7, label: 'Example'
        Window (Main), 0x2, {{0.0, 0.0}, {60.0, 40.0}}
          StaticText, 0x3, {{2.0, 2.0}, {20.0, 8.0}}, identifier: 'clock', label: '9:41'

    """

  @Test("a dump beside the PNG is its tree: the clock it names is masked; without it the change fails")
  func dumpBesidePNG() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Workspace.screen([]), folder: "baselines")
      try workspace.writeFrame("Home", Workspace.screen([PixelRect(x: 4, y: 3, width: 10, height: 4)]))
      try #"{"ignoreElements": ["clock"]}"#.write(
        toFile: workspace.root + "/frames/Home.snapdiff.json", atomically: true, encoding: .utf8)

      // Element masks need a tree: without the dump the snapshot cannot be compared.
      let withoutDump = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(withoutDump.status == 2, "\(withoutDump.standardOutput)")
      #expect(
        withoutDump.standardOutput.contains("or an XCUITest dump NAME.txt, beside NAME.png"),
        "\(withoutDump.standardOutput)")

      try Self.dump.write(toFile: workspace.root + "/frames/Home.txt", atomically: true, encoding: .utf8)
      let withDump = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(withDump.status == 0, "\(withDump.standardOutput)\(withDump.standardError)")
      #expect(withDump.standardOutput.hasPrefix("Run "), "\(withDump.standardOutput)")
      #expect(withDump.standardOutput.contains("1 passed"), "\(withDump.standardOutput)")
    }
  }

  @Test("a dump alone is a frame, rendered; a dump whose screen does not fit the PNG is an error naming both")
  func dumpAlone() throws {
    try withWorkspace { workspace in
      try FileManager.default.createDirectory(atPath: workspace.root + "/frames", withIntermediateDirectories: true)
      try Self.dump.write(toFile: workspace.root + "/frames/Settings.txt", atomically: true, encoding: .utf8)
      let run = try workspace.snapdiff(["check", "frames", "--record", "missing"])
      #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
      #expect(run.standardOutput.contains("1 new"), "\(run.standardOutput)")
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/Settings.png"))

      // 60 points wide against a 45-pixel screenshot: no whole scale.
      try workspace.writeFrame(
        "Odd", RGBAImage(width: 45, height: 30, filledWith: RGBAColor(red: 1, green: 2, blue: 3)))
      try Self.dump.write(toFile: workspace.root + "/frames/Odd.txt", atomically: true, encoding: .utf8)
      let odd = try workspace.snapdiff(["check", "frames", "--record", "missing"])
      #expect(odd.status == 2, "\(odd.standardOutput)")
      #expect(
        odd.standardOutput.contains(
          "frames/Odd.txt: the dump's screen is 60 points wide but \(workspace.root)/frames/Odd.png is 45 pixels: not 1, 2 or 3 pixels a point"
        ),
        "\(odd.standardOutput)")
    }
  }

  @Test("a folder with files but no snapshot is an error, not a pass of 0 snapshots")
  func noSnapshots() throws {
    try withWorkspace { workspace in
      try FileManager.default.createDirectory(atPath: workspace.root + "/frames", withIntermediateDirectories: true)
      try "notes".write(toFile: workspace.root + "/frames/README.md", atomically: true, encoding: .utf8)
      let run = try workspace.snapdiff(["check", "frames"])
      #expect(run.status == 2)
      #expect(
        run.standardError
          == "snapdiff: error: \(workspace.root)/frames: holds 1 file but no snapshot: a frame is <key>.png (with <key>.tree.json or an XCUITest dump <key>.txt beside it), or <key>.tree.json or <key>.txt alone\n"
      )
      #expect(!run.standardOutput.contains("0 snapshots"))
    }
  }
}
