import SnapdiffCore
import Testing

/// Colour profiles: the chunk walk, and conversion to sRGB when two images' tags differ
/// (fixtures made by scripts/make_color_fixtures.py with LittleCMS).
@Suite("colour management")
struct ColorManagementTests {
  static let p3 = "color/screen-p3.png"
  static let srgb = "color/screen-srgb.png"

  @Test("a Display P3 screenshot against its sRGB twin: fails compared raw, passes converted, and says so")
  func displayP3AgainstSRGB() throws {
    let tagged = try Fixtures.image(Self.p3)
    let untagged = try Fixtures.image(Self.srgb)
    guard case .iccProfile(let name, _)? = tagged.colorSpace else {
      Issue.record("no iCCP read from \(Self.p3)")
      return
    }
    #expect(name == "Display P3")
    #expect(untagged.colorSpace == nil)
    // Raw samples: the P3 encoding of the same colours is other bytes.
    var raw = tagged
    raw.colorSpace = nil
    let before = PixelDiff().compare(raw, untagged)
    #expect(before.differentPixels == 256 && !before.passed, "\(before.differentPixels)")
    #expect(before.colorConversion == nil)
    for level in [MatchLevel.strict, .exact, .perceptual] {
      let after = PixelDiff(options: DiffOptions(matchLevel: level == .exact ? .strict : level)).compare(
        tagged, untagged)
      #expect(after.passed, "\(level): \(after.differentPixels) differ")
      #expect(after.colorConversion?.baselineSpace == "Display P3 (iCCP)")
      #expect(after.colorConversion?.baselineConverted == true)
      #expect(after.colorConversion?.currentConverted == false)
    }
    // The other way round, the current image is the converted one.
    let swapped = PixelDiff().compare(untagged, tagged)
    #expect(swapped.passed && swapped.colorConversion?.currentConverted == true)
  }

  @Test("a real change under conversion still fails")
  func changeAfterConversion() throws {
    let tagged = try Fixtures.image(Self.p3)
    var changed = try Fixtures.image(Self.srgb)
    // The iOS-blue patch (x 0..<8, y 0..<16) turned red.
    for y in 0..<16 { for x in 0..<8 { changed[x: x, y: y] = RGBAColor(red: 255, green: 0, blue: 0) } }
    let result = PixelDiff().compare(tagged, changed)
    #expect(result.differentPixels == 128 && result.colorConversion != nil)
  }

  @Test("equal tags compare raw (no conversion), except at the perceptual level")
  func equalTags() throws {
    let tagged = try Fixtures.image(Self.p3)
    #expect(PixelDiff().compare(tagged, tagged).colorConversion == nil)
    let perceptual = PixelDiff(options: DiffOptions(matchLevel: .perceptual)).compare(tagged, tagged)
    #expect(perceptual.colorConversion?.baselineConverted == true)
    #expect(perceptual.colorConversion?.currentConverted == true)
    #expect(perceptual.identical)
  }

  @Test("gAMA: 1/2.2 with no cHRM reads as sRGB; a linear gamma (1.0) is converted")
  func gamma() throws {
    func file(gamma: UInt32?) -> [UInt8] {
      PNGFileBuilder(width: 4, height: 4, colorType: 2, bitDepth: 8, gamma: gamma) { _, _, channel in
        channel == 0 ? 200 : 60
      }.build()
    }
    let plain = try PNGDecoder().decode(file(gamma: nil))
    let sRGBLike = try PNGDecoder().decode(file(gamma: 45_455))
    let linear = try PNGDecoder().decode(file(gamma: 100_000))
    // sRGB samples are not tagged at all: they equal an untagged image's.
    #expect(sRGBLike.colorSpace == nil && sRGBLike == plain)
    #expect(ColorSpaceTag.gamma(45_455, chromaticities: nil).isSRGB)
    #expect(
      !ColorSpaceTag.gamma(
        45_455,
        chromaticities: .init(
          whiteX: 31_270, whiteY: 32_900, redX: 68_000, redY: 32_000, greenX: 26_500, greenY: 69_000,
          blueX: 15_000, blueY: 6_000)
      ).isSRGB)
    #expect(PixelDiff().compare(plain, sRGBLike).colorConversion == nil)
    let converted = PixelDiff().compare(plain, linear)
    #expect(converted.colorConversion?.currentSpace == "gamma 1.0 (gAMA)")
    // Linear samples read through a 1.0 gamma are lighter in sRGB: (200, 60, 60) is not them.
    #expect(converted.differentPixels == 16)
  }

  @Test("a damaged iCCP is dropped, as libpng drops it: the image decodes and compares raw")
  func damagedProfile() throws {
    var chunks = PNGFileBuilder(width: 2, height: 2, colorType: 2, bitDepth: 8) { _, _, _ in 128 }.chunks()
    chunks.insert(("iCCP", Array("Broken".utf8) + [0, 0] + [1, 2, 3, 4, 5, 6, 7, 8]), at: 1)
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in chunks { file += PNGBytes.chunk(type, data) }
    let image = try PNGDecoder().decode(file, path: "broken-iccp.png")
    let plain = RGBAImage(width: 2, height: 2, filledWith: RGBAColor(red: 128, green: 128, blue: 128))
    let result = PixelDiff().compare(image, plain)
    #expect(result.passed && result.colorConversion == nil)
  }
}
