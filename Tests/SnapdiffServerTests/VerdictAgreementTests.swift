import Foundation
import SnapdiffCore
import SnapdiffTesting
import Testing

/// One rule decides a snapshot's verdict, whichever entry point asks (issue #15, item 1): the same
/// frames against the same baselines and `snapdiff.json` give the same status and the same count
/// through `snapdiff check`, the test API's in-process checker, and a real `snapdiff serve`
/// through the test API's service checker.
@Suite("verdicts agree across check, the test API and the service")
struct VerdictAgreementTests {
  /// key → (baseline, current) on the 40×20 fixture screen.
  static let pairs: [(key: String, baseline: [PixelRect], current: [PixelRect])] = [
    ("same/Home", [PixelRect(x: 2, y: 2, width: 4, height: 4)], [PixelRect(x: 2, y: 2, width: 4, height: 4)]),
    ("moved/Home", [PixelRect(x: 2, y: 2, width: 4, height: 4)], [PixelRect(x: 30, y: 12, width: 4, height: 4)]),
    // 9 pixels change, within snapdiff.json's maxDiffPixels of 10.
    ("tolerated/Home", [], [PixelRect(x: 30, y: 5, width: 3, height: 3)]),
    // A change inside snapdiff.json's ignore rule for `status/*`.
    ("status/Clock", [], [PixelRect(x: 0, y: 0, width: 8, height: 4)]),
  ]

  static let config = #"""
    {"maxDiffPixels": 10, "ignore": [{"keys": "status/*", "regions": [{"x": 0, "y": 0, "width": 10, "height": 5}]}]}
    """#

  @Test("passed, failed, within tolerance, ignored by a config rule: the same three times")
  func sameVerdicts() async throws {
    let snapdiff = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let root = fixture.root
      try Self.config.write(toFile: root + "/snapdiff.json", atomically: true, encoding: .utf8)
      var frames: [(key: String, image: RGBAImage)] = []
      for pair in Self.pairs {
        try fixture.writeBaseline(pair.key, ServerFixture.screen(pair.baseline))
        let current = ServerFixture.screen(pair.current)
        frames.append((pair.key, current))
        let path = root + "/frames/" + pair.key + ".png"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try PNGEncoder().write(current, to: path)
      }

      // 1. snapdiff check.
      let check = Process()
      check.executableURL = URL(fileURLWithPath: snapdiff)
      check.arguments = ["check", "frames", "--record", "never"]
      check.currentDirectoryURL = URL(fileURLWithPath: root)
      check.standardOutput = FileHandle.nullDevice
      try check.run()
      check.waitUntilExit()
      let record = try fixture.record("last")
      var byCheck: [String: String] = [:]
      for snapshot in record.snapshots { byCheck[snapshot.key] = "\(snapshot.status.rawValue) \(snapshot.differentPixels)" }

      // 2. The test API in this process, with the project's snapdiff.json.
      let local = LocalSnapshotChecker(
        baselines: root + "/baselines", frames: root + "/test-frames", artifacts: root + "/artifacts",
        recordMode: .never, config: try ProjectConfig.load(root + "/snapdiff.json"))
      var byTestAPI: [String: String] = [:]
      for frame in frames {
        let verdict = try local.verify(CapturedFrame(Frame(image: frame.image, tree: nil, path: frame.key)), key: frame.key)
        byTestAPI[frame.key] = "\(verdict.status.rawValue) \(verdict.differentPixels)"
      }

      // 3. A real snapdiff serve in the project folder (it reads ./snapdiff.json), through the
      //    test API's service checker.
      let posted = frames
      let byService = try await offCooperativePool { () throws -> [String: String] in
        let server = try ServeProcess(executable: snapdiff, root: root, token: nil, arguments: ["--record", "never"])
        defer { server.stop() }
        let service = SnapshotChecker.service(url: "http://127.0.0.1:\(server.port)", runName: "agreement")
        var verdicts: [String: String] = [:]
        for frame in posted {
          let verdict = try service.verify(CapturedFrame(Frame(image: frame.image, tree: nil, path: frame.key)), key: frame.key)
          verdicts[frame.key] = "\(verdict.status.rawValue) \(verdict.differentPixels)"
        }
        return verdicts
      }

      let expected = ["same/Home": "passed 0", "moved/Home": "failed 32", "tolerated/Home": "passed 9", "status/Clock": "passed 0"]
      #expect(byCheck == expected)
      #expect(byTestAPI == expected)
      #expect(byService == expected)
    }
  }
}
