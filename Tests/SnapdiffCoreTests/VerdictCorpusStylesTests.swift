import SnapdiffCore
import Testing

/// Pairs of the style corpus (`Fixtures/verdicts-styles`, `scripts/bench/verdicts.py
/// --styles`): pages of other designs under rasterisations the other corpora lack (issue 27).
/// The noise pairs text-aware failed before its glyph colour came from the cores and before
/// `EdgeNoise` read opposite moves as a shape that grew, and the changes beside them.
@Suite("verdicts corpus, other styles")
struct VerdictCorpusStylesTests {
  static func compare(_ baseline: String, _ current: String) throws -> FrameComparison.Outcome {
    try FrameComparison(matchLevel: .textAware).compare(
      try Frame.load(Fixtures.path("verdicts-styles/\(baseline).png")),
      try Frame.load(Fixtures.path("verdicts-styles/\(current).png")), drawing: false)
  }

  @Test("noise: 9-pt grey captions under full hinting and LCD text (RGB, BGR), radii half a pixel larger, pass")
  func cardsUnderNoise() throws {
    for current in ["cards-same-hinting", "cards-same-lcd", "cards-same-lcd-bgr", "cards-radius-plain"] {
      let outcome = try Self.compare("cards-same-plain", current)
      #expect(outcome.passed, "\(current): \((outcome.text ?? []).map(\.sentence)) \(outcome.result.regions)")
    }
  }

  @Test("changes: grey text's colour under LCD text, a real radius change, an inset divider fail")
  func changesBesideThem() throws {
    let byline = try Self.compare("article-same-plain", "article-text-color-lcd-bgr")
    #expect(!byline.passed)
    #expect(byline.text?.first?.detail.contains("its text colour changed #777778 → #5F5F60") == true)
    #expect(try !Self.compare("cards-same-plain", "cards-radius-change-lcd").passed)
    #expect(try !Self.compare("nav-same-plain", "nav-inset-plain").passed)
  }
}
