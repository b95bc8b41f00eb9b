import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// What a remote test runner and a reviewer do, over real HTTP on loopback.
@Suite("remote runner flow")
struct RemoteRunnerFlowTests {
  /// The header change two screens share (same pixels, same colours), the clock that changes
  /// on every run (masked by element), a new screen.
  static let header = PixelRect(x: 0, y: 14, width: 40, height: 3)
  static let clockTick = PixelRect(x: 1, y: 1, width: 6, height: 4)

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "open, PUT frames (PNG; multipart with tree and masking settings), close: failed; approve same change; the next run passes"
  )
  func fullRun() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("Home - test_search/Home", ServerFixture.screen(), tree: ServerFixture.tree)
      try fixture.writeBaseline("Profile - test_profile/Profile", ServerFixture.screen())
      try fixture.writeBaseline("Settings - test_settings/Settings", ServerFixture.screen())
      let app = try await buildApplication(fixture.configuration(token: "s3cret"))
      try await app.test(.live) { client in
        let auth = bearer("s3cret")
        let first = try await client.openRun("nightly", branch: "main", headers: auth)
        let firstVerdicts = try await Self.postFrames(client, run: first, auth: auth)
        #expect(firstVerdicts["Home - test_search/Home"]?["status"] as? String == "passed")
        #expect((firstVerdicts["Home - test_search/Home"]?["ignoredPixels"] as? Int ?? 0) > 0)
        #expect(firstVerdicts["Profile - test_profile/Profile"]?["status"] as? String == "failed")
        #expect(firstVerdicts["Settings - test_settings/Settings"]?["status"] as? String == "failed")
        #expect(firstVerdicts["Login - test_login/Login"]?["status"] as? String == "new")
        #expect(
          firstVerdicts["Profile - test_profile/Profile"]?["changeHash"] as? String
            == firstVerdicts["Settings - test_settings/Settings"]?["changeHash"] as? String)

        let closed = try await client.execute(uri: "/api/v1/runs/\(first)/close", method: .post, headers: auth)
        #expect(closed.json["verdict"] as? String == "failed")
        #expect(closed.json["counts"] as? [String: Int] == ["passed": 1, "failed": 2, "new": 1])
        #expect(closed.json["toReview"] as? Int == 3)

        // One click for the shared header change, one for the new screen.
        let sameAs = try await client.execute(
          uri: "/api/v1/runs/\(first)/approve", method: .post, headers: bearer("s3cret", jsonHeaders),
          body: jsonBody(#"{"sameAs": "Profile - test_profile/Profile"}"#))
        #expect(sameAs.status == .ok, "\(sameAs.text)")
        #expect(
          (sameAs.json["snapshots"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
            == ["Profile - test_profile/Profile", "Settings - test_settings/Settings"])
        let new = try await client.execute(
          uri: snapshotURI(first, "Login - test_login/Login", "/approve"), method: .post, headers: auth)
        #expect(new.json["summary"].flatMap { ($0 as? [String: Any])?["verdict"] as? String } == "passed")
        #expect(try fixture.baseline("Profile - test_profile/Profile") == ServerFixture.screen([Self.header]))
        #expect(
          try fixture.baseline("Login - test_login/Login")
            == ServerFixture.screen([PixelRect(x: 5, y: 5, width: 9, height: 9)]))

        let second = try await client.openRun("nightly", branch: "main", headers: auth)
        let secondVerdicts = try await Self.postFrames(client, run: second, auth: auth)
        #expect(secondVerdicts.values.allSatisfy { $0["status"] as? String == "passed" }, "\(secondVerdicts)")
        let passed = try await client.execute(uri: "/api/v1/runs/\(second)/close", method: .post, headers: auth)
        #expect(passed.json["verdict"] as? String == "passed" && passed.json["passed"] as? Bool == true)

        let list = try await client.execute(uri: "/api/v1/runs", method: .get)
        let runs = try #require(list.json["runs"] as? [[String: Any]])
        #expect(runs.map { $0["id"] as? String } == [second, first])
        #expect(runs.allSatisfy { $0["verdict"] as? String == "passed" })
      }
    }
  }

  /// The frames of one run of the suite: the home screen with a ticking clock, as multipart with
  /// its tree and settings that mask the clock; two screens with the new header, as PNGs; a new
  /// login screen.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func postFrames(_ client: some TestClientProtocol, run: String, auth: HTTPFields) async throws
    -> [String: [String: Any]]
  {
    var verdicts: [String: [String: Any]] = [:]
    var form = Multipart()
    form.add(
      "frame", ServerFixture.png(ServerFixture.screen([clockTick])), filename: "Home.png", contentType: "image/png")
    form.add("tree", Array(ServerFixture.treeJSON.utf8), contentType: "application/json")
    form.add("settings", Array(#"{"ignoreElements": ["clock"]}"#.utf8), contentType: "application/json")
    var headers = form.headers
    headers.append(contentsOf: auth)
    let home = try await client.execute(
      uri: snapshotURI(run, "Home - test_search/Home"), method: .put, headers: headers, body: form.body)
    #expect(home.status == .ok, "\(home.text)")
    verdicts["Home - test_search/Home"] = home.json
    for key in ["Profile - test_profile/Profile", "Settings - test_settings/Settings"] {
      let response = try await client.putFrame(
        run, key, ServerFixture.png(ServerFixture.screen([header])), headers: auth)
      #expect(response.status == .ok, "\(response.text)")
      verdicts[key] = response.json
    }
    let login = try await client.putFrame(
      run, "Login - test_login/Login",
      ServerFixture.png(ServerFixture.screen([PixelRect(x: 5, y: 5, width: 9, height: 9)])),
      headers: auth)
    verdicts["Login - test_login/Login"] = login.json
    return verdicts
  }
}
