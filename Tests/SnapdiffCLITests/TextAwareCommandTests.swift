import Foundation
import SnapdiffCore
import Testing

/// `--match text-aware` from the command line and from `snapdiff.json`, run as a real process.
@Suite("snapdiff --match text-aware")
struct TextAwareCommandTests {
  /// A white 40×30 screen with a 12×5 block of "ink" inside the text element's box.
  static let screen: RGBAImage = {
    var image = RGBAImage(width: 40, height: 30, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for y in 12..<17 { for x in 10..<22 { image[x: x, y: y] = RGBAColor(red: 0x1c, green: 0x1c, blue: 0x1e) } }
    return image
  }()

  /// The screen's tree at scale 1, its one static text reading `label`.
  static func tree(label: String) -> String {
    #"{"scale": 1, "screen": {"width": 40, "height": 30}, "root": {"elementType": "application", "frame": {"x": 0, "y": 0, "width": 40, "height": 30}, "children": [{"elementType": "staticText", "label": "\#(label)", "frame": {"x": 8, "y": 10, "width": 16, "height": 9}}]}}"#
  }

  @Test(
    "compare: the same pixels under a changed label pass perceptual and fail text-aware, worded in the verdict and JSON"
  )
  func changedLabel() throws {
    try withTemporaryDirectory { folder in
      for (name, label) in [("before", "Total $12"), ("after", "Total $13")] {
        try PNGEncoder().write(Self.screen, to: folder + "/\(name).png")
        try Self.tree(label: label).write(toFile: folder + "/\(name).tree.json", atomically: true, encoding: .utf8)
      }
      let (before, after) = (folder + "/before.png", folder + "/after.png")
      #expect(try SnapdiffProcess.run(["compare", before, after, "--match", "perceptual"]).status == 0)
      let text = try SnapdiffProcess.run(["compare", before, after, "--match", "text-aware"])
      #expect(text.status == 1)
      // The first line says at once why identical pixels fail.
      #expect(
        text.standardOutput.hasPrefix("FAIL  identical pixels (40×30), but the text changed\n"),
        "\(text.standardOutput)")
      #expect(
        text.standardOutput.contains(#"text: staticText "Total $12": label 'Total $12' → 'Total $13'"#),
        "\(text.standardOutput)")
      let json = try SnapdiffProcess.run(["compare", before, after, "--match", "text-aware", "--json"]).json()
      #expect(json["matchLevel"] as? String == "text-aware")
      let changes = try #require(json["text"] as? [[String: Any]])
      #expect(changes.map { $0["change"] as? String } == ["text"])
    }
  }

  @Test("check: snapdiff.json's matchLevel text-aware fails a changed label, and run.json words it")
  func projectLevel() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Self.screen)
      let tree = workspace.root + "/frames/Home.tree.json"
      try Self.tree(label: "Total $12").write(toFile: tree, atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // recorded, with its tree
      try Self.tree(label: "Total $13").write(toFile: tree, atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // strict: the pixels are equal
      try #"{"matchLevel": "text-aware"}"#.write(
        toFile: workspace.root + "/snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(snapshot["matchLevel"] as? String == "text-aware")
      #expect(snapshot["text"] as? [String] == [#"staticText "Total $12": label 'Total $12' → 'Total $13'"#])
    }
  }
}
