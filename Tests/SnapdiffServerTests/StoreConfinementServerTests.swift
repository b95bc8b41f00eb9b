import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The service never writes outside the baseline store through a symbolic link (issue #12,
/// bug 1): a real server on 127.0.0.1, a store with `evil → ../outside` and `ios17 → ../outside`.
@Suite("store confinement over the API")
struct StoreConfinementServerTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "a run opened on an environment folder that links out, a PUT through a key folder that links out, and a PUT into a run folder whose incoming/ links out, answer 422; outside stays untouched"
  )
  func escapesRefused() async throws {
    try await withFixture { fixture in
      let outside = fixture.root + "/outside"
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
      try Data("{\"keep\": true}\n".utf8).write(to: URL(fileURLWithPath: outside + "/newfile.tree.json"))
      try FileManager.default.createDirectory(atPath: fixture.baselines, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: fixture.baselines + "/evil", withDestinationPath: "../outside")
      try FileManager.default.createSymbolicLink(
        atPath: fixture.baselines + "/ios17", withDestinationPath: "../outside")
      let before = try FileManager.default.contentsOfDirectory(atPath: outside).sorted()
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
        let environment = try await send(
          "/api/v1/runs", .post, jsonHeaders, jsonBody(#"{"name": "n", "environment": "ios17"}"#))
        #expect(environment.status == 422)
        #expect(
          environment.message
            == "'ios17' is a symbolic link that leads outside the baseline store; nothing was written or removed")

        let open = try await client.execute(
          .init(
            "/api/v1/runs", method: .post, authority: "127.0.0.1:\(port)", headers: jsonHeaders,
            body: jsonBody(#"{"name": "n"}"#)))
        #expect(open.status == .created)
        let opened = try JSONSerialization.jsonObject(with: Data(buffer: open.body ?? ByteBuffer())) as? [String: Any]
        let run = try #require(opened?["id"] as? String)
        let put = try await send(
          snapshotURI(run, "evil/newfile"), .put, pngHeaders,
          ByteBuffer(bytes: ServerFixture.png(ServerFixture.screen())))
        #expect(put.status == 422)
        #expect(put.message.contains("'evil/newfile.png' leads outside the baseline store: 'evil' is a symbolic link"))
        #expect(!put.message.contains(fixture.root))
        #expect(try fixture.record(run).snapshots.isEmpty)
        let skip = try await send(
          snapshotURI(run, "evil/newfile", "/skip"), .post, jsonHeaders, jsonBody(#"{"reason": "no shooter"}"#))
        #expect(skip.status == 422)

        // The run folder too: its `incoming/` folder replaced by a link out of it.
        let incoming = fixture.runs + "/" + run + "/incoming"
        try FileManager.default.removeItem(atPath: incoming)
        try FileManager.default.createSymbolicLink(atPath: incoming, withDestinationPath: outside)
        let throughRun = try await send(
          snapshotURI(run, "Home"), .put, pngHeaders, ByteBuffer(bytes: ServerFixture.png(ServerFixture.screen())))
        #expect(throughRun.status == 422)
        #expect(
          throughRun.message
            == "'incoming' is a symbolic link that leads outside the run folder; nothing was written or removed")
        try await client.shutdown()
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside).sorted() == before)
    }
  }
}
