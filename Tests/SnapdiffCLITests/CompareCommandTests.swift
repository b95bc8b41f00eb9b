import Foundation
import SnapdiffCore
import Testing

/// `snapdiff compare` run as a real process: verdicts, JSON, exit codes, errors.
@Suite("snapdiff compare")
struct CompareCommandTests {
  let a = CLIFixtures.path("pixelmatch/1a.png")
  let b = CLIFixtures.path("pixelmatch/1b.png")

  @Test("a difference: exit 1, a verdict line, and the diff image written")
  func differs() throws {
    try withTemporaryDirectory { folder in
      let diff = folder + "/diff.png"
      let output = try SnapdiffProcess.run(["compare", a, b, "--threshold", "0.05", "--diff", diff])
      #expect(output.status == 1)
      #expect(output.standardOutput.hasPrefix("FAIL  143 of 131,072 pixels differ (0.109%)"))
      #expect(output.standardOutput.contains("diff image: \(diff)"))
      #expect(output.standardError.isEmpty)
      let expected = try PNGDecoder().decode(contentsOf: CLIFixtures.path("pixelmatch/diff-v6/1diff.png"))
      #expect(try PNGDecoder().decode(contentsOf: diff) == expected)
    }
  }

  @Test("identical files: exit 0")
  func identical() throws {
    let output = try SnapdiffProcess.run(["compare", a, a])
    #expect(output.status == 0)
    #expect(output.standardOutput.hasPrefix("PASS  identical (512×256)"))
  }

  @Test("--json prints every documented field")
  func json() throws {
    let output = try SnapdiffProcess.run(["compare", a, b, "--json"])
    #expect(output.status == 1)
    let object = try output.json()
    #expect(object["baseline"] as? String == a)
    #expect(object["current"] as? String == b)
    #expect(object["width"] as? Int == 512 && object["height"] as? Int == 256)
    #expect(object["identical"] as? Bool == false && object["passed"] as? Bool == false)
    #expect(object["differentPixels"] as? Int == 106)
    #expect(object["antialiasedPixels"] as? Int == 61)
    #expect(object["ignoredPixels"] as? Int == 0)
    #expect(object["totalPixels"] as? Int == 131_072)
    #expect(object["differentRatio"] as? Double == 106.0 / 131_072)
    #expect((object["regions"] as? [[String: Int]])?.first == ["x": 420, "y": 103, "width": 33, "height": 41])
    #expect(object["diff"] is NSNull)
    #expect(object["baselineSize"] == nil)
  }

  @Test("tolerances turn a difference into a pass")
  func tolerances() throws {
    let passing = try SnapdiffProcess.run(["compare", a, b, "--max-diff-pixels", "106", "--max-diff-ratio", "0.001"])
    #expect(passing.status == 0)
    #expect(passing.standardOutput.contains("within tolerance"))
    let failing = try SnapdiffProcess.run(["compare", a, b, "--max-diff-pixels", "105", "--max-diff-ratio", "1"])
    #expect(failing.status == 1)
  }

  @Test("a limit not given is absent: either limit alone decides (106 of 131,072 pixels differ)")
  func oneLimitAlone() throws {
    let statuses = try [
      [String](),  // neither: one different pixel fails
      ["--max-diff-ratio", "0.001"],  // 0.08 %: within, although no pixel count was given
      ["--max-diff-ratio", "0.0008"],
      ["--max-diff-pixels", "106"],  // within, although no ratio was given
      ["--max-diff-pixels", "105"],
      ["--max-diff-pixels", "200", "--max-diff-ratio", "0.0008"],  // together: both must hold
    ].map { try SnapdiffProcess.run(["compare", a, b] + $0).status }
    #expect(statuses == [1, 0, 1, 0, 1, 1])
  }

  @Test("--ignore hides a region, --include-aa counts anti-aliasing")
  func ignoreAndAA() throws {
    let ignored = try SnapdiffProcess.run([
      "compare", CLIFixtures.path("odiff/orange.png"), CLIFixtures.path("odiff/orange_changed.png"),
      "--include-aa", "--ignore", "150,30,161,76", "--ignore", "20,175,86,26", "--json",
    ])
    #expect(ignored.status == 0)
    #expect(try ignored.json()["ignoredPixels"] as? Int == 1366)
    let counted = try SnapdiffProcess.run(["compare", a, b, "--threshold", "0.05", "--include-aa", "--json"])
    #expect(try counted.json()["differentPixels"] as? Int == 251)
  }

  @Test("colours and diff mask reach the diff image")
  func colours() throws {
    try withTemporaryDirectory { folder in
      let diff = folder + "/2diff.png"
      let output = try SnapdiffProcess.run([
        "compare", CLIFixtures.path("pixelmatch/2a.png"), CLIFixtures.path("pixelmatch/2b.png"),
        "--threshold", "0.05", "--alpha", "0.5", "--aa-color", "0,192,0", "--diff-color", "255,0,255",
        "--diff", diff,
      ])
      #expect(output.status == 1)
      let expected = try PNGDecoder().decode(contentsOf: CLIFixtures.path("pixelmatch/diff-v6/2diff.png"))
      #expect(try PNGDecoder().decode(contentsOf: diff) == expected)

      let mask = folder + "/mask.png"
      _ = try SnapdiffProcess.run(["compare", a, b, "--threshold", "0.05", "--diff-mask", "--diff", mask])
      let expectedMask = try PNGDecoder().decode(contentsOf: CLIFixtures.path("pixelmatch/diff-v6/1diffmask.png"))
      #expect(try PNGDecoder().decode(contentsOf: mask) == expectedMask)
    }
  }

