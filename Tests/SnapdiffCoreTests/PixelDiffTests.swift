import SnapdiffCore
import Testing

/// The engine's behaviour beyond pixelmatch: ignore regions, tolerances, sizes, regions.
@Suite("diff engine")
struct PixelDiffTests {
  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let black = RGBAColor(red: 0, green: 0, blue: 0)

  /// A white canvas with black rectangles painted on it.
  static func canvas(_ width: Int = 40, _ height: Int = 30, painting rects: [PixelRect] = [])
    -> RGBAImage
  {
    var image = RGBAImage(width: width, height: height, filledWith: white)
    for rect in rects {
      for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { image[x: x, y: y] = black } }
    }
    return image
  }

  @Test("identical images: identical, passed, nothing counted, gray diff image")
  func identical() {
    let image = Self.canvas(painting: [PixelRect(x: 3, y: 3, width: 5, height: 5)])
    let copy = RGBAImage(width: image.width, height: image.height, pixels: Array(image.pixels))
    let (result, diff) = PixelDiff().compareDrawingDiff(image, copy)
    #expect(result.identical && result.passed)
    #expect(result.differentPixels == 0 && result.regions.isEmpty)
    #expect(result.totalPixels == 1200 && result.differentRatio == 0)
    // Black at alpha 0.1 fades to 229 (255 - 255 * 0.1 = 229.5, truncated); white stays 255.
    #expect(diff[x: 4, y: 4] == RGBAColor(red: 229, green: 229, blue: 229))
    #expect(diff[x: 0, y: 0] == Self.white)
  }

  @Test("a changed block is counted, drawn red, and boxed")
  func changedBlock() {
    let baseline = Self.canvas()
    let current = Self.canvas(painting: [PixelRect(x: 10, y: 5, width: 6, height: 4)])
    let (result, diff) = PixelDiff().compareDrawingDiff(baseline, current)
    #expect(!result.identical && !result.passed)
    #expect(result.differentPixels == 24)
    #expect(result.regions == [PixelRect(x: 10, y: 5, width: 6, height: 4)])
    // The current image is darker there: diffColorAlt, which defaults to diffColor.
    #expect(diff[x: 12, y: 6] == .red)

    var options = DiffOptions()
    options.diffColorAlt = RGBAColor(red: 0, green: 255, blue: 0)
    let alt = PixelDiff(options: options).compareDrawingDiff(baseline, current).diffImage
    #expect(alt[x: 12, y: 6] == RGBAColor(red: 0, green: 255, blue: 0))
  }

  @Test("an ignore region suppresses the difference and shows what it hid")
  func ignoreRegion() {
    let baseline = Self.canvas()
    let current = Self.canvas(painting: [
      PixelRect(x: 2, y: 2, width: 4, height: 4), PixelRect(x: 30, y: 20, width: 2, height: 2),
    ])
    let options = DiffOptions(ignoreRegions: [PixelRect(x: 0, y: 0, width: 10, height: 10)])
    let (result, diff) = PixelDiff(options: options).compareDrawingDiff(baseline, current)
    #expect(result.differentPixels == 4)
    #expect(result.ignoredPixels == 16)
    #expect(result.regions == [PixelRect(x: 30, y: 20, width: 2, height: 2)])
    // Suppressed differences in the ignored colour; the rest of the region tinted blue.
    #expect(diff[x: 3, y: 3] == options.ignoredColor)
    #expect(diff[x: 8, y: 8] == RGBAColor(red: 191, green: 191, blue: 255))
    #expect(diff[x: 15, y: 15] == Self.white)
    #expect(diff[x: 30, y: 20] == .red)
  }

  @Test("regions outside the image are clamped, empty ones change nothing")
  func regionsOutsideTheImage() {
    let baseline = Self.canvas()
    let current = Self.canvas(painting: [PixelRect(x: 35, y: 25, width: 5, height: 5)])
    let options = DiffOptions(ignoreRegions: [
      PixelRect(x: 36, y: 26, width: 1000, height: 1000), PixelRect(x: 500, y: 500, width: 5, height: 5),
    ])
    let result = PixelDiff(options: options).compare(baseline, current)
    #expect(result.differentPixels == 25 - 16)
    #expect(result.ignoredPixels == 16)
  }

  @Test("tolerances: both limits must hold")
  func tolerances() {
    let baseline = Self.canvas()  // 1200 pixels
    let current = Self.canvas(painting: [PixelRect(x: 0, y: 0, width: 6, height: 2)])  // 12 differ
    func passes(_ pixels: Int, _ ratio: Double) -> Bool {
      PixelDiff(options: DiffOptions(maxDiffPixels: pixels, maxDiffRatio: ratio))
        .compare(baseline, current).passed
    }
    #expect(!passes(0, 0))
    #expect(!passes(11, 1))
    #expect(passes(12, 1))
    #expect(!passes(1000, 0.0099))
    #expect(passes(1000, 0.01))
    #expect(passes(12, 0.01))
    #expect(!passes(12, 0.005))
  }

  @Test("tolerances: a limit not set is absent, so either alone decides; neither allows nothing")
  func limitsNotSet() {
    let baseline = Self.canvas()  // 1200 pixels
    let current = Self.canvas(painting: [PixelRect(x: 0, y: 0, width: 6, height: 2)])  // 12 differ
    func passes(_ options: DiffOptions) -> Bool { PixelDiff(options: options).compare(baseline, current).passed }
    #expect(!passes(DiffOptions()))
    #expect(passes(DiffOptions(maxDiffRatio: 0.01)))
    #expect(!passes(DiffOptions(maxDiffRatio: 0.009)))
    #expect(passes(DiffOptions(maxDiffPixels: 12)))
    #expect(!passes(DiffOptions(maxDiffPixels: 11)))
    #expect(PixelDiff().compare(baseline, baseline).passed)
  }

  @Test("different sizes: every pixel outside the overlap differs, the diff covers both")
  func differentSizes() throws {
    let result = PixelDiff().compareDrawingDiff(
      try Fixtures.image("odiff/white4x4.png"), try Fixtures.image("odiff/purple8x8.png"))
    #expect(result.result.differentPixels == 64)
    #expect(result.result.totalPixels == 64)
    #expect(!result.result.sizesMatch && !result.result.passed && !result.result.identical)
    #expect(result.result.baselineSize == PixelSize(width: 4, height: 4))
    #expect(result.result.currentSize == PixelSize(width: 8, height: 8))
    #expect(result.diffImage.size == PixelSize(width: 8, height: 8))
    #expect(result.result.regions == [PixelRect(x: 0, y: 0, width: 8, height: 8)])

    // Equal content, one image taller: only the extra rows count.
    let short = Self.canvas(10, 10)
    let tall = Self.canvas(10, 14)
    let grown = PixelDiff().compareDrawingDiff(short, tall)
    #expect(grown.result.differentPixels == 40)
    #expect(grown.result.regions == [PixelRect(x: 0, y: 10, width: 10, height: 4)])
    #expect(grown.diffImage[x: 5, y: 12] == .red)
    #expect(grown.diffImage[x: 5, y: 5] == Self.white)

    // A change inside the overlap keeps its whole box; an ignore region covers extra rows too.
    let taller = Self.canvas(100, 80, painting: [PixelRect(x: 10, y: 5, width: 40, height: 20)])
    let options = DiffOptions(ignoreRegions: [PixelRect(x: 0, y: 50, width: 100, height: 10)])
    let mixed = PixelDiff(options: options).compare(Self.canvas(100, 50), taller)
    #expect(mixed.differentPixels == 40 * 20 + 100 * 20)
    #expect(mixed.ignoredPixels == 100 * 10)
    #expect(
      mixed.regions == [
        PixelRect(x: 10, y: 5, width: 40, height: 20), PixelRect(x: 0, y: 60, width: 100, height: 20),
      ])
  }

  @Test("odiff's rotated logo: the union of both sizes, counted")
  func rotatedLogo() throws {
    let result = PixelDiff().compare(
      try Fixtures.image("odiff/odiff-logo-dark.png"), try Fixtures.image("odiff/odiff-logo-dark-rotated.png"))
    #expect(result.totalPixels == 2119 * 2119)
    // Everything outside the 811×811 overlap, plus what differs inside it.
    #expect(result.differentPixels >= 2119 * 2119 - 811 * 811)
    #expect(result.differentPixels <= 2119 * 2119)
  }

  @Test("a differently sized pair from odiff: 199×199 against 200×200")
  func offByOne() throws {
    let options = DiffOptions()
    let result = PixelDiff(options: options).compare(
      try Fixtures.image("odiff/antialiasing-on.png"), try Fixtures.image("odiff/antialiasing-off-small.png"))
    #expect(result.totalPixels == 40000)
    #expect(result.differentPixels >= 399)
  }

  @Test("scattered differences group into a handful of boxes")
  func grouping() {
    let baseline = Self.canvas(400, 300)
    var spots: [PixelRect] = []
    for index in 0..<200 { spots.append(PixelRect(x: (index * 37) % 390, y: (index * 53) % 290, width: 1, height: 1)) }
    let result = PixelDiff().compare(baseline, Self.canvas(400, 300, painting: spots))
    #expect(result.differentPixels == Set(spots).count)
    #expect(!result.regions.isEmpty && result.regions.count <= 10)
    // Every differing pixel lies in a box.
    for spot in spots {
      #expect(result.regions.contains { $0.x <= spot.x && spot.x < $0.maxX && $0.y <= spot.y && spot.y < $0.maxY })
    }
  }

  @Test("two distant changes make two boxes; two close ones make one")
  func twoAreas() {
    let baseline = Self.canvas(200, 200)
    let far = Self.canvas(
      200, 200,
      painting: [
        PixelRect(x: 5, y: 5, width: 3, height: 3), PixelRect(x: 150, y: 150, width: 4, height: 2),
      ])
    #expect(
      PixelDiff().compare(baseline, far).regions == [
        PixelRect(x: 5, y: 5, width: 3, height: 3), PixelRect(x: 150, y: 150, width: 4, height: 2),
      ])
    let near = Self.canvas(
      200, 200,
      painting: [
        PixelRect(x: 40, y: 40, width: 3, height: 3), PixelRect(x: 46, y: 44, width: 2, height: 2),
      ])
    #expect(PixelDiff().compare(baseline, near).regions == [PixelRect(x: 40, y: 40, width: 8, height: 6)])
  }

  @Test("diffMask draws only differences, on transparent black")
  func diffMask() {
    let baseline = Self.canvas()
    let current = Self.canvas(painting: [PixelRect(x: 1, y: 1, width: 2, height: 2)])
    let diff = PixelDiff(options: DiffOptions(diffMask: true)).compareDrawingDiff(baseline, current).diffImage
    #expect(diff[x: 1, y: 1] == .red)
    #expect(diff[x: 20, y: 20] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
  }

  @Test("the same change on two different screens has the same hash; another change does not")
  func changeHash() {
    let header = PixelRect(x: 0, y: 0, width: 40, height: 3)
    let screenA = Self.canvas(painting: [PixelRect(x: 5, y: 10, width: 10, height: 10)])
    let screenB = Self.canvas(painting: [PixelRect(x: 20, y: 12, width: 8, height: 15)])
    let hashA = PixelDiff().compare(
      screenA, Self.canvas(painting: [PixelRect(x: 5, y: 10, width: 10, height: 10), header])
    ).changeHash
    let hashB = PixelDiff().compare(
      screenB, Self.canvas(painting: [PixelRect(x: 20, y: 12, width: 8, height: 15), header])
    ).changeHash
    let other = PixelDiff().compare(
      screenA,
      Self.canvas(painting: [
        PixelRect(x: 5, y: 10, width: 10, height: 10), PixelRect(x: 0, y: 0, width: 40, height: 4),
      ])
    ).changeHash
    #expect(hashA != nil && hashA?.count == 16)
    #expect(hashA == hashB)
    #expect(hashA != other)
    #expect(PixelDiff().compare(screenA, screenA).changeHash == nil)
  }

  @Test("options out of range are named")
  func optionProblems() {
    #expect(DiffOptions().problem == nil)
    #expect(DiffOptions(threshold: 1.5).problem == "threshold must be between 0 and 1, not 1.5")
    #expect(DiffOptions(maxDiffRatio: 2).problem?.hasPrefix("maxDiffRatio") == true)
    #expect(DiffOptions(maxDiffPixels: -1).problem?.hasPrefix("maxDiffPixels") == true)
  }
}
