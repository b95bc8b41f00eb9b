import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The service refuses keys that `check` would refuse as one run: two spellings of one name
/// that macOS and Windows store as one file (issue #12, bug 6). A real server on 127.0.0.1.
@Suite("key collisions over the API")
struct KeyCollisionServerTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "NFC/NFD and letter-case spellings of a key already in the run answer 422 naming both keys; nothing is recorded")
  func collisionsRefused() async throws {
    try await withFixture { fixture in
      var configuration = fixture.configuration()
      configuration.recordMode = .missing
      try await withLoopbackServer(configuration) { port in
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        client.connect()
        func send(_ uri: String, _ method: HTTPRequest.Method, _ headers: HTTPFields, _ body: ByteBuffer) async throws
          -> (status: Int, message: String)
        {
          let response = try await client.execute(
            .init(uri, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: body))
          let json =
            (try? JSONSerialization.jsonObject(with: Data(buffer: response.body ?? ByteBuffer()))) as? [String: Any]
          return (Int(response.status.code), ((json?["error"] as? [String: Any])?["message"] as? String) ?? "")
        }
        let open = try await client.execute(
          .init(
            "/api/v1/runs", method: .post, authority: "127.0.0.1:\(port)", headers: jsonHeaders,
            body: jsonBody(#"{"name": "n"}"#)))
        let opened = try JSONSerialization.jsonObject(with: Data(buffer: open.body ?? ByteBuffer())) as? [String: Any]
        let run = try #require(opened?["id"] as? String)
        let png = ByteBuffer(bytes: ServerFixture.png(ServerFixture.screen()))
        func put(_ encodedKey: String) async throws -> (status: Int, message: String) {
          try await send("/api/v1/runs/\(run)/snapshots/\(encodedKey)", .put, pngHeaders, png)
        }
        #expect(try await put("Caf%C3%A9").status == 200)
        let nfd = try await put("Cafe%CC%81")
        #expect(nfd.status == 422)
        #expect(
          nfd.message.contains("snapshot key 'Cafe\u{301}' differs from 'Caf\u{E9}' only by Unicode normalisation"))
        #expect(try await put("Login").status == 200)
        let lower = try await put("login")
        #expect(lower.status == 422)
        #expect(
          lower.message
            == "snapshot key 'login' differs from 'Login' only by letter case: the two would be one file on macOS and Windows"
        )
        // The same key again replaces its frame: not a collision.
        #expect(try await put("Login").status == 200)
        let skip = try await send(
          "/api/v1/runs/\(run)/snapshots/LOGIN/skip", .post, jsonHeaders, jsonBody(#"{"reason": "not here"}"#))
        #expect(skip.status == 422)
        try await client.shutdown()
      }
      let keys = try fixture.store.keys().map(\.rawValue)
      #expect(keys.count == 2)
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: fixture.baselines).filter { $0.hasSuffix(".png") })
          .count == 2)
    }
  }
}
