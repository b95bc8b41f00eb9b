import CPNGCodec
import SnapdiffCore
import Testing

/// A comparison that keeps its marks (`compareKeepingMarks`) draws the diff image without
/// comparing again, and `diffPNG()` draws it straight as palette indexes: both must give, pixel
/// for pixel, what the drawing pass (`compareDrawingDiff`) gives, whatever the options.
@Suite("diff images drawn from marks")
struct DiffOutcomeTests {
  /// The options the drawing differs under: marker colours, masks, tints, the fade.
  static let variants: [(String, DiffOptions)] = {
    var alternative = DiffOptions(threshold: 0.05)
    alternative.diffColorAlt = RGBAColor(red: 0, green: 200, blue: 0)
    var semiTransparent = DiffOptions()
    semiTransparent.aaColor = RGBAColor(red: 255, green: 255, blue: 0, alpha: 128)
    return [
      ("defaults", DiffOptions()),
      ("threshold 0.05, alternative colour", alternative),
      ("includeAA", DiffOptions(includeAA: true)),
      ("diffMask", DiffOptions(diffMask: true)),
      ("alpha 1 (over 256 grays: RGB)", DiffOptions(alpha: 1)),
      ("alpha 0", DiffOptions(alpha: 0)),
      ("a semi-transparent marker (tRNS)", semiTransparent),
      (
        "ignore regions",
        DiffOptions(
          ignoreRegions: [PixelRect(x: 0, y: 0, width: 40, height: 30), PixelRect(x: 30, y: 20, width: 200, height: 9)])
      ),
      ("perceptual", DiffOptions(matchLevel: .perceptual)),
    ]
  }()

  static let pairs = ["1", "2", "3", "4", "5", "6", "7"]

  /// Checks every way the outcome gives the diff image against the drawing pass.
  static func expectSameAsDrawingPass(
    _ baseline: RGBAImage, _ current: RGBAImage, _ options: DiffOptions, _ name: String
  ) throws {
    let engine = PixelDiff(options: options)
    let drawn = engine.compareDrawingDiff(baseline, current)
    let outcome = engine.compareKeepingMarks(baseline, current)
    // Marks are kept for images of one size with at most an eighth of their pixels marked.
    let result = drawn.result
    let marked = result.differentPixels + result.ignoredPixels + (options.diffMask ? 0 : result.antialiasedPixels)
    let fromMarks = baseline.size == current.size && marked <= max(result.totalPixels / 8, 1)
    #expect(outcome.drawsFromMarks == fromMarks, "\(name): drawn from marks")
    #expect(outcome.result == drawn.result, "\(name): result")
    #expect(outcome.result == engine.compare(baseline, current), "\(name): result against compare")
    #expect(outcome.diffImage() == drawn.diffImage, "\(name): diffImage()")
    let png = try outcome.diffPNG()
    #expect(try PNGDecoder().decode(png) == drawn.diffImage, "\(name): diffPNG()")
    #expect(png == (try PNGEncoder(speed: .fast).encode(drawn.diffImage)) || png[25] == 3, "\(name): format")
  }

  @Test("pixelmatch's pairs under every drawing option", arguments: pairs)
  func pixelmatchPairs(_ pair: String) throws {
    let baseline = try Fixtures.image("pixelmatch/\(pair)a.png")
    let current = try Fixtures.image("pixelmatch/\(pair)b.png")
    for (name, options) in Self.variants {
      try Self.expectSameAsDrawingPass(baseline, current, options, "\(pair): \(name)")
      try Self.expectSameAsDrawingPass(baseline, baseline, options, "\(pair) with itself: \(name)")
    }
  }

  @Test("most of pixelmatch's pairs are drawn from their marks, a screen changed everywhere is not")
  func whichWay() throws {
    let fromMarks = try Self.pairs.filter { pair in
      PixelDiff().compareKeepingMarks(
        try Fixtures.image("pixelmatch/\(pair)a.png"), try Fixtures.image("pixelmatch/\(pair)b.png")
      ).drawsFromMarks
    }
    #expect(fromMarks == ["1", "3", "4", "5", "6", "7"])
    let white = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    let black = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
    #expect(!PixelDiff().compareKeepingMarks(white, black).drawsFromMarks)
  }

