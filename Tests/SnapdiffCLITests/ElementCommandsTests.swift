import Foundation
import SnapdiffCore
import Testing

/// `render` and `compare` with element trees, as real processes.
@Suite("element tree commands")
struct ElementCommandsTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/trees").path
  let login = examples + "/login.tree.json"
  let moved = examples + "/login-moved.tree.json"

  @Test("render writes the same PNG twice, at the tree's scale or another")
  func render() throws {
    try withTemporaryDirectory { folder in
      let first = try SnapdiffProcess.run(["render", login, "-o", folder + "/a.png"])
      #expect(first.status == 0)
      #expect(first.standardOutput == "\(folder)/a.png: 1170×2532\n")
      _ = try SnapdiffProcess.run(["render", login, "-o", folder + "/b.png"])
      #expect(
        FileManager.default.contents(atPath: folder + "/a.png")
          == FileManager.default.contents(atPath: folder + "/b.png"))
      let small = try SnapdiffProcess.run(["render", login, "-o", folder + "/c.png", "--scale", "1"])
      #expect(small.standardOutput.hasSuffix("390×844\n"))
      let bad = folder + "/bad.tree.json"
      FileManager.default.createFile(
        atPath: bad,
        contents: Data(
          #"{"screen": {"width": 1, "height": 1}, "root": {"elementType": "buton", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}}"#
            .utf8))
      let failure = try SnapdiffProcess.run(["render", bad, "-o", folder + "/d.png"])
      #expect(failure.status == 2)
      #expect(
        failure.standardError.contains("$.root.elementType: 'buton' is not an element type (did you mean 'button'?)"))
    }
  }

  @Test("compare --match layout names what moved, in words and in JSON")
  func layout() throws {
    let output = try SnapdiffProcess.run(["compare", login, moved, "--match", "layout"])
    #expect(output.status == 1)
    #expect(output.standardOutput.contains("FAIL  layout: 2 changes\n      button 'loginButton' moved 8 pt down"))
    let json = try SnapdiffProcess.run(["compare", login, moved, "--match", "layout", "--json"]).json()
    let layout = try #require(json["layout"] as? [[String: Any]])
    #expect(layout.first?["identifier"] as? String == "loginButton")
    #expect(layout.first?["change"] as? String == "moved")
    #expect(layout.first?["dy"] as? Int == 8)
    #expect(json["matchLevel"] as? String == "layout")
    #expect(try SnapdiffProcess.run(["compare", login, login, "--match", "layout"]).status == 0)
  }

  @Test("--ignore-element masks through the trees; a dead selector is reported; PNGs without trees are an error")
  func ignoreElement() throws {
    try withTemporaryDirectory { folder in
      // A PNG with its tree beside it, and a later frame where only the clock changed.
      let tree = try ElementTree.load(login)
      try PNGEncoder().write(ElementRenderer().render(tree), to: folder + "/before.png")
      try FileManager.default.copyItem(atPath: login, toPath: folder + "/before.tree.json")
      var later = tree
      later.root = Self.relabel("clock", "10:07", later.root)
      try Data(try later.encoded()).write(to: URL(fileURLWithPath: folder + "/after.tree.json"))

      #expect(try SnapdiffProcess.run(["compare", folder + "/before.png", folder + "/after.tree.json"]).status == 1)
      let masked = try SnapdiffProcess.run([
        "compare", folder + "/before.png", folder + "/after.tree.json", "--ignore-element", "statusBar/clock", "--json",
      ])
      #expect(masked.status == 0, "\(masked.standardOutput)\(masked.standardError)")
      #expect(try masked.json()["ignoredPixels"] as? Int ?? 0 > 0)

      let dead = try SnapdiffProcess.run([
        "compare", folder + "/before.png", folder + "/after.tree.json", "--ignore-element", "clock", "--ignore-element",
        "~nothing",
      ])
      #expect(dead.status == 0)
      #expect(dead.standardError.contains("--ignore-element '~nothing' matched no element"))

      let png = CLIFixtures.path("pixelmatch/1a.png")
      let noTree = try SnapdiffProcess.run(["compare", png, png, "--ignore-element", "clock"])
      #expect(noTree.status == 2)
      #expect(noTree.standardError.contains("element masks need an element tree"))
      let badSelector = try SnapdiffProcess.run(["compare", png, png, "--ignore-element", "@buton"])
      #expect(badSelector.status == 64)
    }
  }

  @Test("match levels from the command line")
  func matchLevels() throws {
    let a = CLIFixtures.path("pixelmatch/1a.png")
    let b = CLIFixtures.path("pixelmatch/1b.png")
    let exact = try SnapdiffProcess.run(["compare", a, b, "--match", "exact", "--json"]).json()
    #expect(exact["differentPixels"] as? Int == 12933)
    let strict = try SnapdiffProcess.run(["compare", a, b, "--match", "strict", "--json"]).json()
    #expect(strict["differentPixels"] as? Int == 106)
    #expect(try SnapdiffProcess.run(["compare", a, b, "--match", "sometimes"]).status == 64)
  }

  static func relabel(_ identifier: String, _ label: String, _ element: Element) -> Element {
    var copy = element
    if copy.identifier == identifier { copy.label = label }
    copy.children = copy.children.map { relabel(identifier, label, $0) }
    return copy
  }
}

