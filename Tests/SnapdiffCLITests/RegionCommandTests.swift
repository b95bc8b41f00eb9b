import Foundation
import SnapdiffCore
import Testing

/// Regions of every kind (`--floating`, `--strict-region`, `--content-region`,
/// `--layout-region`) through `snapdiff compare` and `snapdiff check`, run as a real process on
/// PNG pairs made here.
@Suite("snapdiff compare and check with regions")
struct RegionCommandTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let blue = RGBAColor(red: 0, green: 122, blue: 255)
  /// Pure red and a red that strict (YIQ, threshold 0.1) tells apart but perceptual does not:
  /// YIQ delta 1.29 × strict's largest equal delta, ΔE00 1.46 (under the default 2.0).
  static let red = RGBAColor(red: 255, green: 0, blue: 0)
  static let nearRed = RGBAColor(red: 249, green: 40, blue: 16)
  /// Brightness of `red`'s (YIQ Y 76.2 and 76.3): a colour change ignore-colors does not count.
  static let sameBrightnessGreen = RGBAColor(red: 0, green: 130, blue: 0)

  /// A 60×40 white screen with a 10×6 button at `(x, 17)` and, when given, a 4×4 mark at (2, 2).
  static func screen(buttonX: Int = 20, button: RGBAColor = blue, mark: RGBAColor? = nil) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 40, filledWith: white)
    for y in 17..<23 { for x in buttonX..<buttonX + 10 { image[x: x, y: y] = button } }
    if let mark { for y in 2..<6 { for x in 2..<6 { image[x: x, y: y] = mark } } }
    return image
  }

  static func write(_ image: RGBAImage, _ path: String) throws { try PNGEncoder().write(image, to: path) }

  @Test("a button moved 3 px inside a floating region of 5 passes; moved 10 px fails; a change outside still fails")
  func floating() throws {
    try withTemporaryDirectory { folder in
      let before = folder + "/before.png"
      try Self.write(Self.screen(), before)
      try Self.write(Self.screen(buttonX: 23), folder + "/moved3.png")
      try Self.write(Self.screen(buttonX: 30), folder + "/moved10.png")
      try Self.write(Self.screen(buttonX: 23, mark: RGBAColor(red: 0, green: 0, blue: 0)), folder + "/moved3-mark.png")
      let region = "20,17,10,6:5"

      #expect(try SnapdiffProcess.run(["compare", before, folder + "/moved3.png"]).status == 1)
      let moved3 = try SnapdiffProcess.run(["compare", before, folder + "/moved3.png", "--floating", region, "--json"])
      #expect(moved3.status == 0, "\(moved3.standardOutput)\(moved3.standardError)")
      let floating = try #require((try moved3.json()["floating"] as? [[String: Any]])?.first)
      #expect((floating["found"] as? [String: Any])?["dx"] as? Int == 3)
      #expect((floating["found"] as? [String: Any])?["dy"] as? Int == 0)

      let moved10 = try SnapdiffProcess.run([
        "compare", before, folder + "/moved10.png", "--floating", region, "--diff", folder + "/diff.png",
      ])
      #expect(moved10.status == 1)
      #expect(moved10.standardOutput.contains("content not found within its offsets"), "\(moved10.standardOutput)")
      // The region is outlined in orange just outside it in the diff image; its differences show.
      let diff = try PNGDecoder().decode(contentsOf: folder + "/diff.png")
      #expect(diff[x: 19, y: 16] == RGBAColor(red: 255, green: 140, blue: 0))
      #expect(diff[x: 20, y: 17] == RGBAColor(red: 255, green: 0, blue: 0))

      // UP,DOWN,LEFT,RIGHT: 3 to the right needs right ≥ 3.
      #expect(
        try SnapdiffProcess.run(["compare", before, folder + "/moved3.png", "--floating", "20,17,10,6:0,0,5,2"]).status
          == 1)
      #expect(
        try SnapdiffProcess.run(["compare", before, folder + "/moved3.png", "--floating", "20,17,10,6:0,0,0,3"]).status
          == 0)

      let outside = try SnapdiffProcess.run([
        "compare", before, folder + "/moved3-mark.png", "--floating", region, "--json",
      ])
      #expect(outside.status == 1)
      #expect(try outside.json()["differentPixels"] as? Int == 16)
    }
  }

  @Test("a content region ignores a colour change of equal brightness; outside it the change fails")
  func content() throws {
    try withTemporaryDirectory { folder in
      let before = folder + "/before.png"
      let after = folder + "/after.png"
      try Self.write(Self.screen(button: Self.red), before)
      try Self.write(Self.screen(button: Self.sameBrightnessGreen), after)
      #expect(try SnapdiffProcess.run(["compare", before, after]).status == 1)
      let region = try SnapdiffProcess.run(["compare", before, after, "--content-region", "15,15,20,10"])
      #expect(region.status == 0, "\(region.standardOutput)\(region.standardError)")
      // A content region elsewhere leaves the button to the snapshot's level.
      #expect(try SnapdiffProcess.run(["compare", before, after, "--content-region", "0,0,10,10"]).status == 1)
      // Brightness still counts inside it.
      try Self.write(Self.screen(button: RGBAColor(red: 0, green: 0, blue: 0)), folder + "/dark.png")
      #expect(
        try SnapdiffProcess.run(["compare", before, folder + "/dark.png", "--content-region", "15,15,20,10"]).status
          == 1)
    }
  }

  @Test("a strict region fails a change that perceptual passes")
  func strict() throws {
    try withTemporaryDirectory { folder in
      let before = folder + "/before.png"
      let after = folder + "/after.png"
      try Self.write(Self.screen(button: Self.red), before)
      try Self.write(Self.screen(button: Self.nearRed), after)
      // The pair itself, measured: strict counts the 60 pixels, perceptual none.
      let strictAll = try SnapdiffProcess.run(["compare", before, after, "--json"])
      #expect(strictAll.status == 1)
      #expect(try strictAll.json()["differentPixels"] as? Int == 60)
      #expect(try SnapdiffProcess.run(["compare", before, after, "--match", "perceptual"]).status == 0)
      let region = try SnapdiffProcess.run([
        "compare", before, after, "--match", "perceptual", "--strict-region", "18,15,14,10", "--json",
      ])
      #expect(region.status == 1)
      #expect(try region.json()["differentPixels"] as? Int == 60)
      #expect(
        try SnapdiffProcess.run(["compare", before, after, "--match", "perceptual", "--strict-region", "0,0,10,10"])
          .status == 0)
    }
  }

  /// A 60×40 tree at scale 1 with a button `badge` at (x, 17), 10×6.
  static func tree(badgeX: Int) -> String {
    """
    {"scale": 1, "screen": {"width": 60, "height": 40},
     "root": {"elementType": "application", "identifier": "app", "label": "",
              "frame": {"x": 0, "y": 0, "width": 60, "height": 40},
              "children": [{"elementType": "button", "identifier": "badge", "label": "",
                            "frame": {"x": \(badgeX), "y": 17, "width": 10, "height": 6}}]}}
    """
  }

  @Test("regions by element selector and in points are resolved in the frames' trees")
  func selectors() throws {
    try withTemporaryDirectory { folder in
      let before = folder + "/before.png"
      let after = folder + "/after.png"
      try Self.write(Self.screen(), before)
      try Self.write(Self.screen(buttonX: 23), after)
      try Data(Self.tree(badgeX: 20).utf8).write(to: URL(fileURLWithPath: folder + "/before.tree.json"))
      try Data(Self.tree(badgeX: 23).utf8).write(to: URL(fileURLWithPath: folder + "/after.tree.json"))
      #expect(try SnapdiffProcess.run(["compare", before, after]).status == 1)
      let floating = try SnapdiffProcess.run(["compare", before, after, "--floating", "badge:4"])
      #expect(floating.status == 0, "\(floating.standardOutput)\(floating.standardError)")
      #expect(try SnapdiffProcess.run(["compare", before, after, "--floating", "badge:2"]).status == 1)
      #expect(try SnapdiffProcess.run(["compare", before, after, "--floating", "20,17,10,6pt:4"]).status == 0)
      // A layout region with trees: the badge moved, and the layout inside the region counts.
      let layout = try SnapdiffProcess.run(["compare", before, after, "--layout-region", "10,10,40,20"])
      #expect(layout.status == 1)
      #expect(layout.standardOutput.contains("button 'badge' moved"), "\(layout.standardOutput)")
      let dead = try SnapdiffProcess.run(["compare", before, after, "--content-region", "~nothing"])
      #expect(dead.standardError.contains("region '~nothing' matched no element"))
    }
  }

  @Test("a layout region without trees ignores its pixels, with a note")
  func layoutWithoutTrees() throws {
    try withTemporaryDirectory { folder in
      try Self.write(Self.screen(), folder + "/before.png")
      try Self.write(Self.screen(buttonX: 23), folder + "/after.png")
      let output = try SnapdiffProcess.run([
        "compare", folder + "/before.png", folder + "/after.png", "--layout-region", "10,10,40,20",
      ])
      #expect(output.status == 0)
      #expect(output.standardError.contains("no element trees to compare, its pixels are ignored"))
    }
  }

  @Test("malformed regions are usage errors naming the option and the problem")
  func malformed() throws {
    let a = CLIFixtures.path("pixelmatch/1a.png")
    let cases: [([String], String)] = [
      (["--floating", "20,17,10,6"], "a floating region ends with its offsets"),
      (["--floating", "20,17,10,6:x"], "the offsets after the last ':' must be N or UP,DOWN,LEFT,RIGHT"),
      (["--floating", "20,17,10,6:1,2"], "the offsets after the last ':' must be N or UP,DOWN,LEFT,RIGHT"),
      (["--floating", "20,17,10,6:-1"], "must be between 0 and 200"),
      (["--strict-region", "1,2,3"], "a rectangle is X,Y,W,H"),
      (["--content-region", "1,2,0,4"], "is empty or negative"),
      (["--layout-region", "1,2,a,4"], "a rectangle in pixels is X,Y,W,H"),
    ]
    for (arguments, message) in cases {
      let output = try SnapdiffProcess.run(["compare", a, a] + arguments)
      #expect(output.status == 64, "\(arguments)")
      #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
      #expect(output.standardError.contains(arguments[0]), "\(arguments): \(output.standardError)")
    }
    let help = try SnapdiffProcess.run(["compare", "--help"])
    for option in ["--floating", "--strict-region", "--content-region", "--layout-region"] {
      #expect(help.standardOutput.contains(option))
    }
  }

  @Test("snapdiff check takes regions from the flags, snapdiff.json and a frame's settings file")
  func check() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Self.screen())
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame("Home", Self.screen(buttonX: 23))
      #expect(try workspace.snapdiff(["check", "frames", "--record", "never"]).status == 1)
      let flagged = try workspace.snapdiff(["check", "frames", "--record", "never", "--floating", "20,17,10,6:5"])
      #expect(flagged.status == 0, "\(flagged.standardOutput)\(flagged.standardError)")
      // run.json says where the content was found.
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(
        snapshot["regionNotes"] as? [String] == ["floating region 10×6 at (20, 17): content found moved by (3, 0)"])

      let config =
        #"{"regions": [{"keys": "Home*", "regions": [{"kind": "floating", "rect": {"x": 20, "y": 17, "width": 10, "height": 6}, "offsets": {"up": 0, "down": 0, "left": 0, "right": 5}}]}]}"#
      try Data(config.utf8).write(to: URL(fileURLWithPath: workspace.root + "/snapdiff.json"))
      let configured = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(configured.status == 0, "\(configured.standardOutput)\(configured.standardError)")
      try FileManager.default.removeItem(atPath: workspace.root + "/snapdiff.json")

      let settings = #"{"regions": [{"kind": "content", "rect": {"x": 15, "y": 15, "width": 30, "height": 10}}]}"#
      try Data(settings.utf8).write(to: URL(fileURLWithPath: workspace.root + "/frames/Home.snapdiff.json"))
      // A content region does not let a button move.
      #expect(try workspace.snapdiff(["check", "frames", "--record", "never"]).status == 1)
      let bad =
        #"{"regions": [{"kind": "strict", "rect": {"x": 1, "y": 1, "width": 1, "height": 1}, "offsets": {"up": 1, "down": 1, "left": 1, "right": 1}}]}"#
      try Data(bad.utf8).write(to: URL(fileURLWithPath: workspace.root + "/frames/Home.snapdiff.json"))
      let refused = try workspace.snapdiff(["check", "frames", "--record", "never"])
      #expect(refused.status != 0)
      #expect(
        (refused.standardOutput + refused.standardError).contains("takes no offsets"),
        "\(refused.standardOutput)\(refused.standardError)")
    }
  }
}
