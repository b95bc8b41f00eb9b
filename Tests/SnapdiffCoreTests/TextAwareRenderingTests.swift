import SnapdiffCore
import Testing

/// `text-aware` on what renderers do to text and shapes that no one tuned it on (issue 27):
/// grey LCD text's colour read from its glyph cores, a baseline snap every text element shares,
/// a label's frame narrowed by hinting, a corner radius half a pixel larger; and the changes
/// beside each that must still fail. Frames made here: 64×40 pixels at scale 2, glyphs drawn
/// as bars.
@Suite("text-aware: rendering effects and the changes beside them")
struct TextAwareRenderingTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)

  static func color(_ hex: UInt32) -> RGBAColor {
    RGBAColor(red: UInt8(hex >> 16), green: UInt8((hex >> 8) & 0xff), blue: UInt8(hex & 0xff), alpha: 255)
  }

  static func paint(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ color: RGBAColor) {
    let offset = (y * image.width + x) * 4
    image.pixels[offset] = color.red
    image.pixels[offset + 1] = color.green
    image.pixels[offset + 2] = color.blue
    image.pixels[offset + 3] = color.alpha
  }

  /// A frame of `texts` (label, frame in points) and other elements, at scale 2.
  static func frame(_ image: RGBAImage, texts: [(String, ElementFrame)], others: [ElementFrame] = []) -> Frame {
    let children =
      texts.map { Element(elementType: .staticText, label: $0.0, frame: $0.1) }
      + others.map { Element(elementType: .other, frame: $0) }
    let size = ElementFrame(x: 0, y: 0, width: Double(image.width / 2), height: Double(image.height / 2))
    let root = Element(elementType: .application, frame: size, children: children)
    let tree = ElementTree(scale: 2, screen: .init(width: size.width, height: size.height), root: root)
    return Frame(image: image, tree: tree, path: "")
  }

  static func compare(_ baseline: Frame, _ current: Frame) throws -> FrameComparison.Outcome {
    try FrameComparison(matchLevel: .textAware).compare(baseline, current, drawing: false)
  }

  static func sentences(_ outcome: FrameComparison.Outcome) -> String {
    ((outcome.text ?? []).map(\.sentence) + (outcome.layout ?? []).map(\.sentence)).joined(separator: "; ")
      + " (\(outcome.result.differentPixels) pixels)"
  }

  // MARK: LCD subpixel text

  /// Grey text (`core`, one pixel wide) as five vertical strokes in a 40×24-pixel box, each
  /// with two edge pixels on either side: grey (`edge`) as grayscale anti-aliasing draws them,
  /// or coloured as LCD subpixel text does (the left edges' blue channel covered, the right
  /// edges' red), which makes the fringes four times as many pixels as the cores.
  static func greyText(core: UInt32, edge: UInt32, lcd: Bool) -> Frame {
    var image = RGBAImage(width: 64, height: 40, filledWith: white)
    let (r, g, b) = (core >> 16, (core >> 8) & 0xff, core & 0xff)
    let left = lcd ? (0xff << 16) | (0xbb << 8) | b : edge
    let right = lcd ? (r << 16) | (0xbb << 8) | 0xff : edge
    for stroke in 0..<5 {
      let x = 10 + 8 * stroke
      for y in 8..<32 {
        paint(&image, x - 2, y, color(left))
        paint(&image, x - 1, y, color(left))
        paint(&image, x, y, color(core))
        paint(&image, x + 1, y, color(right))
        paint(&image, x + 2, y, color(right))
      }
    }
    return frame(image, texts: [("Sale", ElementFrame(x: 2, y: 2, width: 28, height: 16))])
  }

  @Test("grey text drawn as LCD subpixel text, its fringes outnumbering its cores, passes: the colour is the cores'")
  func lcdGreyText() throws {
    let baseline = Self.greyText(core: 0x777778, edge: 0x999999, lcd: false)
    let outcome = try Self.compare(baseline, Self.greyText(core: 0x777778, edge: 0x999999, lcd: true))
    #expect(outcome.passed, "\(Self.sentences(outcome))")
  }

  @Test("grey text whose colour changed (#777778 → #5F5F60, ΔE00 about 9) fails, under LCD text too")
  func greyTextColourChanged() throws {
    let baseline = Self.greyText(core: 0x777778, edge: 0x999999, lcd: false)
    for lcd in [false, true] {
      let outcome = try Self.compare(baseline, Self.greyText(core: 0x5f5f60, edge: 0x999999, lcd: lcd))
      #expect(!outcome.passed)
      #expect(
        outcome.text?.first?.detail.contains("its text colour changed #777778 → #5F5F60") == true,
        "\(Self.sentences(outcome))")
    }
  }

  // MARK: A baseline snap

  /// Four labels, each a 24×6-pixel dark bar with grey rows above and below, in frames 16 pt
  /// high; `moved[i]` pixels down inside its unchanged frame.
  static func labels(moved: [Int]) -> Frame {
    var image = RGBAImage(width: 64, height: 80, filledWith: white)
    var texts: [(String, ElementFrame)] = []
    for (index, down) in moved.enumerated() {
      let top = 4 + 20 * index + 6 + down
      for x in 8..<32 {
        paint(&image, x, top, color(0xaaaaaa))
        for y in top + 1...top + 6 { paint(&image, x, y, color(0x1c1c1e)) }
        paint(&image, x, top + 7, color(0xaaaaaa))
      }
      texts.append(("Label \(index)", ElementFrame(x: 2, y: Double(2 + 10 * index), width: 28, height: 10)))
    }
    return frame(image, texts: texts)
  }

  @Test("every label's ink one pixel up inside its frame passes: a baseline snap the page shares")
  func baselineSnap() throws {
    let outcome = try Self.compare(Self.labels(moved: [0, 0, 0, 0]), Self.labels(moved: [-1, -1, -1, -1]))
    #expect(outcome.passed, "\(Self.sentences(outcome))")
  }

  @Test("one label's ink moved a pixel up inside its frame, the others still, fails")
  func oneLabelMoved() throws {
    let outcome = try Self.compare(Self.labels(moved: [0, 0, 0, 0]), Self.labels(moved: [0, -1, 0, 0]))
    #expect(!outcome.passed)
    #expect(outcome.text?.map(\.text) == ["Label 1"], "\(Self.sentences(outcome))")
  }

  @Test("labels moved different ways (two up, two down) fail: no shift they share")
  func labelsMovedApart() throws {
    let outcome = try Self.compare(Self.labels(moved: [0, 0, 0, 0]), Self.labels(moved: [-1, 1, -1, 1]))
    #expect(!outcome.passed)
  }

  // MARK: Full hinting

  /// A label of six glyphs (4×16-pixel bars, 8 pixels apart) in a frame `width` points wide;
  /// glyph i drawn `drift × i` pixels left (rounded down), as hinting rounds each advance.
  static func hintedLabel(_ label: String, width: Double, drift: Double) -> Frame {
    var image = RGBAImage(width: 64, height: 40, filledWith: white)
    for glyph in 0..<6 {
      let x = 6 + 8 * glyph - Int((drift * Double(glyph)).rounded(.down))
      for y in 12..<28 {
        for column in x..<x + 4 { paint(&image, column, y, color(0x1c1c1e)) }
      }
    }
    return frame(image, texts: [(label, ElementFrame(x: 2, y: 4, width: width, height: 12))])
  }

  @Test("a label 2 pt narrower with its glyphs drawn closer (full hinting) passes: no layout change")
  func hintedNarrower() throws {
    let outcome = try Self.compare(
      Self.hintedLabel("Hinted", width: 24, drift: 0), Self.hintedLabel("Hinted", width: 22, drift: 0.7))
    #expect(outcome.passed, "\(Self.sentences(outcome))")
    #expect(outcome.layout == [])
  }

  @Test("a label 5 pt narrower fails as a layout change (beyond what hinting does); relabelled, fails on its text")
  func narrowerBeyondHinting() throws {
    let baseline = Self.hintedLabel("Hinted", width: 24, drift: 0)
    let narrower = try Self.compare(baseline, Self.hintedLabel("Hinted", width: 19, drift: 0.7))
    #expect(!narrower.passed)
    #expect(narrower.layout?.isEmpty == false, "\(Self.sentences(narrower))")
    let relabelled = try Self.compare(baseline, Self.hintedLabel("Hunted", width: 22, drift: 0.7))
    #expect(!relabelled.passed)
    #expect(relabelled.text?.first?.detail == "label 'Hinted' → 'Hunted'", "\(Self.sentences(relabelled))")
  }

  // MARK: Corner radius

  /// A 48×28-pixel card at (8, 6) with a 1-pixel #E0E0E6 border, a #F4F4F6 inside and corners
  /// of `radius` pixels, anti-aliased from 4×4 samples per pixel; no text.
  static func card(radius: Double) -> Frame {
    var image = RGBAImage(width: 64, height: 40, filledWith: white)
    let (left, top, width, height) = (8.0, 6.0, 48.0, 28.0)
    let border = (r: 0xe0, g: 0xe0, b: 0xe6)
    let inside = (r: 0xf4, g: 0xf4, b: 0xf6)
    for y in 0..<40 {
      for x in 0..<64 {
        var sums = (r: 0.0, g: 0.0, b: 0.0)
        for sample in 0..<16 {
          let px = Double(x) + (Double(sample % 4) + 0.5) / 4
          let py = Double(y) + (Double(sample / 4) + 0.5) / 4
          // Signed distance to the rounded rectangle: negative inside.
          let qx = abs(px - (left + width / 2)) - (width / 2 - radius)
          let qy = abs(py - (top + height / 2)) - (height / 2 - radius)
          let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
          let distance = outside + min(max(qx, qy), 0) - radius
          let shade = distance > 0 ? (r: 255, g: 255, b: 255) : distance > -1 ? border : inside
          sums = (sums.r + Double(shade.r), sums.g + Double(shade.g), sums.b + Double(shade.b))
        }
        paint(
          &image, x, y,
          RGBAColor(
            red: UInt8((sums.r / 16).rounded()), green: UInt8((sums.g / 16).rounded()),
            blue: UInt8((sums.b / 16).rounded()), alpha: 255))
      }
    }
    return frame(image, texts: [], others: [ElementFrame(x: 4, y: 3, width: 24, height: 14)])
  }

  /// These pairs, rasterised from 4×4 samples, pass before `EdgeNoise`'s stand-alone pixels
  /// and opposite moves too (pixelmatch's anti-aliasing test takes their fringe); Chromium's
  /// `cards/radius` of the style corpus (`VerdictCorpus`-style, `verdicts.py --styles`) is the
  /// measured case that failed before. They pin that neither rule lets the real changes below
  /// through while the noise passes.
  @Test("a card's corner radius half a pixel larger passes: edges rasterised another way")
  func radiusHalfAPixelLarger() throws {
    for radius in [10.0, 14.0, 20.0] {
      let outcome = try Self.compare(Self.card(radius: radius), Self.card(radius: radius + 0.5))
      #expect(outcome.passed, "radius \(radius): \(Self.sentences(outcome)) \(outcome.result.regions)")
    }
  }

  @Test("a card's corner radius changed 10 → 4 pixels fails; the card moved a pixel right fails")
  func radiusChanged() throws {
    let baseline = Self.card(radius: 10)
    #expect(try !Self.compare(baseline, Self.card(radius: 4)).passed)
    var moved = Self.card(radius: 10)
    let image = moved.image
    for y in 0..<40 {
      for x in 1..<64 {
        let offset = (y * 64 + x - 1) * 4
        let pixel = RGBAColor(
          red: image.pixels[offset], green: image.pixels[offset + 1], blue: image.pixels[offset + 2], alpha: 255)
        Self.paint(&moved.image, x, y, pixel)
      }
    }
    #expect(try !Self.compare(baseline, moved).passed)
  }
}
