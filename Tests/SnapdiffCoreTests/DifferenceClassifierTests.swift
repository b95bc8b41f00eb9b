import SnapdiffCore
import Testing

/// `DifferenceClassifier` (issue #27, item 3): a small pair made here for each kind of
/// difference, compared at `exact` (so that every differing pixel is in the regions) and
/// classified as a failed check would be.
@Suite("kinds of difference")
struct DifferenceClassifierTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let dark = RGBAColor(red: 20, green: 30, blue: 40)

  static func canvas(width: Int = 60, height: Int = 40) -> RGBAImage {
    RGBAImage(width: width, height: height, filledWith: white)
  }

  static func fill(_ image: inout RGBAImage, _ rect: PixelRect, _ color: RGBAColor) {
    for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { image[x: x, y: y] = color } }
  }

  /// What the classifier says of a failed exact comparison of the two.
  static func classify(_ baseline: RGBAImage, _ current: RGBAImage) -> DifferenceClass? {
    let result = PixelDiff(options: DiffOptions(matchLevel: .exact)).compare(baseline, current)
    return DifferenceClassifier().classify(baseline, current, regions: result.regions)
  }

  @Test("nothing differs: no kind")
  func identical() {
    #expect(Self.classify(Self.canvas(), Self.canvas()) == nil)
  }

  @Test("an edge's blend redrawn: anti-aliasing only, rendering; strict does not even count it")
  func antialiasing() {
    // A dark square with a gray anti-aliased column on its left edge, a shade darker after.
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 10, y: 10, width: 10, height: 10), RGBAColor(red: 0, green: 0, blue: 0))
    var after = before
    Self.fill(&before, PixelRect(x: 9, y: 10, width: 1, height: 10), RGBAColor(red: 128, green: 128, blue: 128))
    Self.fill(&after, PixelRect(x: 9, y: 10, width: 1, height: 10), RGBAColor(red: 100, green: 100, blue: 100))
    let difference = Self.classify(before, after)
    #expect(difference?.kind == .antialiasing)
    #expect(difference?.isRenderingOnly == true)
    #expect(difference?.sentence == "anti-aliasing only")
    #expect(PixelDiff().compare(before, after).differentPixels == 0)
  }

  @Test("a glyph's ragged edge drawn again: re-rendered, every pixel matched within 1 px")
  func rerendered() {
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 10, y: 8, width: 3, height: 20), Self.dark)
    var after = before
    for y in [10, 14, 19, 23] { after[x: 13, y: y] = Self.dark }
    for y in [12, 17, 25] { after[x: 10, y: y] = Self.white }
    let difference = Self.classify(before, after)
    #expect(difference?.kind == .rerendered)
    #expect(difference?.group == "rendering")
  }

  @Test("a whole-screen tint of two levels: re-rendered (nothing differs beyond the threshold)")
  func faintTint() {
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 0, y: 0, width: 60, height: 40), RGBAColor(red: 200, green: 200, blue: 200))
    var after = before
    for index in after.pixels.indices where index % 4 != 3 { after.pixels[index] += 2 }
    #expect(Self.classify(before, after)?.kind == .rerendered)
  }

  /// Bands of a pattern from row 20 down (a list's rows), drawn `offset` rows lower.
  static func list(offset: Int) -> RGBAImage {
    var image = canvas(height: 60)
    fill(&image, PixelRect(x: 0, y: 0, width: 60, height: 6), RGBAColor(red: 240, green: 240, blue: 245))
    for y in 20..<52 where (y / 3) % 2 == 0 {
      for x in 4..<56 where (x / 4 + y / 6) % 3 != 0 {
        image[x: x, y: y + offset] = RGBAColor(red: UInt8(30 * (y % 5)), green: 40, blue: UInt8(200 - x))
      }
    }
    return image
  }

  @Test("content moved down by whole pixels below a row: shifted by N px below y; 2 px is rendering, 6 px is not")
  func shifted() {
    let two = Self.classify(Self.list(offset: 0), Self.list(offset: 2))
    #expect(two?.kind == .shifted)
    #expect(two?.shift == 2)
    #expect(two?.row == 20)
    #expect(two?.sentence == "content shifted down by 2 px below y=20")
    #expect(two?.isRenderingOnly == true)
    let six = Self.classify(Self.list(offset: 6), Self.list(offset: 0))
    #expect(six?.kind == .shifted)
    #expect(six?.shift == -6)
    #expect(six?.isRenderingOnly == false)
    #expect(six?.group == "shifted")
  }

  @Test("a 1-px separator changes colour: hairline colour, with its ΔE00")
  func hairline() {
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 0, y: 30, width: 60, height: 1), RGBAColor(red: 198, green: 198, blue: 200))
    var after = Self.canvas()
    Self.fill(&after, PixelRect(x: 0, y: 30, width: 60, height: 1), RGBAColor(red: 120, green: 120, blue: 200))
    let difference = Self.classify(before, after)
    #expect(difference?.kind == .hairline)
    #expect((difference?.deltaE ?? 0) > 10)
    #expect(difference?.sentence.hasPrefix("hairline colour changed by ΔE00 ") == true)
  }

  @Test("a button's fill changes colour: colour changed by ΔE00, not an element")
  func color() {
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 10, y: 10, width: 30, height: 12), RGBAColor(red: 0, green: 122, blue: 255))
    var after = Self.canvas()
    Self.fill(&after, PixelRect(x: 10, y: 10, width: 30, height: 12), RGBAColor(red: 255, green: 59, blue: 48))
    let difference = Self.classify(before, after)
    #expect(difference?.kind == .color)
    #expect((difference?.deltaE ?? 0) > 30)
    #expect(difference?.isRenderingOnly == false)
  }

  @Test("something drawn over an area, or a divider shortened: element changed")
  func element() {
    var before = Self.canvas()
    Self.fill(&before, PixelRect(x: 0, y: 0, width: 60, height: 40), RGBAColor(red: 200, green: 200, blue: 200))
    var after = before
    Self.fill(&after, PixelRect(x: 20, y: 20, width: 6, height: 6), Self.dark)
    #expect(Self.classify(before, after)?.kind == .element)
    var divider = Self.canvas()
    Self.fill(&divider, PixelRect(x: 0, y: 30, width: 60, height: 1), RGBAColor(red: 198, green: 198, blue: 200))
    var inset = Self.canvas()
    Self.fill(&inset, PixelRect(x: 16, y: 30, width: 44, height: 1), RGBAColor(red: 198, green: 198, blue: 200))
    #expect(Self.classify(divider, inset)?.kind == .element)
  }

  @Test("images of different sizes: size changed")
  func size() {
    let result = PixelDiff().compare(Self.canvas(), Self.canvas(height: 44))
    #expect(
      DifferenceClassifier().classify(Self.canvas(), Self.canvas(height: 44), regions: result.regions)?.kind == .size)
  }

  @Test("the same pair gives the same answer")
  func deterministic() {
    let answers = (0..<3).map { _ in Self.classify(Self.list(offset: 0), Self.list(offset: 2)) }
    #expect(Set(answers.compactMap { $0 }).count == 1)
  }
}
