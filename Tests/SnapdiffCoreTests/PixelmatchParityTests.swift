import SnapdiffCore
import Testing

/// One row of pixelmatch's own test table (`Fixtures/pixelmatch/expected.json`).
struct ParityCase: Sendable, CustomTestStringConvertible {
  var baseline: String
  var current: String
  var options: DiffOptions
  var mismatched: Int
  var expectedDiff: String?

  var testDescription: String { "\(baseline) vs \(current), \(options.summary) → \(mismatched)" }

  static func pixelmatch() -> [ParityCase] {
    (try? Fixtures.expectations("pixelmatch"))?.map { entry in
      ParityCase(
        baseline: "pixelmatch/" + (entry["a"] as! String),
        current: "pixelmatch/" + (entry["b"] as! String),
        options: DiffOptions(pixelmatch: entry["options"] as! [String: Any]),
        mismatched: entry["mismatched"] as! Int,
        expectedDiff: (entry["diff"] as? String).map { "pixelmatch/" + $0 })
    } ?? []
  }

  /// odiff's pairs of the same size, with pixelmatch v6's answer under matching settings.
  static func odiff() -> [ParityCase] {
    (try? Fixtures.expectations("odiff"))?.compactMap { entry in
      guard let answer = entry["pixelmatch_v6"] as? [String: Any] else { return nil }
      return ParityCase(
        baseline: "odiff/" + (entry["a"] as! String),
        current: "odiff/" + (entry["b"] as! String),
        options: DiffOptions(pixelmatch: answer["options"] as! [String: Any]),
        mismatched: answer["mismatched"] as! Int, expectedDiff: nil)
    } ?? []
  }
}

extension DiffOptions {
  var summary: String {
    "threshold \(threshold)\(includeAA ? ", includeAA" : "")\(diffMask ? ", diffMask" : "")"
  }
}

@Suite("pixelmatch parity")
struct PixelmatchParityTests {
  @Test("the fixture tables are there")
  func fixturesArePresent() {
    #expect(ParityCase.pixelmatch().count == 17)
    #expect(ParityCase.odiff().count == 7)
  }

  @Test("counts equal pixelmatch v6's", arguments: ParityCase.pixelmatch())
  func counts(_ parity: ParityCase) throws {
    let baseline = try Fixtures.image(parity.baseline)
    let current = try Fixtures.image(parity.current)
    let engine = PixelDiff(options: parity.options)
    #expect(engine.compare(baseline, current).differentPixels == parity.mismatched)
    // Drawing must not change the count.
    #expect(engine.compareDrawingDiff(baseline, current).result.differentPixels == parity.mismatched)
  }

  @Test(
    "diff images equal pixelmatch's, pixel for pixel",
    arguments: ParityCase.pixelmatch().filter { $0.expectedDiff != nil })
  func diffImages(_ parity: ParityCase) throws {
    let baseline = try Fixtures.image(parity.baseline)
    let current = try Fixtures.image(parity.current)
    let drawn = PixelDiff(options: parity.options).compareDrawingDiff(baseline, current).diffImage
    let expected = try Fixtures.image(parity.expectedDiff!)
    #expect(drawn.size == expected.size)
    let mismatches = zip(0..<drawn.pixelCount, 0..<expected.pixelCount).filter { index, _ in
      drawn.pixels[index * 4..<index * 4 + 4] != expected.pixels[index * 4..<index * 4 + 4]
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) pixels differ from \(parity.expectedDiff!)")
  }

  @Test("odiff's real pairs give pixelmatch v6's counts", arguments: ParityCase.odiff())
  func odiffPairs(_ parity: ParityCase) throws {
    let result = PixelDiff(options: parity.options).compare(
      try Fixtures.image(parity.baseline), try Fixtures.image(parity.current))
    #expect(result.differentPixels == parity.mismatched)
  }

  @Test("odiff's ignore regions hide every difference in orange/orange_changed")
  func odiffIgnoreRegions() throws {
    // odiff's regions are inclusive corners: 150:30-310:105 and 20:175-105:200.
    let options = DiffOptions(
      includeAA: true,
      ignoreRegions: [
        PixelRect(x: 150, y: 30, width: 161, height: 76),
        PixelRect(x: 20, y: 175, width: 86, height: 26),
      ])
    let result = PixelDiff(options: options).compare(
      try Fixtures.image("odiff/orange.png"), try Fixtures.image("odiff/orange_changed.png"))
    #expect(result.differentPixels == 0)
    #expect(result.ignoredPixels == 1366)
    #expect(result.passed)
  }

  @Test("a palette+tRNS file and its RGBA twin decode to the same pixels")
  func extremeAlpha() throws {
    let palette = try Fixtures.image("odiff/extreme-alpha.png")
    let rgba = try Fixtures.image("odiff/extreme-alpha-1.png")
    let result = PixelDiff().compare(palette, rgba)
    #expect(result.differentPixels == 0)
  }
}
