import Foundation
import SnapdiffCore
import SnapdiffTesting
import Testing

@Suite("local checker: match level from the options")
struct PerceptualCheckerTests {
  static func screen(_ button: RGBAColor) -> Frame {
    var image = RGBAImage(width: 30, height: 20, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for y in 5..<15 { for x in 5..<15 { image[x: x, y: y] = button } }
    return Frame(image: image, tree: nil, path: "screen")
  }

  @Test(".local(options: DiffOptions(matchLevel: .perceptual)) fails #007aff → #0a84ff; strict passes it")
  func perceptualOption() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    func checker(_ level: MatchLevel) -> LocalSnapshotChecker {
      LocalSnapshotChecker(
        baselines: scratch.root + "/baselines", frames: scratch.root + "/frames",
        artifacts: scratch.root + "/artifacts", recordMode: .missing, options: DiffOptions(matchLevel: level))
    }
    let blue = Self.screen(RGBAColor(red: 0x00, green: 0x7a, blue: 0xff))
    let newBlue = Self.screen(RGBAColor(red: 0x0a, green: 0x84, blue: 0xff))
    #expect(try checker(.perceptual).verify(CapturedFrame(blue), key: "Home").status == .recorded)
    #expect(try checker(.strict).verify(CapturedFrame(newBlue), key: "Home").status == .passed)
    let verdict = try checker(.perceptual).verify(CapturedFrame(newBlue), key: "Home")
    #expect(verdict.status == .failed)
    #expect(verdict.differentPixels == 100)
  }
}
