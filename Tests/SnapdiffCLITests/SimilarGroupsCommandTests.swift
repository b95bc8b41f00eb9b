import Foundation
import SnapdiffCore
import Testing

/// Groups of similar changes through the CLI, on real PNGs: `check` and `status` print the group
/// a brand colour change makes across screens with different titles, `approve --same-as` takes it
/// whole, `--except` leaves members out, `approve --undo --same-as` undoes that group, and the
/// run's `index.html` shows the same group.
@Suite("similar changes grouped (CLI)")
struct SimilarGroupsCommandTests {
  static let blue = RGBAColor(red: 30, green: 136, blue: 229)
  static let red = RGBAColor(red: 229, green: 57, blue: 53)

  /// A 90×60 screen: a header in `brand` with a white title `title` wide, a dark row below.
  static func screen(_ brand: RGBAColor, title: Int) -> RGBAImage {
    var image = RGBAImage(width: 90, height: 60, filledWith: Workspace.white)
    for y in 0..<16 { for x in 0..<90 { image[x: x, y: y] = brand } }
    for y in 5..<11 { for x in 8..<(8 + title) { image[x: x, y: y] = Workspace.white } }
    for y in 30..<34 { for x in 8..<58 { image[x: x, y: y] = RGBAColor(red: 20, green: 30, blue: 40) } }
    return image
  }

  static let keys = (1...6).map { "Screen\($0) - test_brand/Screen\($0)" }

  @Test("a brand colour on 6 screens with 6 titles: one group in status and index.html; --same-as with --except")
  func brandGroup() throws {
    try withWorkspace { workspace in
      for (index, key) in Self.keys.enumerated() {
        try workspace.writeFrame(key, Self.screen(Self.blue, title: 20 + index * 8))
      }
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      for (index, key) in Self.keys.enumerated() {
        try workspace.writeFrame(key, Self.screen(Self.red, title: 20 + index * 8))
      }
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 1)
      let sorted = Self.keys.sorted()
      for output in [check.standardOutput, try workspace.snapdiff(["status"]).standardOutput] {
        #expect(
          output.contains(
            "6 snapshots share one kind of edit, colour #1E88E5 → #E53935: \(sorted[0]), \(sorted[1]), \(sorted[2]) and 3 more"
          ), "\(output)")
        #expect(output.contains("  approve them together: snapdiff approve --same-as '\(sorted[0])' --run "))
      }
      let run = try workspace.lastRun()["id"] as! String
      let page = try String(
        contentsOfFile: workspace.root + "/.snapdiff/runs/\(run)/index.html", encoding: .utf8)
      #expect(
        page.contains("1 group of changes</b></a> in 6 failed snapshots: 6 of them in groups, 0 changes seen once."))
      #expect(page.contains("data-tier=\"similar\""))
      #expect(page.components(separatedBy: "class=\"change-group\"").count == 2)

      let dry = try workspace.snapdiff(["approve", "--same-as", Self.keys[3], "--dry-run"])
      #expect(dry.standardOutput.contains("would approve 6 snapshots"), "\(dry.standardOutput)")
      let approve = try workspace.snapdiff(["approve", "--same-as", Self.keys[3], "--except", Self.keys[0]])
      #expect(approve.status == 0, "\(approve.standardError)")
      var expected = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, "approved") })
      expected[Self.keys[0]] = "failed"
      #expect(try workspace.lastStatuses() == expected)
      let unknown = try workspace.snapdiff(["approve", "--same-as", Self.keys[0], "--except", "Nothing*"])
      #expect(
        unknown.status != 0 && unknown.standardError.contains("'Nothing*' (to leave out)"), "\(unknown.standardError)")
      // The undo's --same-as picks the same group: the five approved, not only KEY's own change.
      let undo = try workspace.snapdiff(["approve", "--undo", "--same-as", Self.keys[3], "--run", run])
      #expect(undo.status == 0, "\(undo.standardError)")
      #expect(try workspace.lastStatuses() == Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, "failed") }))
    }
  }
}
