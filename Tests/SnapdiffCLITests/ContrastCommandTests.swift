import Foundation
import SnapdiffCore
import Testing

/// `--contrast`, `--contrast-fails`, `--contrast-region` and `snapdiff.json`'s contrast fields,
/// run as a real process on frames with trees beside them.
@Suite("snapdiff --contrast")
struct ContrastCommandTests {
  /// A white 60×40 screen with one line of #777777 "text" (4.47:1 on white): strokes with
  /// anti-aliased fringes inside the static text's box.
  static let screen: RGBAImage = {
    var image = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for stroke in 0..<4 {
      let left = 10 + stroke * 5
      for y in 13..<24 {
        image[x: left, y: y] = RGBAColor(red: 0xBB, green: 0xBB, blue: 0xBB)
        image[x: left + 1, y: y] = RGBAColor(red: 0x77, green: 0x77, blue: 0x77)
        image[x: left + 2, y: y] = RGBAColor(red: 0x77, green: 0x77, blue: 0x77)
        image[x: left + 3, y: y] = RGBAColor(red: 0xBB, green: 0xBB, blue: 0xBB)
      }
    }
    return image
  }()

  /// The screen's tree: one static text, 17 points tall (about 14 pt: regular text).
  static let tree =
    #"{"scale": 1, "screen": {"width": 60, "height": 40}, "root": {"elementType": "application", "frame": {"x": 0, "y": 0, "width": 60, "height": 40}, "children": [{"identifier": "hint", "elementType": "staticText", "label": "Forgot password?", "frame": {"x": 8, "y": 10, "width": 30, "height": 17}}]}}"#

  static let failure =
    #"staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)"#

  @Test("compare --contrast AA names the failing element with its ratio; --contrast-fails turns the exit status to 1")
  func compare() throws {
    try withTemporaryDirectory { folder in
      for name in ["a", "b"] {
        try PNGEncoder().write(Self.screen, to: folder + "/\(name).png")
        try Self.tree.write(toFile: folder + "/\(name).tree.json", atomically: true, encoding: .utf8)
      }
      let (a, b) = (folder + "/a.png", folder + "/b.png")
      let reported = try SnapdiffProcess.run(["compare", a, b, "--contrast", "AA"])
      #expect(reported.status == 0, "\(reported.standardOutput)\(reported.standardError)")
      #expect(reported.standardOutput.contains("contrast AA: 1 of 1 element under their ratio (reported only"))
      #expect(reported.standardOutput.contains(Self.failure), "\(reported.standardOutput)")

      let failing = try SnapdiffProcess.run(["compare", a, b, "--contrast", "AA", "--contrast-fails"])
      #expect(failing.status == 1)
      #expect(failing.standardOutput.hasPrefix("FAIL  identical pixels (60×40), but contrast fails AA\n"))

      // Held as large text, the same grey passes (3:1).
      let large = try SnapdiffProcess.run([
        "compare", a, b, "--contrast", "aa", "--contrast-fails", "--contrast-region", "large-text:@staticText:hint",
      ])
      #expect(large.status == 0, "\(large.standardOutput)")
      #expect(large.standardOutput.contains("contrast AA: 1 element pass"))
      // The same by rectangle: the hint's frame in points holds it.
      let byFrame = try SnapdiffProcess.run([
        "compare", a, b, "--contrast", "AA", "--contrast-fails", "--contrast-region", "large-text:8,10,30,17pt",
      ])
      #expect(byFrame.status == 0, "\(byFrame.standardOutput)\(byFrame.standardError)")

      let json = try SnapdiffProcess.run(["compare", a, b, "--contrast", "AA", "--json"]).json()
      let contrast = try #require(json["contrast"] as? [String: Any])
      #expect(contrast["level"] as? String == "AA" && contrast["failed"] as? Int == 1)
      let first = try #require((contrast["failures"] as? [[String: Any]])?.first)
      #expect(first["selector"] as? String == "@staticText:hint")
      #expect(first["ratio"] as? Double == 4.47 && first["required"] as? Double == 4.5)
      #expect(first["ink"] as? String == "#777777" && first["background"] as? String == "#FFFFFF")

      let region = try SnapdiffProcess.run(["compare", a, b, "--contrast", "AA", "--contrast-region", "huge:hint"])
      #expect(region.status == 64 && region.standardError.contains("'huge' is not a region type"))
      // Without a tree there is nothing to check: an error naming the file.
      let (c, d) = (folder + "/c.png", folder + "/d.png")
      try PNGEncoder().write(Self.screen, to: c)
      try PNGEncoder().write(Self.screen, to: d)
      let treeless = try SnapdiffProcess.run(["compare", c, d, "--contrast", "AA"])
      #expect(
        treeless.status == 2 && treeless.standardError.contains("--contrast needs the current frame's element tree"))
    }
  }

  @Test("check: snapdiff.json's contrast fields fail the snapshot, and run.json and the summary word it")
  func check() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Login", Self.screen)
      try Self.tree.write(toFile: workspace.root + "/frames/Login.tree.json", atomically: true, encoding: .utf8)
      // New: recorded with its tree, and its contrast reported (a new snapshot has no verdict to fail).
      let first = try workspace.snapdiff(["check", "frames", "--contrast", "AA", "--contrast-fails"])
      #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
      let new = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(new["status"] as? String == "new")
      #expect((new["contrast"] as? [String: Any])?["failures"] as? [String] == [Self.failure])
      // Reported only: the snapshot passes, and the summary names the element.
      let reported = try workspace.snapdiff(["check", "frames", "--contrast", "AA"])
      #expect(reported.status == 0, "\(reported.standardOutput)\(reported.standardError)")
      #expect(reported.standardOutput.contains("contrast under AA: " + Self.failure), "\(reported.standardOutput)")
      try #"{"contrast": "AA", "contrastFails": true}"#.write(
        toFile: workspace.root + "/snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(snapshot["status"] as? String == "failed")
      let contrast = try #require(snapshot["contrast"] as? [String: Any])
      #expect(contrast["failures"] as? [String] == [Self.failure] && contrast["checked"] as? Int == 1)
      let report = try String(contentsOfFile: workspace.root + "/.snapdiff/runs/last/index.html", encoding: .utf8)
      #expect(
        report.contains("Contrast under AA: staticText &#39;hint&#39;")
          || report.contains("Contrast under AA: staticText 'hint'"))
      // A region in a settings file beside the frame overrides the project's rule, by selector or
      // by rectangle in pixels (as the test API writes a page's XCUIElement).
      try #"{"contrastRegions": ["ignore:hint"]}"#.write(
        toFile: workspace.root + "/frames/Login.snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try #"{"contrastRegions": ["ignore:8,10,30,17"]}"#.write(
        toFile: workspace.root + "/frames/Login.snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    }
  }
}
