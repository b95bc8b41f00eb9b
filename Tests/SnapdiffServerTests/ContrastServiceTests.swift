import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Accessibility validation through the service: the settings part turns it on, and the
/// snapshot's verdict carries the failures.
@Suite("service: contrast check")
struct ContrastServiceTests {
  /// A white 60×40 screen with one line of #777777 "text" (4.47:1 on white), anti-aliased.
  static let screen: RGBAImage = {
    var image = RGBAImage(width: 60, height: 40, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for stroke in 0..<4 {
      for y in 13..<24 {
        image[x: 10 + stroke * 5, y: y] = RGBAColor(red: 0xBB, green: 0xBB, blue: 0xBB)
        image[x: 11 + stroke * 5, y: y] = RGBAColor(red: 0x77, green: 0x77, blue: 0x77)
        image[x: 12 + stroke * 5, y: y] = RGBAColor(red: 0x77, green: 0x77, blue: 0x77)
        image[x: 13 + stroke * 5, y: y] = RGBAColor(red: 0xBB, green: 0xBB, blue: 0xBB)
      }
    }
    return image
  }()

  static let tree =
    #"{"scale": 1, "screen": {"width": 60, "height": 40}, "root": {"elementType": "application", "frame": {"x": 0, "y": 0, "width": 60, "height": 40}, "children": [{"identifier": "hint", "elementType": "staticText", "label": "Forgot password?", "frame": {"x": 8, "y": 10, "width": 30, "height": 17}}]}}"#

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("settings {contrast: AA, contrastFails: true} fail a frame identical to its baseline, naming the element")
  func settingsPart() async throws {
    try await withFixture { fixture in
      let png = try PNGEncoder().encode(Self.screen)
      let tree = try ElementTree.decode(Array(Self.tree.utf8), path: "tree")
      try fixture.store.write(png, tree: tree, for: SnapshotKey("a/login"))
      try await fixture.test { client in
        let run = try await client.openRun()
        var form = Multipart()
        form.add("frame", png, contentType: "image/png")
        form.add("tree", Array(Self.tree.utf8), contentType: "application/json")
        form.add("settings", Array(#"{"contrast": "AA", "contrastFails": true}"#.utf8), contentType: "application/json")
        let response = try await client.execute(
          uri: snapshotURI(run, "a/login"), method: .put, headers: form.headers, body: form.body)
        #expect(response.json["status"] as? String == "failed", "\(response.text)")
        let contrast = try #require(response.json["contrast"] as? [String: Any], "\(response.text)")
        #expect(
          contrast["failures"] as? [String] == [
            #"staticText 'hint' "Forgot password?": 4.47:1 (#777777 on #FFFFFF), needs 4.5:1 (AA, regular text)"#
          ])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("snapdiff.json's contrast fields apply to every frame the service checks; a rectangle region overrides them")
  func projectConfig() async throws {
    try await withFixture { fixture in
      let png = try PNGEncoder().encode(Self.screen)
      let tree = try ElementTree.decode(Array(Self.tree.utf8), path: "tree")
      try fixture.store.write(png, tree: tree, for: SnapshotKey("a/login"))
      try fixture.store.write(png, tree: tree, for: SnapshotKey("a/large"))
      var configuration = fixture.configuration()
      configuration.config = try ProjectConfig.decoded(#"{"contrast": "AA", "contrastFails": true}"#)
      try await fixture.test(configuration) { client in
        let run = try await client.openRun()
        var form = Multipart()
        form.add("frame", png, contentType: "image/png")
        form.add("tree", Array(Self.tree.utf8), contentType: "application/json")
        let response = try await client.execute(
          uri: snapshotURI(run, "a/login"), method: .put, headers: form.headers, body: form.body)
        #expect(response.json["status"] as? String == "failed", "\(response.text)")
        let contrast = try #require(response.json["contrast"] as? [String: Any], "\(response.text)")
        #expect((contrast["failures"] as? [String])?.count == 1)
        // The hint's box, in points, held as large text (3:1): the same frame passes.
        var large = Multipart()
        large.add("frame", png, contentType: "image/png")
        large.add("tree", Array(Self.tree.utf8), contentType: "application/json")
        large.add(
          "settings", Array(#"{"contrastRegions": ["large-text:8,10,30,17pt"]}"#.utf8),
          contentType: "application/json")
        let passed = try await client.execute(
          uri: snapshotURI(run, "a/large"), method: .put, headers: large.headers, body: large.body)
        #expect(passed.json["status"] as? String == "passed", "\(passed.text)")
      }
    }
  }
}

extension ProjectConfig {
  /// A config from its JSON text, as `snapdiff.json` holds it.
  static func decoded(_ text: String) throws -> ProjectConfig {
    try JSONDecoder().decode(ProjectConfig.self, from: Data(text.utf8))
  }
}
