import Foundation
import SnapdiffCore
import Testing

/// `snapdiff compare A B` and `compare A B --diff D` skip argument-parser (`ComparePair.plainForm`);
/// the same words in another order (`compare --diff D A B`, `compare -- A B`) go through it. Both
/// ways must print the same, write the same diff image and exit with the same status, and
/// everything that is not the plain form (help, usage errors) must stay the parser's.
@Suite("snapdiff compare: the plain form and the parsed form agree")
struct ComparePlainFormTests {
  let a = CLIFixtures.path("pixelmatch/1a.png")
  let b = CLIFixtures.path("pixelmatch/1b.png")

  /// Runs `compare first second` in the plain form and in the parsed form (`--` before the
  /// paths), and expects the same status, output and errors.
  private func expectSameBothWays(_ first: String, _ second: String, status: Int32) throws {
    let plain = try SnapdiffProcess.run(["compare", first, second])
    let parsed = try SnapdiffProcess.run(["compare", "--", first, second])
    #expect(plain.status == status, "\(first) \(second): \(plain.standardError)")
    #expect(parsed.status == status)
    #expect(plain.standardOutput == parsed.standardOutput)
    #expect(plain.standardError == parsed.standardError)
  }

  @Test("a difference, identical files, a missing file and a file that is not a PNG")
  func verdictsAndErrors() throws {
    try expectSameBothWays(a, b, status: 1)
    try expectSameBothWays(a, a, status: 0)
    try expectSameBothWays(a, a + ".missing", status: 2)
    try withTemporaryDirectory { folder in
      let text = folder + "/not.png"
      try Data("not a PNG\n".utf8).write(to: URL(fileURLWithPath: text))
      try expectSameBothWays(text, b, status: 2)
      let plain = try SnapdiffProcess.run(["compare", text, b])
      #expect(plain.standardError.contains(text))
    }
  }

  @Test("with --diff: the same verdict and the same diff image, byte for byte")
  func diffImage() throws {
    try withTemporaryDirectory { folder in
      let plain = try SnapdiffProcess.run(["compare", a, b, "--diff", folder + "/plain.png"])
      let parsed = try SnapdiffProcess.run(["compare", "--diff", folder + "/parsed.png", a, b])
      #expect(plain.status == 1 && parsed.status == 1)
      #expect(
        plain.standardOutput.replacingOccurrences(of: "plain.png", with: "parsed.png") == parsed.standardOutput)
      #expect(plain.standardOutput.contains("diff image: \(folder)/plain.png"))
      let plainBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/plain.png")))
      let parsedBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/parsed.png")))
      #expect(!plainBytes.isEmpty && plainBytes == parsedBytes)
    }
  }

  @Test("a frame with an element tree beside it takes the frame comparison either way")
  func treeBeside() throws {
    try withTemporaryDirectory { folder in
      let baseline = folder + "/base.png"
      let current = folder + "/current.png"
      try FileManager.default.copyItem(atPath: a, toPath: baseline)
      try FileManager.default.copyItem(atPath: b, toPath: current)
      let tree = """
        {"scale": 1, "screen": {"width": 512, "height": 256}, "root": {"elementType": "application",
        "identifier": "app", "label": "", "frame": {"x": 0, "y": 0, "width": 512, "height": 256}, "children": []}}
        """
      try Data(tree.utf8).write(to: URL(fileURLWithPath: folder + "/base.tree.json"))
      try expectSameBothWays(baseline, current, status: 1)
    }
  }

  @Test("help, missing and extra arguments stay the parser's: the same text and status 64")
  func parserCases() throws {
    let help = try SnapdiffProcess.run(["compare", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("USAGE: snapdiff compare"))
    for arguments in [
      ["compare", a], ["compare", a, b, "c.png"], ["compare", a, b, "--json", "x"], ["compare", a, b, "--diff"],
    ] {
      let output = try SnapdiffProcess.run(arguments)
      #expect(output.status == 64, "\(arguments)")
      #expect(output.standardError.contains("Usage: snapdiff compare"), "\(arguments): \(output.standardError)")
    }
  }
}
