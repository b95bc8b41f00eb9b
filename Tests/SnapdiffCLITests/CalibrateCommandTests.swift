import Foundation
import SnapdiffCore
import Testing

/// `snapdiff calibrate` (issue #27, item 4): confusion tables of every level and setting on
/// labelled pairs made here, from a folder with its cases.json and from a project's approval
/// history, through the real `snapdiff` process.
@Suite("calibrate")
struct CalibrateCommandTests {
  static let gray = RGBAColor(red: 200, green: 200, blue: 200)
  static let dark = RGBAColor(red: 20, green: 30, blue: 40)

  /// A 60×40 gray screen with a dark bar, its colours raised by `tint` levels, and dark squares.
  static func screen(tint: UInt8 = 0, squares: [PixelRect] = []) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 40, filledWith: gray)
    for y in 5..<10 { for x in 5..<50 { image[x: x, y: y] = dark } }
    for rect in squares {
      for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { image[x: x, y: y] = dark } }
    }
    if tint > 0 {
      for index in image.pixels.indices where index % 4 != 3 { image.pixels[index] += tint }
    }
    return image
  }

  /// Writes `image` to `folder/relative`.
  static func write(_ image: RGBAImage, _ folder: String, _ relative: String) throws {
    let path = folder + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try PNGEncoder().write(image, to: path)
  }

  /// A folder of four pairs: rendering noise (every pixel 2 levels lighter), a 6×6 square added
  /// (1.5 % of the pixels), a 2×2 square added (0.17 %), and one of unknown kind.
  static func makePairs(_ folder: String, cases: String? = nil) throws {
    try write(screen(), folder, "pairs/base.png")
    try write(screen(tint: 2), folder, "pairs/tinted.png")
    try write(screen(squares: [PixelRect(x: 20, y: 20, width: 6, height: 6)]), folder, "pairs/square.png")
    try write(screen(squares: [PixelRect(x: 40, y: 30, width: 2, height: 2)]), folder, "pairs/dot.png")
    let json =
      cases ?? """
        [{"id": "tint", "kind": "noise", "a": "pairs/base.png", "b": "pairs/tinted.png",
          "noise_class": "rendering", "repo": "app-one", "note": "OS update"},
         {"id": "square", "kind": "change", "a": "pairs/base.png", "b": "pairs/square.png", "repo": "app-one"},
         {"id": "dot", "kind": "change", "a": "pairs/base.png", "b": "pairs/dot.png", "repo": "app-two"},
         {"id": "mixed", "kind": "unknown", "a": "pairs/base.png", "b": "pairs/square.png", "repo": "app-two"}]
        """
    try json.write(toFile: folder + "/cases.json", atomically: true, encoding: .utf8)
  }

  /// The JSON's settings by name.
  static func settings(_ output: SnapdiffProcess.Output) throws -> [String: [String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as! [String: Any]
    let rows = object["settings"] as! [[String: Any]]
    return Dictionary(uniqueKeysWithValues: rows.map { ($0["setting"] as! String, $0) })
  }

  static func failed(_ row: [String: Any]?) -> (noise: Int, missed: Int) {
    let noise = row?["noise"] as? [String: Any]
    let changes = row?["changes"] as? [String: Any]
    return (noise?["failed"] as? Int ?? -1, changes?["missed"] as? Int ?? -1)
  }

  @Test("every pixel level and setting is measured: noise failed and changes missed as the pairs make them")
  func confusionTable() throws {
    try withTemporaryDirectory { folder in
      try Self.makePairs(folder)
      let output = try SnapdiffProcess.run(["calibrate", folder, "--json", "--jobs", "2"])
      #expect(output.status == 0, "\(output.standardError)")
      let rows = try Self.settings(output)
      // Every level that compares pixels alone, a level added later included; none that needs trees.
      let levels = Set(rows.values.map { $0["matchLevel"] as! String })
      #expect(levels == Set(MatchLevel.allCases.filter { !$0.usesElementTrees }.map(\.rawValue)))
      #expect(!levels.contains("layout") && !levels.contains("text-aware"))
      #expect(Self.failed(rows["exact"]) == (1, 0))
      #expect(Self.failed(rows["strict"]) == (0, 0))
      #expect(Self.failed(rows["strict --threshold 0.05"]) == (0, 0))
      #expect(Self.failed(rows["perceptual"]) == (0, 0))
      #expect(Self.failed(rows["perceptual --delta-e 1"]) == (0, 0))
      // 1 % of 2,400 pixels lets the 4-pixel dot through, not the 36-pixel square; 0.1 % neither.
      #expect(Self.failed(rows["strict --max-diff-ratio 0.01"]) == (0, 1))
      #expect(Self.failed(rows["strict --max-diff-ratio 0.001"]) == (0, 0))
      #expect(Self.failed(rows["exact --max-diff-ratio 0.01"]) == (1, 1))
      let strict = rows["strict"]!
      #expect((strict["unknown"] as! [String: Any])["pairs"] as? Int == 1)
      let byClass = (strict["noise"] as! [String: Any])["failedByClass"] as! [String: [String: Int]]
      #expect(byClass == ["rendering": ["pairs": 1, "failed": 0]])
      // Progress on standard error, a line at a time when it is not a terminal.
      #expect(output.standardError.contains("[4/4] "))
      let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as! [String: Any]
      let cases = object["cases"] as! [[String: Any]]
      #expect(cases.map { $0["id"] as! String } == ["tint", "square", "dot", "mixed"])
      let dot = cases[2]["differentPixels"] as! [String: Int]
      #expect(dot["strict"] == 4)
      #expect((cases[2]["difference"] as? [String: Any])?["kind"] as? String == "element")
      #expect(cases[0]["difference"] is NSNull)
      let differences = object["differences"] as! [String: [String: Any]]
      #expect(differences["element"]?["changes"] as? Int == 2)
    }
  }

  @Test("the text is a Markdown table per setting, and per group with --by-group")
  func markdownTables() throws {
    try withTemporaryDirectory { folder in
      try Self.makePairs(folder)
      let output = try SnapdiffProcess.run(["calibrate", folder + "/cases.json", "--by-group", "--quiet"])
      #expect(output.status == 0, "\(output.standardError)")
      #expect(output.standardError.isEmpty)
      let text = output.standardOutput
      #expect(text.hasPrefix("4 pairs: 1 noise (1 rendering), 2 changes, 1 unknown (compared, not scored)\n"))
      #expect(text.contains("| setting | noise passed | noise failed | changes caught | changes missed |"))
      #expect(text.contains("| `strict` (default) | 1 / 1 | 0 / 1 | 2 / 2 | 0 / 2 |"))
      #expect(text.contains("| `exact` | 0 / 1 | 1 / 1 | 2 / 2 | 0 / 2 |"))
      #expect(text.contains("| kind of difference at `strict` | noise: rendering | changes | unknown |"))
      #expect(text.contains("| element | 0 | 2 | 1 |"))
      #expect(text.contains("app-one: 2 pairs: 1 noise (1 rendering), 1 change"))
      #expect(text.contains("app-two: 2 pairs: 0 noise, 1 change, 1 unknown (compared, not scored)"))
      let only = try SnapdiffProcess.run([
        "calibrate", folder, "--level", "perceptual", "--level", "perceptual", "--quiet",
      ])
      #expect(only.status == 0)
      #expect(only.standardOutput.components(separatedBy: "`perceptual --delta-e 5`").count == 2)
      #expect(!only.standardOutput.contains("| `strict"))
    }
  }

  @Test("bad input is refused naming the file and the pair, with exit status 2")
  func badInput() throws {
    try withTemporaryDirectory { root in
      let folder = root + "/pairs-folder"
      try Self.makePairs(folder)
      try Self.write(Self.screen(), root, "outside.png")

      func refused(_ cases: String, _ expected: [String]) throws {
        try cases.write(toFile: folder + "/cases.json", atomically: true, encoding: .utf8)
        let output = try SnapdiffProcess.run(["calibrate", folder, "--quiet"])
        #expect(output.status == 2, "\(cases): \(output.standardOutput)")
        for text in expected { #expect(output.standardError.contains(text), "\(output.standardError)") }
      }
      try refused(
        #"[{"id": "up", "kind": "noise", "a": "pairs/base.png", "b": "../outside.png"}]"#,
        ["case 1 ('up')", "b '../outside.png' leads outside the folder"])
      try refused(
        #"[{"id": "abs", "kind": "noise", "a": "/etc/passwd", "b": "pairs/base.png"}]"#,
        ["case 1 ('abs')", "a '/etc/passwd' must be a path relative to"])
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/link.png", withDestinationPath: root + "/outside.png")
      try refused(
        #"[{"id": "ok", "kind": "change", "a": "pairs/base.png", "b": "pairs/dot.png"}, {"id": "linked", "kind": "change", "a": "link.png", "b": "pairs/base.png"}]"#,
        ["case 2 ('linked')", "symbolic link that leads outside it"])
      try refused(
        #"[{"id": "gone", "kind": "change", "a": "pairs/base.png", "b": "pairs/missing.png"}]"#,
        ["case 1 ('gone')", "b 'pairs/missing.png' names no file"])
      try refused(
        #"[{"id": "odd", "kind": "regression", "a": "pairs/base.png", "b": "pairs/dot.png"}]"#,
        ["case 1 ('odd')", "kind 'regression' is not one of noise, change, unknown"])
      try refused(
        #"[{"id": "twice", "kind": "change", "a": "pairs/base.png", "b": "pairs/dot.png"}, {"id": "twice", "kind": "change", "a": "pairs/base.png", "b": "pairs/dot.png"}]"#,
        ["case 2 ('twice'): the id is used twice"])
      try refused(#"{"cases": []}"#, ["cases.json: not a list of labelled pairs"])
      try refused(
        #"[{"id": "half", "kind": "change", "a": "pairs/base.png"}]"#, ["cases.json: not a list of labelled pairs"])
      try refused("[]", ["cases.json: holds no pairs"])
      try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/pairs/broken.png"))
      try refused(
        #"[{"id": "broken", "kind": "change", "a": "pairs/base.png", "b": "pairs/broken.png"}]"#,
        ["pair 'broken'", "broken.png"])

      let missing = try SnapdiffProcess.run(["calibrate", root, "--quiet"])
      #expect(missing.status == 2)
      #expect(missing.standardError.contains("\(root)/cases.json: not found: the folder has no cases.json"))
    }
  }

  @Test("usage errors exit 64 and --help explains the labels, the history and the settings")
  func usage() throws {
    #expect(try SnapdiffProcess.run(["calibrate"]).status == 64)
    let trees = try SnapdiffProcess.run(["calibrate", ".", "--level", "layout"])
    #expect(trees.status == 64)
    #expect(trees.standardError.contains("--level layout decides from element trees"))
    let history = try SnapdiffProcess.run(["calibrate", "--history"])
    #expect(history.status == 64)
    #expect(history.standardError.contains("--history needs --os-update FROM..TO or --os-update-run ID"))
    let period = try SnapdiffProcess.run(["calibrate", "--history", "--os-update", "last week"])
    #expect(period.status == 64)
    #expect(period.standardError.contains("'last week' is not a period"))
    let help = try SnapdiffProcess.run(["calibrate", "--help"])
    #expect(help.status == 0)
    for text in ["noise_class", "--os-update", "false alarms", "--max-diff-ratio", "Exit status"] {
      #expect(help.standardOutput.contains(text), "\(text)")
    }
  }

  @Test("--history: approvals from an OS-update run are noise, the others changes; undone ones left out")
  func fromHistory() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home", Self.screen())
      try workspace.writeFrame("Cart", Self.screen())
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      // A change on purpose, approved.
      try workspace.writeFrame("Home", Self.screen(squares: [PixelRect(x: 20, y: 20, width: 6, height: 6)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      // An OS update re-renders both screens: re-recorded (exact, so that they fail) and approved.
      try workspace.writeFrame("Home", Self.screen(tint: 2, squares: [PixelRect(x: 20, y: 20, width: 6, height: 6)]))
      try workspace.writeFrame("Cart", Self.screen(tint: 2))
      #expect(try workspace.snapdiff(["check", "frames", "--match", "exact"]).status == 1)
      let osRun = try workspace.lastRun()["id"] as! String
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      // A third change, approved and then undone: not a pair.
      try workspace.writeFrame("Cart", Self.screen(tint: 2, squares: [PixelRect(x: 1, y: 1, width: 3, height: 3)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      #expect(try workspace.snapdiff(["approve", "Cart"]).status == 0)
      #expect(try workspace.snapdiff(["approve", "--undo", "Cart"]).status == 0)

      let output = try workspace.snapdiff(["calibrate", "--history", "--os-update-run", osRun, "--json", "--by-group"])
      #expect(output.status == 0, "\(output.standardError)")
      let rows = try Self.settings(output)
      #expect(Self.failed(rows["exact"]) == (2, 0))
      #expect(Self.failed(rows["strict"]) == (0, 0))
      let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as! [String: Any]
      let kinds = (object["cases"] as! [[String: Any]]).map { $0["kind"] as! String }
      #expect(kinds.sorted() == ["change", "noise", "noise"])
      #expect((object["groups"] as! [String: Any]).keys.contains(osRun))

      // An approval whose new baseline is gone from the blob store is left out, and counted.
      let history = try workspace.snapdiff(["history", "Home", "--json"])
      let lines = history.standardOutput.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      let last = try #require(lines.last { $0["action"] as? String == "approve" })
      let hash = last["new"] as! String
      let blob = workspace.root + "/.snapdiff/blobs/sha256/" + hash.prefix(2) + "/" + hash
      try FileManager.default.removeItem(atPath: blob)
      let pruned = try workspace.snapdiff(["calibrate", "--history", "--os-update-run", osRun, "--json"])
      #expect(pruned.status == 0, "\(pruned.standardError)")
      #expect(
        pruned.standardError.contains("1 approval left out: its images are no longer in "), "\(pruned.standardError)")
      let left = try JSONSerialization.jsonObject(with: Data(pruned.standardOutput.utf8)) as! [String: Any]
      #expect((left["cases"] as! [[String: Any]]).count == 2)

      // A period that holds no approval: every pair left is a change.
      let period = try workspace.snapdiff(["calibrate", "--history", "--os-update", "2001-01-01..2001-12-31", "--json"])
      #expect(period.status == 0, "\(period.standardError)")
      let all = try Self.settings(period)
      #expect((all["strict"]!["changes"] as! [String: Any])["pairs"] as? Int == 2)
    }
  }
}