  @Test("the usual diff image is written as a palette, alpha 1 as RGB")
  func formats() throws {
    let baseline = try Fixtures.image("pixelmatch/1a.png")
    let current = try Fixtures.image("pixelmatch/1b.png")
    let colourType = 25  // signature 8, IHDR length and type 8, width and height 8, bit depth 1
    #expect(try PixelDiff().compareKeepingMarks(baseline, current).diffPNG()[colourType] == 3)
    #expect(
      try PixelDiff(options: DiffOptions(alpha: 1)).compareKeepingMarks(baseline, current).diffPNG()[colourType] == 2)
  }

  /// More marked pixels than are kept (an eighth of the image): the diff image comes from a
  /// drawing pass, and is the same.
  @Test("a screen changed everywhere, images of different sizes, tagged colour spaces")
  func drawingPassCases() throws {
    let white = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    var striped = white
    for y in 0..<40 { for x in 0..<60 where (x + y) % 3 == 0 { striped[x: x, y: y] = .red } }
    let black = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
    let wider = RGBAImage(width: 70, height: 30, filledWith: .yellow)
    for (name, options) in Self.variants {
      try Self.expectSameAsDrawingPass(white, black, options, "everywhere: \(name)")
      try Self.expectSameAsDrawingPass(white, striped, options, "a third: \(name)")
      try Self.expectSameAsDrawingPass(striped, wider, options, "sizes: \(name)")
    }
    // A Display P3 screenshot against its sRGB twin: converted before comparing, and the gray
    // is drawn from the converted baseline.
    let p3 = try Fixtures.image("color/screen-p3.png")
    let srgb = try Fixtures.image("color/screen-srgb.png")
    try Self.expectSameAsDrawingPass(p3, srgb, DiffOptions(), "P3 against sRGB")
    try Self.expectSameAsDrawingPass(p3, srgb, DiffOptions(matchLevel: .perceptual), "P3 against sRGB, perceptual")
  }

  /// The palette writer takes scanlines as drawn and trusts nothing: a filter byte other than 0
  /// or an index past the palette's end is refused, not written into a file that will not decode.
  @Test("the palette writer refuses bad scanlines and sizes")
  func paletteWriterChecks() throws {
    func encode(_ lines: [UInt8], colors: [UInt32], width: UInt32, height: UInt32) -> (Bool, String) {
      var encoded = cpng_encoded()
      defer { cpng_encoded_free(&encoded) }
      let ok = lines.withUnsafeBufferPointer { l in
        colors.withUnsafeBufferPointer { c in
          cpng_encode_palette(l.baseAddress, c.baseAddress, Int32(c.count), width, height, &encoded)
        }
      }
      let message = withUnsafeBytes(of: &encoded.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if ok != 0 {
        let image = try? PNGDecoder().decode([UInt8](UnsafeBufferPointer(start: encoded.bytes, count: encoded.size)))
        return (image != nil, message)
      }
      return (false, message)
    }
    let red: UInt32 = 0xff00_00ff
    let blue: UInt32 = 0xffff_0000
    #expect(encode([0, 0, 1, 0, 1, 0], colors: [red, blue], width: 2, height: 2).0)
    #expect(
      encode([0, 0, 2, 0, 1, 0], colors: [red, blue], width: 2, height: 2).1
        == "a palette index is past the palette's end")
    #expect(
      encode([0, 0, 1, 1, 1, 0], colors: [red, blue], width: 2, height: 2).1
        == "a palette scanline must start with filter 0")
    #expect(encode([0, 0], colors: [], width: 1, height: 1).1 == "a palette needs 1 to 256 colours")
    #expect(encode([], colors: [red], width: 0, height: 1).1 == "a PNG needs at least one pixel")
    // Large enough to be deflated in two halves on two threads (over 2^18 pixels).
    var large = [UInt8](repeating: 0, count: 601 * 600)
    #expect(encode(large, colors: [red], width: 600, height: 600).0)
    large[601 * 599 + 300] = 1
    #expect(encode(large, colors: [red], width: 600, height: 600).1 == "a palette index is past the palette's end")
    large[601 * 599 + 300] = 0
    large[601 * 450] = 4
    #expect(encode(large, colors: [red], width: 600, height: 600).1 == "a palette scanline must start with filter 0")
  }
}
