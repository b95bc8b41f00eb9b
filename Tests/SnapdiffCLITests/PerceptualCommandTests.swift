import Foundation
import SnapdiffCore
import Testing

/// `snapdiff compare --match perceptual` and `--delta-e`, run as a real process.
@Suite("snapdiff compare --match perceptual")
struct PerceptualCommandTests {
  /// A white screen with a 10×10 button in `button`.
  static func screen(button: RGBAColor) -> RGBAImage {
    var image = RGBAImage(width: 40, height: 30, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for y in 10..<20 { for x in 15..<25 { image[x: x, y: y] = button } }
    return image
  }

  @Test("#007aff → #0a84ff (ΔE00 3.5): strict passes it, perceptual fails it, --delta-e 4 passes it")
  func systemBlue() throws {
    try withTemporaryDirectory { folder in
      let before = folder + "/before.png"
      let after = folder + "/after.png"
      try PNGEncoder().write(Self.screen(button: RGBAColor(red: 0x00, green: 0x7a, blue: 0xff)), to: before)
      try PNGEncoder().write(Self.screen(button: RGBAColor(red: 0x0a, green: 0x84, blue: 0xff)), to: after)
      #expect(try SnapdiffProcess.run(["compare", before, after]).status == 0)
      let perceptual = try SnapdiffProcess.run(["compare", before, after, "--match", "perceptual", "--json"])
      #expect(perceptual.status == 1)
      let object = try perceptual.json()
      #expect(object["differentPixels"] as? Int == 100)
      #expect(object["matchLevel"] as? String == "perceptual")
      let loose = try SnapdiffProcess.run(["compare", before, after, "--match", "perceptual", "--delta-e", "4"])
      #expect(loose.status == 0)
    }
  }

  @Test("--delta-e must be 0 or more")
  func negativeDeltaE() throws {
    let a = CLIFixtures.path("pixelmatch/1a.png")
    let output = try SnapdiffProcess.run(["compare", a, a, "--match", "perceptual", "--delta-e=-1"])
    #expect(output.status == 64)
    #expect(output.standardError.contains("--delta-e must be 0 or more, not -1.0"))
  }
}

/// `snapdiff compare` on colour-tagged PNGs: the conversion is made and reported.
@Suite("snapdiff compare, colour profiles")
struct ColorProfileCommandTests {
  @Test("a Display P3 PNG against its sRGB twin passes, and the verdict and JSON say it was converted")
  func displayP3() throws {
    let p3 = CLIFixtures.path("color/screen-p3.png")
    let srgb = CLIFixtures.path("color/screen-srgb.png")
    let text = try SnapdiffProcess.run(["compare", p3, srgb])
    #expect(text.status == 0)
    #expect(
      text.standardOutput.contains(
        "colours converted before comparing: baseline Display P3 (iCCP) → sRGB; current sRGB or untagged as is"),
      "\(text.standardOutput)")
    let json = try SnapdiffProcess.run(["compare", p3, srgb, "--json"]).json()
    let conversion = try #require(json["colorConversion"] as? [String: Any])
    #expect(conversion["to"] as? String == "sRGB")
    #expect((conversion["baseline"] as? [String: Any])?["space"] as? String == "Display P3 (iCCP)")
    #expect((conversion["baseline"] as? [String: Any])?["converted"] as? Bool == true)
    // Untagged pairs say nothing about colours.
    let plain = try SnapdiffProcess.run(["compare", srgb, srgb, "--json"]).json()
    #expect(plain["colorConversion"] == nil)
  }
}

/// `snapdiff check` with the perceptual level from `snapdiff.json`, and colour-tagged baselines.
@Suite("snapdiff check, perceptual and colour profiles")
struct PerceptualCheckTests {
  @Test("snapdiff.json's matchLevel perceptual fails the #007aff → #0a84ff change that strict passes")
  func projectLevel() throws {
    try withWorkspace { workspace in
      let blue = PerceptualCommandTests.screen(button: RGBAColor(red: 0x00, green: 0x7a, blue: 0xff))
      let newBlue = PerceptualCommandTests.screen(button: RGBAColor(red: 0x0a, green: 0x84, blue: 0xff))
      try workspace.writeFrame("Home", blue)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // recorded
      try workspace.writeFrame("Home", newBlue)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // strict: 0 pixels differ
      try #"{"matchLevel": "perceptual"}"#.write(
        toFile: workspace.root + "/snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(snapshot["matchLevel"] as? String == "perceptual")
      #expect(snapshot["differentPixels"] as? Int == 100)
      // The flag overrides the file.
      #expect(try workspace.snapdiff(["check", "frames", "--match", "strict"]).status == 0)
    }
  }

  @Test("a Display P3 baseline against an sRGB frame passes converted, warm cache or not, and run.json says so")
  func taggedBaseline() throws {
    try withWorkspace { workspace in
      let baselines = workspace.root + "/baselines"
      try FileManager.default.createDirectory(atPath: baselines, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: CLIFixtures.path("color/screen-p3.png"), toPath: baselines + "/Home.png")
      try FileManager.default.createDirectory(atPath: workspace.root + "/frames", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: CLIFixtures.path("color/screen-srgb.png"), toPath: workspace.root + "/frames/Home.png")
      // The second run reads the baseline from the decoded-baseline cache.
      for _ in 0..<2 {
        let output = try workspace.snapdiff(["check", "frames"])
        #expect(output.status == 0, "\(output.standardOutput)")
        let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
        #expect(snapshot["status"] as? String == "passed")
        #expect((snapshot["colorConversion"] as? String)?.contains("baseline Display P3 (iCCP) → sRGB") == true)
      }
      #expect(try workspace.snapdiff(["check", "frames", "--no-cache"]).status == 0)
    }
  }
}
