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
    let higher = screen.moved(dx: 0, dy: -1) { $0.y >= 86 }
    #expect(try RenderingTolerantTests.compare(screen, higher).status == 1)
    let output = try RenderingTolerantTests.tolerant(screen, higher, ["--json"])
    #expect(output.status == 0, "\(output.standardOutput)")
    #expect(try output.json()["differentPixels"] as? Int == 0)
  }

  @Test("a chevron moved 1 px up fails, every pixel of its move counted; strict fails it too")
  func iconNudged() throws {
    let screen = Self.screenWithChevron()
    let nudged = screen.moved(dx: 0, dy: -1) { $0.x >= 120 && $0.y >= 80 }
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
    #expect(try RenderingTolerantTests.tolerant(screen, screen.moved(dx: 0, dy: 2) { $0.y < 20 }).status == 0)
  }
}
