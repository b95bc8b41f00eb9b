import Foundation
import SnapdiffCore
import Testing

/// `check --timings` (and SNAPDIFF_TIMINGS=1): where a run's time went, stage by stage, on
/// standard error, with the share of the process's CPU outside decoding and comparing.
@Suite("snapdiff check --timings")
struct CheckTimingsTests {
  let changed = "Home - test_home/Home"
  let same = "Profile - test_profile/Profile"

  /// The table's row for `stage`: its cells, without the pipes.
  private func row(_ stage: String, in table: String) -> [String]? {
    table.split(separator: "\n").first { $0.hasPrefix("| \(stage) |") }.map {
      $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test("one changed and one re-encoded frame: every stage they went through is counted")
  func breakdown() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(changed, Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)]))
      try workspace.writeFrame(same, Workspace.screen([PixelRect(x: 30, y: 10, width: 8, height: 20)]))
      try workspace.snapdiff(["check", "frames"])
      try workspace.writeFrame(changed, Workspace.screen([PixelRect(x: 5, y: 12, width: 10, height: 10)]))
      // The same pixels in other bytes: decoded and compared, and it passes.
      let other = Workspace.screen([PixelRect(x: 30, y: 10, width: 8, height: 20)])
      try Data(try PNGEncoder(speed: .fast).encode(other)).write(
        to: URL(fileURLWithPath: workspace.root + "/frames/" + same + ".png"))

      let run = try workspace.snapdiff(["check", "frames", "--no-cache", "--timings", "--jobs", "1"])
      #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
      let table = run.standardError
      #expect(table.contains("check --timings: 2 snapshots, 1 job;"), "\(table)")
      // Both pairs read (two files each) and decoded (two images each), both compared.
      #expect(row("reading files", in: table)?[1] == "4", "\(table)")
      #expect(row("decoding", in: table)?[1] == "4")
      #expect(row("comparing", in: table)?[1] == "2")
      // One failure: classified, one diff image, and its images kept.
      #expect(row("classifying differences", in: table)?[1] == "1")
      #expect(row("diff images", in: table)?[1] == "1")
      #expect(Int(row("keeping images", in: table)?[1] ?? "") ?? 0 >= 2)
      #expect(row("run record", in: table)?[1] == "2")
      #expect(row("JUnit and HTML report", in: table)?[1] == "1")
      #expect(table.contains("outside decoding and comparing: "))
      // The summary stays on standard output, the table stays off it.
      #expect(run.standardOutput.contains("1 failed"))
      #expect(!run.standardOutput.contains("check --timings"))

      let quiet = try workspace.snapdiff(["check", "frames", "--no-cache"])
      #expect(!quiet.standardError.contains("check --timings"))
      let byEnvironment = try workspace.snapdiff(["check", "frames"], environment: ["SNAPDIFF_TIMINGS": "1"])
      #expect(byEnvironment.standardError.contains("check --timings: 2 snapshots"))
    }
  }
}
