import Foundation
import SnapdiffCore
import Testing

/// `--match rendering-tolerant` and elements moved whole by a pixel or two (`MovedElements`): a
/// line of text re-laid lower or higher, as a new OS does to a navigation title, passes; an icon
/// nudged by a pixel, or text moved sideways, fails as `strict` fails it.
@Suite("rendering-tolerant: elements moved whole")
struct RenderingTolerantMoveTests {
  /// A chevron 17 px wide and 10 px tall: two arms of 2×2 squares, 2 px a step.
  static func chevron(x: Double, y: Double) -> [RenderedScreen.Shape] {
    let grey = RGBAColor(red: 150, green: 150, blue: 150)
    var shapes: [RenderedScreen.Shape] = []
    for step in 0..<5 {
      let offset = Double(step) * 2
      shapes.append(RenderedScreen.Shape(x: x + offset, y: y + offset, width: 2, height: 2, color: grey))
    }
    for step in 0..<4 {
      let offset = Double(step) * 2
      shapes.append(RenderedScreen.Shape(x: x + 10 + offset, y: y + 6 - offset, width: 2, height: 2, color: grey))
    }
    return shapes
  }

  static func screenWithChevron() -> RenderedScreen {
    var screen = RenderedScreen.list()
    screen.shapes += chevron(x: 120, y: 80)
    return screen
  }

  @Test("a line of two words re-laid 1 px higher passes: a renderer moves text lines vertically")
  func textLineHigher() throws {
    var screen = RenderedScreen.list()
    screen.shapes += RenderedScreen.word(x: 16, y: 86) + RenderedScreen.word(x: 56, y: 86)
    let higher = screen.moved(dx: 0, dy: -1) { $0.y >= 86 }.reRendered()
    #expect(try RenderingTolerantTests.compare(screen, higher).status == 1)
    let output = try RenderingTolerantTests.tolerant(screen, higher, ["--json"])
    #expect(output.status == 0, "\(output.standardOutput)")
    #expect(try output.json()["differentPixels"] as? Int == 0)
  }

  @Test("a chevron moved 1 px up fails, every pixel of its move counted; strict fails it too")
  func iconNudged() throws {
    let screen = Self.screenWithChevron()
    let nudged = screen.moved(dx: 0, dy: -1) { $0.x >= 120 && $0.y >= 80 }.reRendered()
    #expect(try RenderingTolerantTests.compare(screen, nudged).status == 1)
    let output = try RenderingTolerantTests.tolerant(screen, nudged, ["--json"])
    #expect(output.status == 1, "\(output.standardOutput)")
    let json = try output.json()
    #expect(json["toleratedPixels"] == nil)
    #expect((json["differentPixels"] as? Int ?? 0) >= RenderingNoise.smallestChange)
    let text = try RenderingTolerantTests.tolerant(screen, nudged)
    #expect(text.standardOutput.contains("in 1 area"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("an element moved whole"), "\(text.standardOutput)")
  }

  @Test("the same chevron re-blended by a 0.4-px move passes: not an exact copy")
  func iconReblended() throws {
    let screen = Self.screenWithChevron()
    let output = try RenderingTolerantTests.tolerant(
      screen, screen.moved(dx: 0, dy: -0.4) { $0.x >= 120 && $0.y >= 80 })
    #expect(output.status == 0, "\(output.standardOutput)")
  }

  @Test("the navigation title moved 1 px sideways fails; 2 px lower it passes")
  func textSideways() throws {
    let screen = RenderedScreen.list()
    let sideways = screen.moved(dx: 1, dy: 0) { $0.y < 20 }
    #expect(try RenderingTolerantTests.compare(screen, sideways).status == 1)
    let output = try RenderingTolerantTests.tolerant(screen, sideways, ["--json"])
    #expect(output.status == 1, "\(output.standardOutput)")
    #expect((try output.json()["differentPixels"] as? Int ?? 0) >= RenderingNoise.smallestChange)
    #expect(
      try RenderingTolerantTests.tolerant(screen, screen.moved(dx: 0, dy: 2) { $0.y < 20 }.reRendered()).status == 0)
  }

  @Test(
    "a title moved 2 px lower and nothing else re-rendered fails, every pixel counted: the pair's only difference is one exact move"
  )
  func loneMove() throws {
    let screen = RenderedScreen.list()
    let lower = screen.moved(dx: 0, dy: 2) { $0.y < 20 }
    let output = try RenderingTolerantTests.tolerant(screen, lower, ["--json"])
    #expect(output.status == 1, "\(output.standardOutput)")
    let json = try output.json()
    #expect(json["loneMove"] as? [String: Int] == ["dx": 0, "dy": 2])
    #expect(json["toleratedPixels"] == nil)
    let difference = try #require(json["difference"] as? [String: Any])
    #expect(difference["kind"] as? String == "moved" && difference["group"] as? String == "moved")
    #expect(difference["move"] as? [String: Int] == ["dx": 0, "dy": 2])
    let strict = try RenderingTolerantTests.compare(screen, lower, ["--json", "--include-aa"])
    #expect(json["differentPixels"] as? Int == (try strict.json()["differentPixels"] as? Int))
    let text = try RenderingTolerantTests.tolerant(screen, lower)
    #expect(
      text.standardOutput.contains("everything that differs is one exact copy of the baseline moved 2 px down"),
      "\(text.standardOutput)")
    #expect(
      text.standardOutput.contains("difference: content moved 2 px down as an exact copy, and nothing else"),
      "\(text.standardOutput)")
    // What else differs under an ignore region does not count: the move is still alone.
    var masked = lower
    masked.shapes.append(.init(x: 4, y: 90, width: 4, height: 4, color: RGBAColor(red: 30, green: 30, blue: 30)))
    let ignored = try RenderingTolerantTests.tolerant(screen, masked, ["--json", "--ignore", "0,86,12,12"])
    #expect(try ignored.json()["loneMove"] as? [String: Int] == ["dx": 0, "dy": 2], "\(ignored.standardOutput)")
    // Re-rendered elsewhere, by one level that no threshold counts, the same move passes.
    #expect(try RenderingTolerantTests.tolerant(screen, lower.reRendered()).status == 0)
  }

  @Test("a screen re-rendered and nothing moved passes without a move")
  func reRenderedOnly() throws {
    let screen = RenderedScreen.list()
    let output = try RenderingTolerantTests.tolerant(screen, screen.reRendered(), ["--json"])
    #expect(output.status == 0, "\(output.standardOutput)")
    #expect(try output.json()["loneMove"] == nil)
  }
}
