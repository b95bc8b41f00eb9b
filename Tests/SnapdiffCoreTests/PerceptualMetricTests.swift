import Foundation
import SnapdiffCore
import Testing

@Suite("perceptual colour metric (CIEDE2000)")
struct PerceptualMetricTests {
  /// Table 1 of Sharma, Wu and Dalal (2005): L1, a1, b1, L2, a2, b2, ΔE00 to four decimals. The
  /// pairs straddle the formula's branches (hue mean across 0°, neutral colours, the blue
  /// rotation term), where most faulty implementations go wrong.
  static let sharmaPairs: [(Double, Double, Double, Double, Double, Double, Double)] = [
    (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
    (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
    (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
    (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
    (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
    (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
    (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
    (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
    (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
    (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
    (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
    (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
    (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
    (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
  ]

  @Test("ΔE00 matches all 34 pairs of Sharma, Wu and Dalal's Table 1, both ways round")
  func sharmaTable() {
    #expect(Self.sharmaPairs.count == 34)
    for (index, pair) in Self.sharmaPairs.enumerated() {
      let first = LabColor(l: pair.0, a: pair.1, b: pair.2)
      let second = LabColor(l: pair.3, a: pair.4, b: pair.5)
      let forward = CIEDE2000.difference(first, second)
      let backward = CIEDE2000.difference(second, first)
      #expect(abs(forward - pair.6) < 0.000_05, "pair \(index + 1): \(forward), expected \(pair.6)")
      #expect(abs(backward - pair.6) < 0.000_05, "pair \(index + 1) reversed: \(backward)")
    }
  }

  @Test("sRGB to Lab: white, black and a known blue (D65)")
  func srgbToLab() {
    let white = SRGBToLab.lab(red: 255, green: 255, blue: 255)
    #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
    let black = SRGBToLab.lab(red: 0, green: 0, blue: 0)
    #expect(abs(black.l) < 1e-9)
    // #0000ff is L* 32.30, a* 79.19, b* -107.86 (D65).
    let blue = SRGBToLab.lab(red: 0, green: 0, blue: 255)
    #expect(abs(blue.l - 32.30) < 0.02 && abs(blue.a - 79.19) < 0.05 && abs(blue.b + 107.86) < 0.05)
  }

  @Test("iOS blue #007aff → #0a84ff is ΔE00 ≈ 3.5: strict misses it, perceptual catches it")
  func systemBlueChange() {
    let before = SRGBToLab.lab(red: 0x00, green: 0x7a, blue: 0xff)
    let after = SRGBToLab.lab(red: 0x0a, green: 0x84, blue: 0xff)
    let difference = CIEDE2000.difference(before, after)
    #expect(abs(difference - 3.5) < 0.1, "ΔE00 \(difference)")
    let white = RGBAColor(red: 255, green: 255, blue: 255)
    let a = MatchLevelTests.image(white, patch: RGBAColor(red: 0x00, green: 0x7a, blue: 0xff))
    let b = MatchLevelTests.image(white, patch: RGBAColor(red: 0x0a, green: 0x84, blue: 0xff))
    #expect(PixelDiff().compare(a, b).differentPixels == 0)
    let perceptual = PixelDiff(options: DiffOptions(matchLevel: .perceptual)).compare(a, b)
    #expect(perceptual.differentPixels == 25 && !perceptual.passed)
    // A looser threshold lets it through.
    #expect(PixelDiff(options: DiffOptions(matchLevel: .perceptual, deltaE: 4)).compare(a, b).passed)
  }

  @Test("perceptual passes a difference of ΔE00 ≤ 1.2 and marks a darker change in diffColorAlt")
  func smallDifferencePasses() {
    let gray = RGBAColor(red: 120, green: 120, blue: 120)
    // One step of 8-bit gray at mid-tones is about ΔE00 0.4.
    let nearly = RGBAColor(red: 121, green: 121, blue: 122)
    let a = MatchLevelTests.image(gray)
    #expect(
      PixelDiff(options: DiffOptions(matchLevel: .perceptual)).compare(a, MatchLevelTests.image(gray, patch: nearly))
        .passed)
    var options = DiffOptions(matchLevel: .perceptual)
    options.diffColorAlt = RGBAColor(red: 0, green: 255, blue: 0)
    let dark = MatchLevelTests.image(gray, patch: RGBAColor(red: 20, green: 20, blue: 20))
    let (result, image) = PixelDiff(options: options).compareDrawingDiff(a, dark)
    #expect(result.differentPixels == 25)
    #expect(image[x: 7, y: 7] == RGBAColor(red: 0, green: 255, blue: 0))
  }

  @Test("a settings file's matchLevel perceptual and deltaE reach the options; a bad deltaE names the file")
  func settingsFile() throws {
    let folder = try makeTemporaryDirectory("perceptual-settings")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/Home.snapdiff.json"
    try #"{"matchLevel": "perceptual", "deltaE": 3}"#.write(toFile: path, atomically: true, encoding: .utf8)
    let options = try #require(try SnapshotSettings.load(path)).applied(to: DiffOptions())
    #expect(options.matchLevel == .perceptual && options.deltaE == 3)
    try #"{"deltaE": -2}"#.write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      try SnapshotSettings.load(path)
    } throws: { error in
      "\(error)".contains("Home.snapdiff.json: deltaE must be 0 or more, not -2.0")
    }
  }

  @Test("a negative or infinite deltaE is a problem of the options")
  func invalidDeltaE() {
    #expect(DiffOptions(deltaE: -1).problem != nil)
    #expect(DiffOptions(deltaE: .infinity).problem != nil)
    #expect(DiffOptions(deltaE: 0).problem == nil)
  }
}