/// `check` with element trees: tree-only frames, masks from settings files, layout in run.json.
@Suite("check with element trees")
struct CheckWithTreesTests {
  let key = "Login - test_login/Login"

  func writeTree(_ tree: ElementTree, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(try tree.encoded()).write(to: URL(fileURLWithPath: path))
  }

  @Test(
    "a tree-only frame is rendered and recorded with its tree; masks travel in settings files; a moved button fails with its name"
  )
  func cycle() throws {
    try withWorkspace { workspace in
      let tree = try ElementTree.load(ElementCommandsTests.examples + "/login.tree.json")
      let frame = workspace.root + "/frames/\(key).tree.json"
      try writeTree(tree, to: frame)
      let first = try workspace.snapdiff(["check", "frames"])
      #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
      #expect(workspace.hasBaseline(key))
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/\(key).tree.json"))
      #expect(try workspace.baseline(key) == ElementRenderer().render(tree))

      // The clock changes every run: masked by a settings file that travels with the frame.
      let settings = workspace.root + "/frames/\(key).snapdiff.json"
      _ = FileManager.default.createFile(
        atPath: settings, contents: Data(#"{"ignoreElements": ["statusBar/clock", "~adBanner"]}"#.utf8))
      try writeTree(Self.relabel(tree, "clock", "10:07"), to: frame)
      let clock = try workspace.snapdiff(["check", "frames"], environment: ["CI": "true"])
      #expect(clock.status == 0, "\(clock.standardOutput)")

      // A moved button fails, and the run names it.
      var moved = try ElementTree.load(ElementCommandsTests.examples + "/login-moved.tree.json")
      moved = Self.relabel(moved, "clock", "10:08")
      try writeTree(moved, to: frame)
      let failed = try workspace.snapdiff(["check", "frames"], environment: ["CI": "true"])
      #expect(failed.status == 1)
      #expect(failed.standardOutput.contains("layout: button 'loginButton' moved 8 pt down"))
      let snapshot = try #require((try workspace.lastRun()["snapshots"] as? [[String: Any]])?.first)
      let layout = try #require(snapshot["layout"] as? [[String: Any]])
      #expect(layout.first?["identifier"] as? String == "loginButton")
      #expect(snapshot["ignoredPixels"] as? Int ?? 0 > 0)

      // Approving takes the tree along.
      #expect(try workspace.snapdiff(["approve", key]).status == 0)
      let stored = try ElementTree.load(workspace.root + "/baselines/\(key).tree.json")
      #expect(stored.root.allElements().first { $0.identifier == "loginButton" }?.frame.y == 528)
      #expect(try workspace.snapdiff(["check", "frames"], environment: ["CI": "true"]).status == 0)

      // Layout level from the command line: colour changes pass, moves fail.
      #expect(try workspace.snapdiff(["check", "frames", "--match", "layout"]).status == 0)
    }
  }

  static func relabel(_ tree: ElementTree, _ identifier: String, _ label: String) -> ElementTree {
    var copy = tree
    copy.root = ElementCommandsTests.relabel(identifier, label, tree.root)
    return copy
  }
}
