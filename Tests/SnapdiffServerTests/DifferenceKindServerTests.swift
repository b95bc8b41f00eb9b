import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The service's verdicts say what kind of difference a failed frame found, the review page
/// counts the failures by kind, and `{"difference": "rendering"}` approves the rendering-only
/// ones (issue #27, item 3).
@Suite("kinds of difference in the service")
struct DifferenceKindServerTests {
  /// A list screen: a header and rows of a pattern from y=20 down, drawn `offset` rows lower;
  /// with `square`, a dark square added at the top right.
  static func list(offset: Int = 0, square: Bool = false) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 60, filledWith: ServerFixture.white)
    for y in 0..<6 { for x in 0..<60 { image[x: x, y: y] = RGBAColor(red: 240, green: 240, blue: 245) } }
    for y in 20..<52 where (y / 3) % 2 == 0 {
      for x in 4..<56 where (x / 4 + y / 6) % 3 != 0 {
        image[x: x, y: y + offset] = RGBAColor(red: UInt8(30 * (y % 5)), green: 40, blue: UInt8(200 - x))
      }
    }
    if square { for y in 8..<14 { for x in 40..<46 { image[x: x, y: y] = ServerFixture.ink } } }
    return image
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("verdicts carry the kind; the page counts them with a place for the group's button; approve by kind")
  func verdictPageAndApproval() async throws {
    try await withFixture { fixture in
      for key in ["a/Home", "a/Search", "a/Cart"] { try fixture.writeBaseline(key, Self.list()) }
      try await fixture.test { client in
        let run = try await client.openRun()
        let home = try await client.putFrame(run, "a/Home", ServerFixture.png(Self.list(offset: 2)))
        let difference = home.json["difference"] as? [String: Any]
        #expect(difference?["kind"] as? String == "shifted", "\(home.text)")
        #expect(difference?["shift"] as? Int == 2)
        #expect(difference?["row"] as? Int == 20)
        _ = try await client.putFrame(run, "a/Search", ServerFixture.png(Self.list(offset: 1)))
        let cart = try await client.putFrame(run, "a/Cart", ServerFixture.png(Self.list(square: true)))
        #expect((cart.json["difference"] as? [String: Any])?["kind"] as? String == "element")

        let page = try await client.execute(uri: "/runs/\(run)", method: .get)
        #expect(page.text.contains("2 snapshots differ only by rendering"), "\(page.text)")
        #expect(page.text.contains("<li data-difference=\"rendering\" data-count=\"2\">"))
        #expect(page.text.contains("data-difference=\"element\""))
        #expect(page.text.contains("{ difference: kind }"), "the review script approves a kind")

        let approve = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"difference": "rendering"}"#))
        #expect(approve.status == .ok, "\(approve.text)")
        #expect(
          (approve.json["snapshots"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == [
            "a/Home", "a/Search",
          ])
        let statuses = Dictionary(
          uniqueKeysWithValues: try fixture.record(run).snapshots.map { ($0.key, $0.status.rawValue) })
        #expect(statuses == ["a/Home": "approved", "a/Search": "approved", "a/Cart": "failed"])
      }
    }
  }
}
