import Foundation
import SnapdiffCore
import Testing

/// Branch names refused when the run opens (400), through a real `snapdiff serve` on a socket:
/// a name whose overlay folder would be over the file system's 255 bytes (it used to open, then
/// fail every approval with 500), and a name that differs from a branch with an overlay only by
/// Unicode normalisation or letter case (it used to become a second overlay).
@Suite("branch names refused at open")
struct BranchNameServerTests {
  let key = "Home - test_search/Home"

  @Test("an overlay folder name over 255 bytes: 400 at open, naming the size; 255 bytes opens and approves")
  func folderNameLimit() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      try fixture.writeBaseline(key, ServerFixture.screen())
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)]))
      try await offCooperativePool {
        let server = try ServeProcess(executable: executable, root: fixture.root, token: nil)
        defer { server.stop() }
        // 180 bytes, under the 200-byte limit, but `/` is 3 bytes percent-encoded: 300.
        let long = String(repeating: "ab/", count: 60)
        for base in [Optional("main"), nil] {
          let refused = try Self.open(branch: long, base: base, port: server.port)
          #expect(refused.status == 400, "\(refused.body)")
          #expect(
            refused.body.contains("is too long: its overlay folder name")
              && refused.body.contains("would be 300 bytes, over the 255"),
            "\(refused.body)")
        }
        let longBase = try Self.open(branch: "feature", base: long, port: server.port)
        #expect(longBase.status == 400 && longBase.body.contains("base branch 'ab/ab/"), "\(longBase.body)")
        // 42 × é (6 bytes each encoded) + 3: exactly 255 bytes, the longest that works.
        let longest = String(repeating: "é", count: 42) + "abc"
        #expect(PercentEncoding.segment(longest).utf8.count == 255)
        let opened = try Self.open(branch: longest, base: "main", port: server.port)
        #expect(opened.status == 201, "\(opened.body)")
        let run = try #require(Self.json(opened.body)["id"] as? String)
        #expect(try Self.put(run, key, changed, port: server.port).status == 200)
        let approve = try RawHTTP.send(Self.request("POST", snapshotURI(run, key, "/approve")), port: server.port)
        #expect(approve.status == 200, "\(approve.body)\n\(server.log())")
        let overlay = fixture.baselines + "/.branches/" + PercentEncoding.segment(longest) + "/\(key).png"
        #expect(try FileIO.read(overlay) == changed)
      }
    }
  }

  @Test("a branch that differs from one with an overlay only by normalisation or case: 400, naming both")
  func collidingNames() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      try fixture.writeBaseline(key, ServerFixture.screen())
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)]))
      try await offCooperativePool {
        let server = try ServeProcess(executable: executable, root: fixture.root, token: nil)
        defer { server.stop() }
        // "Café" with é as one code point (NFC): an approval makes its overlay.
        let composed = try Self.open(branch: #"Caf\u00e9"#, base: "main", port: server.port)
        #expect(composed.status == 201, "\(composed.body)")
        let run = try #require(Self.json(composed.body)["id"] as? String)
        #expect(try Self.put(run, key, changed, port: server.port).status == 200)
        let approve = try RawHTTP.send(Self.request("POST", snapshotURI(run, key, "/approve")), port: server.port)
        #expect(approve.status == 200, "\(approve.body)")
        let branches = try FileManager.default.contentsOfDirectory(atPath: fixture.baselines + "/.branches")
        #expect(branches == ["Caf%C3%A9"])

        // The same name as e + combining acute (NFD), and in other letter case: refused.
        let decomposed = try Self.open(branch: #"Cafe\u0301"#, base: "main", port: server.port)
        #expect(decomposed.status == 400, "\(decomposed.body)")
        #expect(
          decomposed.body.contains("differs from the branch 'Café' only by Unicode normalisation"), "\(decomposed.body)"
        )
        let upper = try Self.open(branch: #"CAF\u00c9"#, base: "main", port: server.port)
        #expect(upper.status == 400 && upper.body.contains("only by letter case"), "\(upper.body)")
        // Still one overlay; the branch itself opens again.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.baselines + "/.branches") == ["Caf%C3%A9"])
        #expect(try Self.open(branch: #"Caf\u00e9"#, base: "main", port: server.port).status == 201)
      }
    }
  }

  // MARK: - Helpers

  /// `POST /api/v1/runs` with `branch` and `base` written into the JSON as given (escapes
  /// included, so the bytes of the name are the test's).
  static func open(branch: String, base: String?, port: Int) throws -> RawHTTP.Response {
    let body = #"{"name": "ci", "branch": "\#(branch)""# + (base.map { #", "baseBranch": "\#($0)""# } ?? "") + "}"
    return try RawHTTP.send(
      "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
      port: port)
  }

  static func put(_ run: String, _ key: String, _ png: [UInt8], port: Int) throws -> RawHTTP.Response {
    let head =
      "PUT \(snapshotURI(run, key)) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\n"
      + "Content-Length: \(png.count)\r\nConnection: close\r\n\r\n"
    return try RawHTTP.send(Array(head.utf8) + png, port: port)
  }

  static func request(_ method: String, _ uri: String) -> String {
    "\(method) \(uri) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
  }

  static func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }
}
