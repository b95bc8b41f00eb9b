import Foundation
import SnapdiffCore
import Testing

/// `--match rendering-tolerant`: what an OS, Xcode or simulator update does to a screenshot
/// passes (edges re-blended, a title re-laid 2 px lower); a changed word, a recoloured element,
/// a moved divider fail. Screens drawn here (`RenderedScreen`), compared by a real process.
@Suite("snapdiff compare --match rendering-tolerant")
struct RenderingTolerantTests {
  /// Writes both screens and runs `snapdiff compare before after arguments…`.
  static func compare(_ before: RenderedScreen, _ after: RenderedScreen, _ arguments: [String] = [])
    throws -> SnapdiffProcess.Output
  {
    try withTemporaryDirectory { folder in
      try PNGEncoder().write(before.image(), to: folder + "/before.png")
      try PNGEncoder().write(after.image(), to: folder + "/after.png")
      return try SnapdiffProcess.run(["compare", folder + "/before.png", folder + "/after.png"] + arguments)
    }
  }

  static func tolerant(_ before: RenderedScreen, _ after: RenderedScreen, _ arguments: [String] = [])
    throws -> SnapdiffProcess.Output
  {
    try compare(before, after, ["--match", "rendering-tolerant"] + arguments)
  }

  @Test("every edge re-blended by a 0.4-px move passes, its pixels counted as rendering noise")
  func subpixelJitter() throws {
    let screen = RenderedScreen.list()
    let output = try Self.tolerant(screen, screen.moved(dx: 0.4, dy: 0.3), ["--json"])
    #expect(output.status == 0, "\(output.standardOutput)")
    let json = try output.json()
    #expect(json["matchLevel"] as? String == "rendering-tolerant")
    #expect(json["differentPixels"] as? Int == 0)
    #expect((json["toleratedPixels"] as? Int ?? 0) > 100)
  }

  @Test("a title re-laid 2 px lower on a re-rendered screen passes; strict fails it")
  func titleLower() throws {
    let screen = RenderedScreen.list()
    let lower = screen.moved(dx: 0, dy: 2) { $0.y < 20 }.reRendered()
    #expect(try Self.compare(screen, lower).status == 1)
    let output = try Self.tolerant(screen, lower)
    #expect(output.status == 0)
    #expect(output.standardOutput.contains("rendering noise"), "\(output.standardOutput)")
  }

  @Test("an asterisk-sized mark added fails, and the verdict says where")
  func markAdded() throws {
    let screen = RenderedScreen.list()
    var marked = screen
    marked.shapes.append(.init(x: 92, y: 28, width: 5, height: 5, color: RGBAColor(red: 30, green: 30, blue: 30)))
    let output = try Self.tolerant(screen, marked)
    #expect(output.status == 1)
    #expect(output.standardOutput.contains("in 1 area: 5×5 at (92, 28)"), "\(output.standardOutput)")
    #expect(output.standardOutput.contains("no close colour within 2 px"))
    // Masked, the same mark passes (ignore regions hold at every level).
    let masked = try Self.tolerant(screen, marked, ["--ignore", "88,24,16,16", "--json"])
    #expect(masked.status == 0)
    #expect(try masked.json()["ignoredPixels"] as? Int == 25)
  }

  @Test("a word changed fails")
  func wordChanged() throws {
    let screen = RenderedScreen.list()
    var changed = screen
    // The second row's grey word loses its last two letters.
    changed.shapes.removeAll { $0.y > 49 && $0.y < 62 && $0.x >= 81 && $0.x < 100 }
    let output = try Self.tolerant(screen, changed, ["--json"])
    #expect(output.status == 1)
    #expect((try output.json()["differentPixels"] as? Int ?? 0) >= RenderingNoise.smallestChange)
  }

  @Test(
    "a dimmed button fails; a 2-level recolour passes at the default threshold (as at strict) and fails under --threshold 0.005"
  )
  func recoloured() throws {
    let screen = RenderedScreen.list()
    func button(_ color: RGBAColor) -> RenderedScreen {
      var copy = screen
      copy.shapes = copy.shapes.map { shape in
        var shape = shape
        if shape.width == 40 { shape.color = color }
        return shape
      }
      return copy
    }
    #expect(try Self.tolerant(screen, button(RGBAColor(red: 128, green: 188, blue: 255))).status == 1)
    let twoLevels = button(RGBAColor(red: 0, green: 124, blue: 253))
    #expect(try Self.compare(screen, twoLevels).status == 0)
    #expect(try Self.tolerant(screen, twoLevels).status == 0)
    #expect(try Self.tolerant(screen, twoLevels, ["--threshold", "0.005"]).status == 1)
  }

  @Test("a title dimmed (a disabled state) fails: its new grey is a mix of ink and background, but the old ink is gone")
  func titleDimmed() throws {
    let screen = RenderedScreen.list()
    var dimmed = screen
    dimmed.shapes = dimmed.shapes.map { shape in
      var shape = shape
      if shape.y < 20 { shape.color = RGBAColor(red: 150, green: 150, blue: 150) }
      return shape
    }
    let output = try Self.tolerant(screen, dimmed)
    #expect(output.status == 1)
    #expect(output.standardOutput.contains("in 1 area"), "\(output.standardOutput)")
  }

