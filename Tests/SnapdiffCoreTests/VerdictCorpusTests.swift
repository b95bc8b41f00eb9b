import SnapdiffCore
import Testing

/// Pairs of the Chromium corpus (`Fixtures/verdicts`, made by scripts/bench/verdicts.py): what
/// each level decides on noise and on real changes. The whole table is in docs/comparison.md.
@Suite("verdicts corpus")
struct VerdictCorpusTests {
  static func pair(_ baseline: String, _ current: String) throws -> (RGBAImage, RGBAImage) {
    (try Fixtures.image("verdicts/\(baseline).png"), try Fixtures.image("verdicts/\(current).png"))
  }

  static func compare(_ pair: (RGBAImage, RGBAImage), _ level: MatchLevel) -> DiffResult {
    PixelDiff(options: DiffOptions(matchLevel: level)).compare(pair.0, pair.1)
  }

  @Test("noise: the card rendered for Display P3 (tagged) passes strict and perceptual after conversion, fails raw")
  func displayP3Noise() throws {
    let pair = try Self.pair("card-same-plain", "card-same-display-p3")
    for level in [MatchLevel.strict, .perceptual] {
      let result = Self.compare(pair, level)
      #expect(result.passed, "\(level): \(result.differentPixels)")
      #expect(result.colorConversion?.currentSpace == "Display P3 Gamut with sRGB Transfer (iCCP)")
    }
    var raw = pair.1
    raw.colorSpace = nil
    #expect(Self.compare((pair.0, raw), .strict).differentPixels == 4810)
  }

  @Test("change: the button #007aff → #0a84ff is missed by strict (0 pixels), caught by perceptual")
  func colourChange() throws {
    let pair = try Self.pair("card-same-plain", "card-color-plain")
    #expect(Self.compare(pair, .strict).differentPixels == 0)
    #expect(Self.compare(pair, .perceptual).differentPixels == 4810)
    // Under Display P3 noise as well.
    let underNoise = try Self.pair("card-same-plain", "card-color-display-p3")
    #expect(Self.compare(underNoise, .strict).passed)
    #expect(!Self.compare(underNoise, .perceptual).passed)
  }

  @Test("change: the form's 1-px card border removed, under subpixel-positioning noise, fails every level")
  func borderUnderNoise() throws {
    let pair = try Self.pair("form-same-plain", "form-border-subpixel-off")
    #expect(Self.compare(pair, .strict).differentPixels == 1422)
    #expect(Self.compare(pair, .perceptual).differentPixels == 1551)
  }

  @Test("known limit: text rasterised without subpixel positioning fails every pixel level (text compared as text is #17 item 4)")
  func textRasterNoise() throws {
    let pair = try Self.pair("list-same-plain", "list-same-subpixel-off")
    #expect(Self.compare(pair, .strict).differentPixels == 183)
    #expect(Self.compare(pair, .perceptual).differentPixels == 275)
  }
}
