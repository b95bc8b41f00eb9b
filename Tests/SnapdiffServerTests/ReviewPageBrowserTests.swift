import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The review page as a reviewer uses it: the built `snapdiff serve` runs as a process over a
/// project in a temporary folder, a run with two failed snapshots, a passed one and a new one is
/// posted to it, and `scripts/review_page_check.py` drives headless Chromium through Selenium
/// over the page (the run list, the view modes, the keys, the token field, Approve and Reject).
/// Then this test reads the store itself: the approvals must have written the approved frames'
/// bytes, the rejection must have left the baseline as it was.
///
/// It needs Chromium, chromedriver and Selenium (`scripts/test.sh` installs them). Without them it
/// skips itself, except under `CI=true`, where a missing tool is a failure: CI must not go green
/// by skipping the only test of the page in a browser.
@Suite("the review page in headless Chromium")
struct ReviewPageBrowserTests {
  /// The tools the check needs that are not there, by the name a person would install.
  static let missingTools: [String] = {
    var missing: [String] = []
    if ExternalTool.chromium == nil { missing.append("chromium") }
    if ExternalTool.chromedriver == nil { missing.append("chromedriver (chromium-driver)") }
    if ExternalTool.path(["python3"]) == nil {
      missing.append("python3")
    } else if (try? ExternalTool.run(["python3", "-c", "import selenium"]))?.status != 0 {
      missing.append("selenium (pip install selenium)")
    }
    return missing
  }()
  static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

  /// The check script, in this checkout's `scripts/`.
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/review_page_check.py").path