  @Test("a divider whose inset moved 30 px fails")
  func dividerInset() throws {
    let screen = RenderedScreen.list()
    var inset = screen
    inset.shapes = inset.shapes.map { shape in
      var shape = shape
      if shape.height == 1 && shape.y < 50 {
        shape.x += 30
        shape.width -= 30
      }
      return shape
    }
    let output = try Self.tolerant(screen, inset)
    #expect(output.status == 1)
    // The last 2 of the 30 pixels have the divider's colour within 2 px: the 28 before them count.
    #expect(output.standardOutput.contains("28 of 16,000 pixels differ"), "\(output.standardOutput)")
    #expect(output.standardOutput.contains("28×1 at (16, 44)"), "\(output.standardOutput)")
  }
}

/// `snapdiff check` with the level from `snapdiff.json`.
@Suite("snapdiff check, rendering-tolerant")
struct RenderingTolerantCheckTests {
  @Test(
    "snapdiff.json's matchLevel rendering-tolerant passes a re-rendered frame that strict fails, and run.json names the level"
  )
  func projectLevel() throws {
    try withWorkspace { workspace in
      let screen = RenderedScreen.list()
      try workspace.writeFrame("Home", screen.image())
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // recorded
      try workspace.writeFrame("Home", screen.moved(dx: 0.4, dy: 0).moved(dx: 0, dy: 2) { $0.y < 20 }.image())
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)  // strict
      try #"{"matchLevel": "rendering-tolerant"}"#.write(
        toFile: workspace.root + "/snapdiff.json", atomically: true, encoding: .utf8)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      #expect(snapshot["matchLevel"] as? String == "rendering-tolerant")
      #expect(snapshot["differentPixels"] as? Int == 0)
    }
  }

  @Test(
    "a title moved 2 px lower and nothing else re-rendered fails as kind moved in run.json and the report; approve --difference moved approves it"
  )
  func loneMoveInRun() throws {
    try withWorkspace { workspace in
      try #"{"matchLevel": "rendering-tolerant"}"#.write(
        toFile: workspace.root + "/snapdiff.json", atomically: true, encoding: .utf8)
      let screen = RenderedScreen.list()
      try workspace.writeFrame("Home", screen.image())
      try workspace.writeFrame("Cart", screen.image())
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)  // recorded
      try workspace.writeFrame("Home", screen.moved(dx: 0, dy: 2) { $0.y < 20 }.image())
      try workspace.writeFrame("Cart", screen.moved(dx: 0.4, dy: 0).image())
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 1, "\(check.standardOutput)")
      let snapshots = try #require(try workspace.lastRun()["snapshots"] as? [[String: Any]])
      let home = try #require(snapshots.first { ($0["key"] as? String)?.hasSuffix("Home") == true })
      #expect(home["status"] as? String == "failed")
      let difference = try #require(home["difference"] as? [String: Any])
      #expect(difference["kind"] as? String == "moved")
      #expect(difference["move"] as? [String: Int] == ["dx": 0, "dy": 2])
      let cart = try #require(snapshots.first { ($0["key"] as? String)?.hasSuffix("Cart") == true })
      #expect(cart["status"] as? String == "passed")
      let report = try String(contentsOfFile: workspace.root + "/.snapdiff/runs/last/index.html", encoding: .utf8)
      #expect(report.contains("content moved 2 px down as an exact copy"))
      let approve = try workspace.snapdiff(["approve", "--difference", "moved"])
      #expect(approve.status == 0, "\(approve.standardOutput)\(approve.standardError)")
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    }
  }
}

/// The level through the library: `PixelDiff` with `DiffOptions(matchLevel: .renderingTolerant)`.
@Suite("rendering-tolerant through PixelDiff")
struct RenderingTolerantEngineTests {
  @Test(
    "the whole screen re-rendered 1 px lower passes; the diff image marks noise as anti-aliasing, changes as differences"
  )
  func shiftAndDiffImage() throws {
    let screen = RenderedScreen.list()
    let engine = PixelDiff(options: DiffOptions(matchLevel: .renderingTolerant))
    let shifted = engine.compare(screen.image(), screen.moved(dx: 0, dy: 1).reRendered().image())
    #expect(shifted.passed && shifted.differentPixels == 0 && shifted.toleratedPixels > 0)
    #expect(shifted.loneMove == nil)
    var marked = screen
    marked.shapes.append(.init(x: 92, y: 28, width: 5, height: 5, color: RGBAColor(red: 30, green: 30, blue: 30)))
    let drawn = engine.compareDrawingDiff(screen.image(), marked.image())
    let kept = engine.compareKeepingMarks(screen.image(), marked.image())
    #expect(!drawn.result.passed && drawn.result.differentPixels == 25)
    #expect(drawn.result == kept.result)
    #expect(drawn.diffImage[x: 94, y: 30] == RGBAColor(red: 255, green: 0, blue: 0))
    #expect(kept.diffImage() == drawn.diffImage)
    // The same change hashes the same however it is compared.
    #expect(drawn.result.changeHash == engine.compare(screen.image(), marked.image()).changeHash)
  }
}
