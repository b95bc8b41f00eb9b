import SnapdiffCore
import Testing

/// `text-aware` outside text boxes: edges a rasteriser moved by less than a pixel pass, a thin
/// feature included; what nothing within a pixel explains, or a whole-pixel move, fails.
/// Frames made here: an image element with two dark strokes and the one-pixel gap between them,
/// text the tree does not have (as initials drawn inside an avatar image).
@Suite("text-aware: edges outside text boxes")
struct EdgeNoiseTests {
  static let ink = 28.0

  /// A 32×32 white frame at scale 2 whose `image` element covers it, with strokes over rows
  /// 4..<28 at the given columns and coverages (0...1).
  static func frame(_ columns: [Int: Double]) -> Frame {
    var image = RGBAImage(width: 32, height: 32, filledWith: RGBAColor(red: 255, green: 255, blue: 255, alpha: 255))
    for y in 4..<28 {
      for (x, coverage) in columns {
        let value = UInt8((255 - coverage * (255 - ink)).rounded())
        for channel in 0..<3 { image.pixels[(y * 32 + x) * 4 + channel] = value }
      }
    }
    let avatar = Element(
      elementType: .image, label: "Anna Kowalski", frame: ElementFrame(x: 0, y: 0, width: 16, height: 16))
    let root = Element(
      elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 16, height: 16), children: [avatar])
    return Frame(image: image, tree: ElementTree(scale: 2, screen: .init(width: 16, height: 16), root: root), path: "")
  }

  /// Two strokes three pixels wide (8...10, 12...14) and the gap at 11, drawn `offset` pixels to
  /// the right (a third: each edge pixel shares its coverage with the next).
  static func strokes(offset: Double) -> Frame {
    var columns: [Int: Double] = [:]
    for stroke in [8.0, 12.0] {
      let left = stroke + offset
      let right = left + 3
      for x in Int(left.rounded(.down))...Int(right.rounded(.up)) {
        let covered = min(Double(x + 1), right) - max(Double(x), left)
        if covered > 0 { columns[x] = covered }
      }
    }
    return frame(columns)
  }

  static func compare(_ baseline: Frame, _ current: Frame, _ level: MatchLevel) throws -> FrameComparison.Outcome {
    try FrameComparison(matchLevel: level).compare(baseline, current, drawing: true)
  }

  @Test("strokes and the one-pixel gap between them drawn a third of a pixel aside pass as edges")
  func thinGapDrawnAside() throws {
    let baseline = Self.strokes(offset: 0)
    let current = Self.strokes(offset: 1.0 / 3)
    #expect(try Self.compare(baseline, current, .perceptual).result.differentPixels > 0)
    let outcome = try Self.compare(baseline, current, .textAware)
    #expect(outcome.passed, "\(outcome.result.differentPixels) \(outcome.result.regions)")
    #expect(outcome.result.ignoredPixels > 0)
  }

  @Test("the strokes moved by one whole pixel fail: a move, though each pixel is a blend of its neighbours")
  func movedByOnePixel() throws {
    let outcome = try Self.compare(Self.strokes(offset: 0), Self.strokes(offset: 1), .textAware)
    #expect(!outcome.passed)
    #expect(outcome.result.differentPixels > 0)
  }

  @Test("the gap filled (a new glyph's ink where nothing within a pixel was as dark) fails")
  func gapFilled() throws {
    let filled = Self.frame(Dictionary(uniqueKeysWithValues: (8...14).map { ($0, 1.0) }))
    let outcome = try Self.compare(Self.strokes(offset: 0), filled, .textAware)
    #expect(!outcome.passed)
    #expect(outcome.result.differentPixels > 0)
  }

  @Test("a stroke's colour changed by ΔE00 about 3 fails: a flat neighbourhood explains no new colour")
  func colourChanged() throws {
    var lighter = Self.strokes(offset: 0)
    for index in stride(from: 0, to: lighter.image.pixels.count, by: 4) where lighter.image.pixels[index] == 28 {
      for channel in 0..<3 { lighter.image.pixels[index + channel] = 36 }
    }
    let outcome = try Self.compare(Self.strokes(offset: 0), lighter, .textAware)
    #expect(!outcome.passed)
  }
}
