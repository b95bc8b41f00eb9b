import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The perceptual level and colour profiles through the service: the settings part chooses the
/// level, and a tagged baseline is converted before comparing.
@Suite("service: perceptual level and colour profiles")
struct PerceptualServiceTests {
  static let blue = ServerFixture.screen(
    [PixelRect(x: 5, y: 5, width: 10, height: 8)], color: RGBAColor(red: 0x00, green: 0x7a, blue: 0xff))
  static let newBlue = ServerFixture.screen(
    [PixelRect(x: 5, y: 5, width: 10, height: 8)], color: RGBAColor(red: 0x0a, green: 0x84, blue: 0xff))

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("settings {matchLevel: perceptual} fail #007aff → #0a84ff, which strict passes; a bad deltaE is a 422")
  func settingsPart() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/strict", Self.blue)
      try fixture.writeBaseline("a/perceptual", Self.blue)
      try await fixture.test { client in
        let run = try await client.openRun()
        let strict = try await client.putFrame(run, "a/strict", ServerFixture.png(Self.newBlue))
        #expect(strict.json["status"] as? String == "passed", "\(strict.text)")
        var form = Multipart()
        form.add("frame", ServerFixture.png(Self.newBlue), contentType: "image/png")
        form.add("settings", Array(#"{"matchLevel": "perceptual"}"#.utf8), contentType: "application/json")
        let perceptual = try await client.execute(
          uri: snapshotURI(run, "a/perceptual"), method: .put, headers: form.headers, body: form.body)
        #expect(perceptual.json["status"] as? String == "failed", "\(perceptual.text)")
        #expect(perceptual.json["matchLevel"] as? String == "perceptual")
        #expect(perceptual.json["differentPixels"] as? Int == 80)
        var bad = Multipart()
        bad.add("frame", ServerFixture.png(Self.newBlue), contentType: "image/png")
        bad.add("settings", Array(#"{"matchLevel": "perceptual", "deltaE": -1}"#.utf8), contentType: "application/json")
        let rejected = try await client.execute(
          uri: snapshotURI(run, "a/bad"), method: .put, headers: bad.headers, body: bad.body)
        #expect(rejected.status == .unprocessableContent)
        #expect(rejected.errorMessage.contains("deltaE must be 0 or more"), "\(rejected.text)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a Display P3 baseline against its sRGB twin passes, and the verdict says it was converted")
  func taggedBaseline() async throws {
    try await withFixture { fixture in
      let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SnapdiffCoreTests/Fixtures/color").path
      let p3 = try FileIO.read(fixtures + "/screen-p3.png")
      try fixture.store.write(p3, tree: nil, for: SnapshotKey("a/p3"))
      try await fixture.test { client in
        let run = try await client.openRun()
        let response = try await client.putFrame(run, "a/p3", try FileIO.read(fixtures + "/screen-srgb.png"))
        #expect(response.json["status"] as? String == "passed", "\(response.text)")
        #expect((response.json["colorConversion"] as? String)?.contains("Display P3 (iCCP) → sRGB") == true)
      }
    }
  }
}
