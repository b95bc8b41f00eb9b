import Foundation
import SnapdiffCore
import Testing

/// Issue #29, items 1 and 5, through `snapdiff` as a real process: `compare a.tree.json
/// b.tree.json` of 40,000 unidentified elements took 12.7 GB and ended in SIGABRT; `check` of a
/// dump 3,000 levels deep died of a stack overflow (exit 139) in every record mode, and from 260
/// levels its frame failed with an encoding error that repeated the whole tree in run.json,
/// junit.xml and index.html.
@Suite("large and deep trees through snapdiff")
struct LargeTreeCommandTests {
  /// `count` unidentified `other` elements on a 10-point grid, moved by `shift` points, as JSON.
  static func grid(_ count: Int, shift: Int = 0) -> String {
    let children = (0..<count).map { index in
      #"{"elementType":"other","frame":{"x":\#(index % 39 * 10 + shift),"y":\#(index / 39 % 84 * 10 + shift),"width":8,"height":8}}"#
    }
    return
      #"{"scale":1,"screen":{"width":390,"height":844},"root":{"elementType":"application","frame":{"x":0,"y":0,"width":390,"height":844},"children":["#
      + children.joined(separator: ",") + "]}}"
  }

  @Test("compare of two 40,000-element trees finishes with every move listed, in bounded memory")
  func compareLargeTrees() throws {
    try withWorkspace { workspace in
      let one = workspace.root + "/a.tree.json"
      let two = workspace.root + "/b.tree.json"
      try Self.grid(40_000).write(toFile: one, atomically: true, encoding: .utf8)
      try Self.grid(40_000, shift: 2).write(toFile: two, atomically: true, encoding: .utf8)
      let cost = try SnapdiffProcess.measured(["compare", one, two, "--match", "layout"])
      #expect(cost.output.status == 1, "\(cost.output.standardError)")
      #expect(
        cost.output.standardOutput.hasPrefix("FAIL  layout: 40000 changes"), "\(cost.output.standardOutput.prefix(300))"
      )
      print("large trees: compare of 40,000 elements: \(cost.seconds) s, \(cost.peakBytes >> 20) MiB")
      // Weighing every pair: 12.7 GB, then SIGABRT (release build); now about 110 MiB, about
      // 900 MiB under AddressSanitizer (scripts/sanitize.sh sets ASAN_OPTIONS).
      let limit = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil ? 1 << 30 : 4 << 30
      #expect(cost.peakBytes < limit, "\(cost.peakBytes >> 20) MiB")
    }
  }

  @Test("check of a dump 3,000 levels deep: a short error naming the file and the depth, in every record mode")
  func checkDeepDump() throws {
    try withWorkspace { workspace in
      try FileManager.default.createDirectory(atPath: workspace.root + "/frames", withIntermediateDirectories: true)
      try LargeTreeCommandTests.deepDump(3_000).write(
        toFile: workspace.root + "/frames/Deep.txt", atomically: true, encoding: .utf8)
      for mode in ["missing", "all", "never"] {
        let run = try workspace.snapdiff(["check", "frames", "--record", mode])
        #expect(
          run.status == 2, "\(mode): \(run.status) \(run.standardOutput.prefix(500))\(run.standardError.prefix(500))")
        let said = run.standardOutput + run.standardError
        #expect(
          said.contains("frames/Deep.txt: the element tree is 3000 levels deep, over the limit of 200"),
          "\(mode): \(said.prefix(1_000))")
        #expect(said.utf8.count < 4_096, "\(mode): \(said.utf8.count) bytes of output")
        #expect(!workspace.hasBaseline("Deep"))
        // Nothing of the tree in the run's files.
        let runs = workspace.root + "/.snapdiff/runs"
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? [] {
          for file in ["run.json", "junit.xml", "index.html"] {
            let text = (try? String(contentsOfFile: runs + "/" + folder + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("level2999"), "\(mode): \(file) holds the tree")
            #expect(text.utf8.count < 256 << 10, "\(mode): \(file) is \(text.utf8.count) bytes")
          }
        }
      }
      // `render` and `compare` refuse it the same way.
      let render = try workspace.snapdiff(["render", "frames/Deep.txt", "-o", "deep.png"])
      #expect(render.status == 2)
      #expect(render.standardError.contains("the element tree is 3000 levels deep, over the limit of 200"))
    }
  }

  /// An XCUITest dump `levels` deep: an application, its window, then `Other`s one inside another.
  static func deepDump(_ levels: Int) -> String {
    var text =
      "Attributes: Application, 0x1, pid: 7, label: 'Deep'\nElement subtree:\n →Application, 0x1, pid: 7, label: 'Deep'\n"
    text += "    Window (Main), 0x2, {{0.0, 0.0}, {60.0, 40.0}}\n"
    for level in 3...levels {
      text +=
        String(repeating: " ", count: level + 2)
        + "Other, 0x3, {{0.0, 0.0}, {60.0, 40.0}}, identifier: 'level\(level)'\n"
    }
    return text
  }
}
