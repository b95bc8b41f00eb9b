import Foundation
import SnapdiffCore
import SnapdiffTestSupport
import Testing

/// Known noise in the rule every entry point shares (`SnapshotCheck`): the in-process checker's
/// path (`check(_:key:frameSettings:in:)`), on real files in a store.
@Suite("known noise in SnapshotCheck")
struct KnownNoiseCheckTests {
  static func screen(_ rects: [PixelRect]) -> RGBAImage {
    var image = RGBAImage(width: 40, height: 30, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for rect in rects {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { image[x: x, y: y] = RGBAColor(red: 20, green: 30, blue: 40) }
      }
    }
    return image
  }

  @Test("a fingerprint of the change on this baseline passes it; another change, or another baseline, fails")
  func fingerprintDecides() throws {
    try withTemporaryDirectory { root in
      let store = try BaselineStore(root: root + "/baselines")
      let key = try SnapshotKey("Home/Login")
      let content = PixelRect(x: 2, y: 2, width: 8, height: 8)
      let baseline = try PNGEncoder().encode(Self.screen([content]))
      try store.write(baseline, for: key)
      let rule = SnapshotCheck(recordMode: .never)
      func check(_ rects: [PixelRect]) throws -> SnapshotCheck.Checked {
        try rule.check(
          Frame(image: Self.screen(rects), tree: nil, path: "frame.png"), key: key, frameSettings: nil, in: store)
      }
      let cursor = PixelRect(x: 30, y: 3, width: 2, height: 5)
      let failed = try check([content, cursor])
      #expect(failed.verdict.status == .failed)
      #expect(failed.knownNoise == nil)
      let changeHash = try #require(failed.outcome?.result.changeHash)

      let location = try #require(try store.locate(key))
      let fingerprint = NoiseFingerprint(
        changeHash: changeHash, baselineHash: SHA256.hex(baseline), regions: [cursor], differentPixels: 10,
        approvedAt: "2026-11-28T00:00:00Z", approvedBy: "test", run: nil)
      try store.addNoise(fingerprint, at: location, key: key)

      let noise = try check([content, cursor])
      #expect(noise.verdict.status == .passed)
      #expect(noise.knownNoise == fingerprint)
      #expect(try check([content, cursor, PixelRect(x: 15, y: 20, width: 3, height: 3)]).verdict.status == .failed)

      // Another baseline: the fingerprint is stale, the cursor fails, and adding it again is refused.
      try store.write(
        try PNGEncoder().encode(Self.screen([content, PixelRect(x: 0, y: 25, width: 40, height: 1)])), for: key)
      #expect(try check([content, cursor]).verdict.status == .failed)
      #expect(try store.noiseEntries().map(\.isStale) == [true])
      #expect(throws: RunError.self) { try store.addNoise(fingerprint, at: location, key: key) }
    }
  }
}
