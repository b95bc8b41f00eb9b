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
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
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
      for snapshot in record.snapshots {
        byCheck[snapshot.key] = "\(snapshot.status.rawValue) \(snapshot.differentPixels)"
      }

      // 2. The test API in this process, with the project's snapdiff.json.
      let local = LocalSnapshotChecker(
        baselines: root + "/baselines", frames: root + "/test-frames", artifacts: root + "/artifacts",
        recordMode: .never, config: try ProjectConfig.load(root + "/snapdiff.json"))
      var byTestAPI: [String: String] = [:]
      for frame in frames {
        let verdict = try local.verify(
          CapturedFrame(Frame(image: frame.image, tree: nil, path: frame.key)), key: frame.key)
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
          let verdict = try service.verify(
            CapturedFrame(Frame(image: frame.image, tree: nil, path: frame.key)), key: frame.key)
          verdicts[frame.key] = "\(verdict.status.rawValue) \(verdict.differentPixels)"
        }
        return verdicts
      }

      let expected = [
        "same/Home": "passed 0", "moved/Home": "failed 32", "tolerated/Home": "passed 9", "status/Clock": "passed 0",
      ]
      #expect(byCheck == expected)
      #expect(byTestAPI == expected)
      #expect(byService == expected)
    }
  }

  /// A snapshot of the record-mode table: its baseline (none: a new snapshot) and its frame, the
  /// settings file beside the baseline, and the masks the test gives.
  struct Case: Sendable {
    var key: String
    var baseline: [PixelRect]?
    var current: [PixelRect]
    var color = ServerFixture.ink
    var baselineSettings: String?
    var masks: [PixelRect] = []
  }

  static let square = PixelRect(x: 2, y: 2, width: 4, height: 4)
  static let cases: [Case] = [
    Case(key: "same/Home", baseline: [square], current: [square]),
    Case(key: "moved/Home", baseline: [square], current: [PixelRect(x: 30, y: 12, width: 4, height: 4)]),
    // Passes under snapdiff.json's tolerance without being identical: mode `all` rewrites it.
    Case(key: "tolerated/Home", baseline: [], current: [PixelRect(x: 30, y: 5, width: 3, height: 3)]),
    Case(key: "new/Home", baseline: nil, current: [square]),
    // The change lies under the test's mask (a frame's own settings).
    Case(
      key: "masked/Home", baseline: [], current: [PixelRect(x: 20, y: 10, width: 4, height: 4)],
      masks: [PixelRect(x: 18, y: 8, width: 8, height: 8)]),
    // The settings file beside the baseline tolerates the move.
    Case(
      key: "settings/Home", baseline: [square], current: [PixelRect(x: 30, y: 12, width: 4, height: 4)],
      baselineSettings: #"{"maxDiffPixels": 40}"#),
    // Match levels from the baseline's settings: the same change at perceptual and text-aware
    // (without trees: perceptual's pixels), and at strict for contrast.
    Case(key: "strict/Home", baseline: [square], current: [square], color: RGBAColor(red: 34, green: 30, blue: 52)),
    Case(
      key: "perceptual/Home", baseline: [square], current: [square], color: RGBAColor(red: 34, green: 30, blue: 52),
      baselineSettings: #"{"matchLevel": "perceptual"}"#),
    Case(
      key: "textaware/Home", baseline: [square], current: [square], color: RGBAColor(red: 34, green: 30, blue: 52),
      baselineSettings: #"{"matchLevel": "text-aware"}"#),
  ]

  /// `fails pixels written`: whether the snapshot fails its test (or run), its count, and
  /// whether its baseline file was written.
  typealias Outcomes = [String: String]

  @Test(
    "record modes, masks, settings files and match levels: the same outcome three times",
    arguments: RecordMode.allCases)
  func sameOutcomes(mode: RecordMode) async throws {
    let snapdiff = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let root = fixture.root
      try Self.config.write(toFile: root + "/snapdiff.json", atomically: true, encoding: .utf8)
      for item in Self.cases {
        if let baseline = item.baseline { try fixture.writeBaseline(item.key, ServerFixture.screen(baseline)) }
        if let settings = item.baselineSettings {
          try settings.write(
            toFile: fixture.baselines + "/" + item.key + ".snapdiff.json", atomically: true, encoding: .utf8)
        }
        let path = root + "/frames/" + item.key + ".png"
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try PNGEncoder().write(ServerFixture.screen(item.current, color: item.color), to: path)
        // `check` reads a test's masks from the frames folder, as the test API leaves them.
        if !item.masks.isEmpty {
          let settings = SnapshotSettings(ignoreRegions: item.masks)
          try Data(try JSONEncoder().encode(settings)).write(
            to: URL(fileURLWithPath: root + "/frames/" + item.key + ".snapdiff.json"))
        }
      }
      let pristine = try Self.baselineFiles(fixture.baselines)
      /// Which baselines an entry point wrote; the store put back as it was for the next one.
      func written() throws -> Set<String> {
        let now = try Self.baselineFiles(fixture.baselines)
        try FileManager.default.removeItem(atPath: fixture.baselines)
        for (key, bytes) in pristine {
          try FileManager.default.createDirectory(
            atPath: ((fixture.baselines + "/" + key) as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
          try Data(bytes).write(to: URL(fileURLWithPath: fixture.baselines + "/" + key))
        }
        return Set(
          now.keys.filter { $0.hasSuffix(".png") && now[$0] != pristine[$0] }.map { String($0.dropLast(".png".count)) })
      }
      func outcomes(_ figures: [String: (fails: Bool, pixels: Int)], written: Set<String>) -> Outcomes {
        figures.mapValues { "\($0.fails) \($0.pixels)" }.merging(
          Dictionary(uniqueKeysWithValues: figures.keys.map { ($0 + " written", "\(written.contains($0))") })
        ) { a, _ in a }
      }

      // 1. snapdiff check.
      let check = Process()
      check.executableURL = URL(fileURLWithPath: snapdiff)
      check.arguments = ["check", "frames", "--record", mode.rawValue]
      check.currentDirectoryURL = URL(fileURLWithPath: root)
      check.standardOutput = FileHandle.nullDevice
      check.standardError = FileHandle.nullDevice
      try check.run()
      check.waitUntilExit()
      let record = try fixture.record("last")
      let byCheck = outcomes(
        Dictionary(
          uniqueKeysWithValues: record.snapshots.map {
            ($0.key, (RunVerdict.fails(with: $0, recordMode: mode), $0.differentPixels))
          }), written: try written())

      // 2. The test API in this process.
      let local = LocalSnapshotChecker(
        baselines: fixture.baselines, frames: root + "/test-frames", artifacts: root + "/artifacts",
        recordMode: mode, config: try ProjectConfig.load(root + "/snapdiff.json"))
      var figures: [String: (fails: Bool, pixels: Int)] = [:]
      for item in Self.cases {
        let frame = Frame(image: ServerFixture.screen(item.current, color: item.color), tree: nil, path: item.key)
        let verdict = try local.verify(CapturedFrame(frame), key: item.key, masks: SnapshotMasks(regions: item.masks))
        figures[item.key] = (verdict.status == .failed, verdict.differentPixels)
      }
      let byTestAPI = outcomes(figures, written: try written())

      // 3. A real snapdiff serve in the project folder, through the test API's service checker.
      let cases = Self.cases
      let serviceFigures = try await offCooperativePool { () throws -> [String: (fails: Bool, pixels: Int)] in
        let server = try ServeProcess(
          executable: snapdiff, root: root, token: nil, arguments: ["--record", mode.rawValue])
        defer { server.stop() }
        let service = SnapshotChecker.service(url: "http://127.0.0.1:\(server.port)", runName: "agreement-\(mode)")
        var figures: [String: (fails: Bool, pixels: Int)] = [:]
        for item in cases {
          let frame = Frame(image: ServerFixture.screen(item.current, color: item.color), tree: nil, path: item.key)
          let verdict = try service.verify(
            CapturedFrame(frame), key: item.key, masks: SnapshotMasks(regions: item.masks))
          figures[item.key] = (verdict.status == .failed, verdict.differentPixels)
        }
        return figures
      }
      let byService = outcomes(serviceFigures, written: try written())

      #expect(byCheck == byTestAPI)
      #expect(byCheck == byService)
      // What the table is for: each mode and setting had its effect.
      #expect(byCheck["moved/Home"] == "true 32")
      #expect(byCheck["settings/Home"] == "false 32")
      #expect(byCheck["masked/Home"] == "false 0")
      #expect(byCheck["new/Home"] == "\(mode == .never) 0")
      #expect(byCheck["new/Home written"] == "\(mode != .never)")
      #expect(byCheck["moved/Home written"] == "\(mode == .all || mode == .failed)")
      #expect(byCheck["tolerated/Home written"] == "\(mode == .all)")
      #expect(byCheck["same/Home written"] == "false")
    }
  }

  /// Every file of the store (baselines, settings files) with its bytes, by its path under `root`.
  static func baselineFiles(_ root: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
    for case let path as String in walker {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
    }
    return files
  }
}