  static let token = "browser-test-token"
  static let approvedByClick = "Login - test_login/Login"
  static let rejected = "Home - test_search/Home - search action"
  static let passed = "Settings - test_theme/Settings"
  static let approvedByKey = "Profile - test_edit/Profile"
  /// Two tall phone screens with one change: approved together as a group.
  static let group = ["Feed - test_feed/Feed", "Inbox - test_inbox/Inbox"]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "run list, view modes, keys and token field work; Approve writes the approved frame to baselines/, Reject keeps it",
    .enabled(
      if: missingTools.isEmpty || isCI,
      "needs chromium, chromedriver and Selenium (apt-get install chromium chromium-driver; pip install selenium); under CI=true it runs and fails without them"
    ),
    .timeLimit(.minutes(4)))
  func reviewInBrowser() async throws {
    try #require(Self.missingTools.isEmpty, "missing: \(Self.missingTools.joined(separator: ", "))")
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let login = Self.screen(accent: RGBAColor(red: 9, green: 105, blue: 218))
      let home = Self.screen(accent: RGBAColor(red: 26, green: 127, blue: 55))
      let settings = Self.screen(accent: RGBAColor(red: 130, green: 80, blue: 223))
      try fixture.writeBaseline(Self.approvedByClick, login)
      try fixture.writeBaseline(Self.rejected, home)
      try fixture.writeBaseline(Self.passed, settings)
      let homeBaselineBytes = try Self.bytes(fixture.baselines + "/" + Self.rejected + ".png")
      for key in Self.group { try fixture.writeBaseline(key, Self.tallScreen(banner: false)) }
      let tallChanged = ServerFixture.png(Self.tallScreen(banner: true))
      let frames: [(key: String, png: [UInt8], status: String)] = [
        (Self.group[0], tallChanged, "failed"),
        (Self.group[1], tallChanged, "failed"),
        (
          Self.approvedByClick,
          ServerFixture.png(Self.screen(accent: RGBAColor(red: 207, green: 34, blue: 46), moved: true)), "failed"
        ),
        (
          Self.rejected, ServerFixture.png(Self.screen(accent: RGBAColor(red: 26, green: 127, blue: 55), banner: true)),
          "failed"
        ),
        (Self.passed, ServerFixture.png(settings), "passed"),
        (Self.approvedByKey, ServerFixture.png(Self.screen(accent: RGBAColor(red: 191, green: 135, blue: 0))), "new"),
      ]

      let session = try await offCooperativePool {
        try Self.reviewInBrowser(
          executable: executable, root: fixture.root, baselines: fixture.baselines, frames: frames)
      }
      for (index, frame) in frames.enumerated() {
        #expect(
          session.verdictStatuses[index] == frame.status,
          "\(frame.key): \(session.verdictStatuses[index] ?? "no verdict")")
      }
      #expect(session.closedStatus == 200)
      let check = session.check
      #expect(
        check.status == 0,
        "review_page_check.py exited \(check.status):\n\(check.standardError.suffix(4000))\nserver: \(session.serverLog.suffix(1500))"
      )
      #expect(check.standardOutput.contains("checks passed"), "\(check.standardOutput)")
      #expect(
        session.serverExitStatus == 0,
        "snapdiff serve ended with status \(session.serverExitStatus): \(session.serverLog.suffix(1500))")
      let run = session.run

      // What the clicks and keys wrote, read from the store and run.json, not from the page.
      let frameBytes = Dictionary(uniqueKeysWithValues: frames.map { ($0.key, $0.png) })
      #expect(
        try Self.bytes(fixture.baselines + "/" + Self.approvedByClick + ".png") == frameBytes[Self.approvedByClick])
      #expect(try Self.bytes(fixture.baselines + "/" + Self.approvedByKey + ".png") == frameBytes[Self.approvedByKey])
      #expect(try Self.bytes(fixture.baselines + "/" + Self.rejected + ".png") == homeBaselineBytes)
      #expect(FileManager.default.fileExists(atPath: fixture.baselines + "/" + Self.rejected + ".rejected.json"))
      #expect(try fixture.baseline(Self.passed) == settings)
      for key in Self.group {
        #expect(
          try Self.bytes(fixture.baselines + "/" + key + ".png") == tallChanged, "the group approval wrote \(key)")
      }
      let statuses = Dictionary(
        uniqueKeysWithValues: try fixture.record(run).snapshots.map { ($0.key, $0.status.rawValue) })
      #expect(
        statuses == [
          Self.approvedByClick: "approved", Self.rejected: "rejected", Self.passed: "passed",
          Self.approvedByKey: "approved",
          Self.group[0]: "approved", Self.group[1]: "approved",
        ])
    }
  }

  /// What the browser session did: the run it reviewed, the statuses the server gave the frames,
  /// the script's output and the server's log.
  struct BrowserSession: Sendable {
    var run: String
    var verdictStatuses: [String?]
    var closedStatus: Int
    var check: ProcessOutput
    var serverLog: String
    /// How the server ended when stopped: 0 for a clean stop (a sanitizer's report ends it with
    /// its own status).
    var serverExitStatus: Int32
  }

  /// Starts `snapdiff serve` with a token, opens a run, posts `frames`, closes it, and runs the
  /// page check against it with the snapshots to approve, approve by key and reject; stops the
  /// server. Blocking: run it off the cooperative pool.
  static func reviewInBrowser(
    executable: String, root: String, baselines: String, frames: [(key: String, png: [UInt8], status: String)]
  ) throws -> BrowserSession {
    let server = try ServeProcess(executable: executable, root: root, token: token)
    var stopped = false
    defer { if !stopped { server.stop() } }
    let auth = "Authorization: Bearer \(token)\r\n"
    let host = "Host: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
    let body = #"{"name": "browser", "branch": "main"}"#
    let opened = try RawHTTP.send(
      "POST /api/v1/runs HTTP/1.1\r\n\(host)\(auth)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
      port: server.port)
    guard
      let run = (try? JSONSerialization.jsonObject(with: Data(opened.body.utf8)) as? [String: Any])?["id"] as? String
    else {
      throw ServeProcessError(message: "opening a run: \(opened.head)\n\(opened.body)")
    }
    var statuses: [String?] = []
    for frame in frames {
      let head =
        "PUT \(snapshotURI(run, frame.key)) HTTP/1.1\r\n\(host)\(auth)Content-Type: image/png\r\nContent-Length: \(frame.png.count)\r\n\r\n"
      let verdict = try RawHTTP.send(Array(head.utf8) + frame.png, port: server.port)
      statuses.append(
        (try? JSONSerialization.jsonObject(with: Data(verdict.body.utf8)) as? [String: Any])?["status"] as? String)
    }
    let closed = try RawHTTP.send(
      "POST /api/v1/runs/\(run)/close HTTP/1.1\r\n\(host)\(auth)Content-Length: 0\r\n\r\n", port: server.port)
    let check = try ExternalTool.run(
      [
        "python3", script, "--url", "http://127.0.0.1:\(server.port)", "--baselines", baselines,
        "--run", run, "--token", token, "--approve", approvedByClick, "--approve-by-key", approvedByKey,
        "--reject", rejected, "--artifacts", root + "/browser", "--timeout", "150",
      ] + (ProcessInfo.processInfo.environment["SNAPDIFF_SCREENSHOTS"].map { ["--screenshots", $0] } ?? []))
    stopped = true
    let exitStatus = server.stop()
    return BrowserSession(
      run: run, verdictStatuses: statuses, closedStatus: closed.status, check: check, serverLog: server.log(),
      serverExitStatus: exitStatus)
  }

  /// A 180×320 screen: a title bar, text lines, a button in `accent`; `moved` shifts the text,
  /// `banner` adds a yellow banner.
  static func screen(accent: RGBAColor, moved: Bool = false, banner: Bool = false) -> RGBAImage {
    var image = RGBAImage(width: 180, height: 320, filledWith: ServerFixture.white)
    var rects: [(PixelRect, RGBAColor)] = [
      (PixelRect(x: 0, y: 0, width: 180, height: 28), RGBAColor(red: 246, green: 248, blue: 250))
    ]
    for line in 0..<6 {
      rects.append(
        (PixelRect(x: 12, y: (moved ? 60 : 48) + line * 22, width: 120 - line * 9, height: 8), ServerFixture.ink))
    }
    rects.append((PixelRect(x: 12, y: 230, width: 156, height: 30), accent))
    if banner {
      rects.append((PixelRect(x: 0, y: 280, width: 180, height: 24), RGBAColor(red: 255, green: 223, blue: 93)))
    }
    for (rect, color) in rects {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { image[x: x, y: y] = color }
      }
    }
    return image
  }

  /// A 1170×2532 phone screen (an iPhone's 3× screenshot): a header, text lines, a button;
  /// `banner` adds a yellow banner near the bottom.
  static func tallScreen(banner: Bool) -> RGBAImage {
    var image = RGBAImage(width: 1170, height: 2532, filledWith: ServerFixture.white)
    var rects: [(PixelRect, RGBAColor)] = [
      (PixelRect(x: 0, y: 0, width: 1170, height: 132), RGBAColor(red: 246, green: 248, blue: 250)),
      (PixelRect(x: 72, y: 2100, width: 1026, height: 156), RGBAColor(red: 9, green: 105, blue: 218)),
    ]
    for line in 0..<12 {
      rects.append((PixelRect(x: 72, y: 300 + line * 90, width: 800 - line * 41, height: 30), ServerFixture.ink))
    }
    if banner {
      rects.append((PixelRect(x: 0, y: 2300, width: 1170, height: 120), RGBAColor(red: 255, green: 223, blue: 93)))
    }
    for (rect, color) in rects {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { image[x: x, y: y] = color }
      }
    }
    return image
  }

  static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
}
