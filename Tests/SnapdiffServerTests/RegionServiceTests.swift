import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Regions through the service: the settings part carries them as settings files do.
@Suite("service: regions in the settings part")
struct RegionServiceTests {
  static let before = ServerFixture.screen([PixelRect(x: 5, y: 5, width: 8, height: 6)])
  static let moved = ServerFixture.screen([PixelRect(x: 8, y: 5, width: 8, height: 6)])

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a floating region in the settings part passes a square moved 3 px; a malformed region is a 422")
  func floating() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/plain", Self.before)
      try fixture.writeBaseline("a/floating", Self.before)
      try await fixture.test { client in
        let run = try await client.openRun()
        let plain = try await client.putFrame(run, "a/plain", ServerFixture.png(Self.moved))
        #expect(plain.json["status"] as? String == "failed", "\(plain.text)")
        let region =
          #"{"regions": [{"kind": "floating", "rect": {"x": 5, "y": 5, "width": 8, "height": 6}, "#
          + #""offsets": {"up": 0, "down": 0, "left": 0, "right": 4}}]}"#
        var form = Multipart()
        form.add("frame", ServerFixture.png(Self.moved), contentType: "image/png")
        form.add("settings", Array(region.utf8), contentType: "application/json")
        let floating = try await client.execute(
          uri: snapshotURI(run, "a/floating"), method: .put, headers: form.headers, body: form.body)
        #expect(floating.json["status"] as? String == "passed", "\(floating.text)")
        // The verdict says where the floating content was found, as run.json's regionNotes do.
        #expect(
          floating.json["regionNotes"] as? [String] == ["floating region 8×6 at (5, 5): content found moved by (3, 0)"],
          "\(floating.text)")
        // The review page's card says it too.
        let page = try await client.execute(uri: "/runs/\(run)", method: .get)
        #expect(page.text.contains("Regions: floating region 8×6 at (5, 5): content found moved by (3, 0)"))
        var bad = Multipart()
        bad.add("frame", ServerFixture.png(Self.moved), contentType: "image/png")
        bad.add(
          "settings", Array(#"{"regions": [{"kind": "floating", "element": "badge"}]}"#.utf8),
          contentType: "application/json")
        let rejected = try await client.execute(
          uri: snapshotURI(run, "a/bad"), method: .put, headers: bad.headers, body: bad.body)
        #expect(rejected.status == .unprocessableContent, "\(rejected.text)")
        #expect(rejected.errorMessage.contains("needs its offsets"), "\(rejected.text)")
      }
    }
  }
}
