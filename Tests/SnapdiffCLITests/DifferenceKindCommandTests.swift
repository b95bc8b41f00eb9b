import Foundation
import SnapdiffCore
import Testing

/// Failed snapshots say what kind of difference they found (issue #27, item 3), in `compare`,
/// `check`, `status`, run.json, junit.xml and the report, and the rendering-only ones are one
/// group to approve; through the real `snapdiff` process.
@Suite("kinds of difference in the CLI")
struct DifferenceKindCommandTests {
  /// A list screen: a header, and rows of a pattern from y=20 down, drawn `offset` rows lower.
  static func list(offset: Int = 0, square: Bool = false) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 60, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    for y in 0..<6 { for x in 0..<60 { image[x: x, y: y] = RGBAColor(red: 240, green: 240, blue: 245) } }
    for y in 20..<52 where (y / 3) % 2 == 0 {
      for x in 4..<56 where (x / 4 + y / 6) % 3 != 0 {
        image[x: x, y: y + offset] = RGBAColor(red: UInt8(30 * (y % 5)), green: 40, blue: UInt8(200 - x))
      }
    }
    if square {
      for y in 8..<14 { for x in 40..<46 { image[x: x, y: y] = RGBAColor(red: 20, green: 30, blue: 40) } }
    }
    return image
  }

  @Test("compare names the kind: content shifted by 2 px below y, in the text and the JSON")
  func compare() throws {
    try withTemporaryDirectory { folder in
      try PNGEncoder().write(Self.list(), to: folder + "/a.png")
      try PNGEncoder().write(Self.list(offset: 2), to: folder + "/b.png")
      let text = try SnapdiffProcess.run(["compare", folder + "/a.png", folder + "/b.png"])
      #expect(text.status == 1)
      #expect(text.standardOutput.contains("\n      difference: content shifted down by 2 px below y=20"))
      let json = try SnapdiffProcess.run(["compare", folder + "/a.png", folder + "/b.png", "--json"])
      let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as! [String: Any]
      let difference = object["difference"] as! [String: Any]
      #expect(difference["kind"] as? String == "shifted")
      #expect(difference["group"] as? String == "rendering")
      #expect(difference["shift"] as? Int == 2)
      let same = try SnapdiffProcess.run(["compare", folder + "/a.png", folder + "/a.png", "--json"])
      #expect(!same.standardOutput.contains("difference"))
    }
  }

  @Test("check groups the rendering-only failures apart from a real change; approve --difference rendering takes them")
  func checkAndApprove() throws {
    try withWorkspace { workspace in
      for key in ["Home", "Search", "Cart"] { try workspace.writeFrame(key, Self.list()) }
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame("Home", Self.list(offset: 1))
      try workspace.writeFrame("Search", Self.list(offset: 2))
      try workspace.writeFrame("Cart", Self.list(square: true))
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 1)
      let out = check.standardOutput
      #expect(out.contains("content shifted down by 2 px below y=20"), "\(out)")
      #expect(out.contains("element changed"))
      #expect(out.contains("2 snapshots differ only by rendering"))
      #expect(out.contains("approve them together: snapdiff approve --difference rendering --run "))
      #expect(out.contains("1 snapshot changed an element: Cart"))

      let run = try workspace.lastRun()
      let runFolder = workspace.root + "/.snapdiff/runs/" + (run["id"] as! String)
      let kinds = Dictionary(
        uniqueKeysWithValues: (run["snapshots"] as! [[String: Any]]).map {
          ($0["key"] as! String, ($0["difference"] as? [String: Any])?["kind"] as? String)
        })
      #expect(kinds == ["Home": "shifted", "Search": "shifted", "Cart": "element"])
      let junit = try String(contentsOfFile: runFolder + "/junit.xml", encoding: .utf8)
      #expect(junit.contains(": content shifted down by 1 px below y=20"))
      let html = try String(contentsOfFile: runFolder + "/index.html", encoding: .utf8)
      #expect(html.contains("data-difference=\"rendering\""))
      #expect(html.contains("2 snapshots differ only by rendering"))

      let status = try workspace.snapdiff(["status"])
      #expect(status.standardOutput.contains("2 snapshots differ only by rendering"))

      let approve = try workspace.snapdiff(["approve", "--difference", "rendering"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try workspace.lastStatuses() == ["Home": "approved", "Search": "approved", "Cart": "failed"])
      let unknown = try workspace.snapdiff(["approve", "--difference", "noise"])
      #expect(unknown.status == 2)
      #expect(unknown.standardError.contains("'noise' is not a kind of difference: one of rendering, shifted"))
    }
  }
}