  @Test("different sizes: exit 1, both sizes named")
  func sizes() throws {
    let small = CLIFixtures.path("odiff/white4x4.png")
    let large = CLIFixtures.path("odiff/purple8x8.png")
    let output = try SnapdiffProcess.run(["compare", small, large])
    #expect(output.status == 1)
    #expect(output.standardOutput.contains("sizes differ: baseline 4×4, current 8×8"))
    let json = try SnapdiffProcess.run(["compare", small, large, "--json"]).json()
    #expect(json["differentPixels"] as? Int == 64)
    #expect(json["baselineSize"] as? [String: Int] == ["width": 4, "height": 4])
    #expect(json["currentSize"] as? [String: Int] == ["width": 8, "height": 8])
  }

  @Test("bad input: exit 2, the file and the problem on stderr")
  func badInput() throws {
    try withTemporaryDirectory { folder in
      let empty = folder + "/empty.png"
      FileManager.default.createFile(atPath: empty, contents: Data())
      let truncated = folder + "/truncated.png"
      let bytes = try Data(contentsOf: URL(fileURLWithPath: a))
      FileManager.default.createFile(atPath: truncated, contents: bytes.prefix(bytes.count / 2))
      let text = folder + "/notes.png"
      FileManager.default.createFile(atPath: text, contents: Data("hello".utf8))

      let cases: [(String, String)] = [
        (empty, "\(empty): not a PNG file: the file is empty (0 bytes)"),
        (truncated, "\(truncated): truncated PNG"),
        (text, "\(text): not a PNG file"),
        (folder + "/missing.png", "\(folder)/missing.png: cannot open: no such file or directory"),
        (folder, "\(folder): is a directory, not a file"),
      ]
      for (path, message) in cases {
        let output = try SnapdiffProcess.run(["compare", a, path])
        #expect(output.status == 2, "\(path)")
        #expect(output.standardError.hasPrefix("snapdiff: error: \(message)"), "\(output.standardError)")
        #expect(output.standardOutput.isEmpty)
      }

      let limited = try SnapdiffProcess.run(["compare", a, b, "--max-megapixels", "0.1"])
      #expect(limited.status == 2)
      #expect(limited.standardError.contains("image too large: 512×256 is 0.1 megapixels, over the limit of 0.1"))

      // A diff image that cannot be written is an I/O error too.
      let unwritable = try SnapdiffProcess.run(["compare", a, b, "--diff", folder + "/no/such/dir/d.png"])
      #expect(unwritable.status == 2)
      #expect(unwritable.standardError.contains("no/such/dir/d.png: cannot create a file beside it"))
    }
  }

  @Test(
    "usage errors: exit 64 with the reason",
    arguments: [
      (["compare", "only-one.png"], "Missing expected argument"),
      (["compare", "a.png", "b.png", "--threshold", "2"], "--threshold must be between 0 and 1"),
      (["compare", "a.png", "b.png", "--max-diff-ratio", "5"], "--max-diff-ratio is a fraction between 0 and 1"),
      (["compare", "a.png", "b.png", "--ignore", "1,2,3"], "--ignore"),
      (["compare", "a.png", "b.png", "--ignore", "0,0,0,10"], "is empty"),
      (["compare", "a.png", "b.png", "--diff-color", "red"], "--diff-color"),
      (["compare", "a.png", "b.png", "--frobnicate"], "Unknown option '--frobnicate'"),
    ])
  func usage(_ arguments: [String], _ message: String) throws {
    let output = try SnapdiffProcess.run(arguments)
    #expect(output.status == 64)
    #expect(output.standardError.contains(message), "\(output.standardError)")
  }

  @Test("--help explains the command, its options and exit codes")
  func help() throws {
    let output = try SnapdiffProcess.run(["compare", "--help"])
    #expect(output.status == 0)
    for word in [
      "--diff", "--threshold", "--include-aa", "--ignore", "--max-diff-pixels", "--max-diff-ratio",
      "--diff-mask", "--alpha", "--aa-color", "--diff-color", "--diff-color-alt", "--json",
      "exits 0", "64 on a usage error",
    ] {
      #expect(output.standardOutput.contains(word), "\(word)")
    }
    let root = try SnapdiffProcess.run(["--help"])
    #expect(root.standardOutput.contains("compare"))
    let version = try SnapdiffProcess.run(["--version"]).standardOutput
    #expect(version.hasPrefix("0."))
    // Which inflater the PNG fast path was built with: libdeflate when its header is installed.
    let libdeflateInstalled = FileManager.default.fileExists(atPath: "/usr/include/libdeflate.h")
    #expect(
      version.contains("PNG image data inflated with \(libdeflateInstalled ? "libdeflate" : "zlib")"), "\(version)")
    #expect(version.contains("baselines written with \(libdeflateInstalled ? "libdeflate" : "libpng")"), "\(version)")
  }
}
