import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

@testable import SnapdiffServer

/// `/metrics` over a real socket, `/api/v1/ready` while the index is not rebuilt or cannot be read.
@Suite("metrics and readiness")
struct ObservabilityTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "GET /metrics over a socket: frames, verdicts by status, decode and compare times, open runs, request latency move after posted frames"
  )
  func metricsMove() async throws {
    try await withFixture { fixture in
      let equal = ServerFixture.screen()
      try fixture.writeBaseline("m/equal", equal)
      try fixture.writeBaseline("m/changed", equal)
      try await withLoopbackServer(fixture.configuration()) { port in
        let before = try await Self.metrics(port)
        #expect(Self.value(before, "snapdiff_frames_received_total") == 0)
        #expect(Self.value(before, "snapdiff_open_runs") == 0)

        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        client.connect()
        let authority = "127.0.0.1:\(port)"
        let open = try await client.execute(
          .init(
            "/api/v1/runs", method: .post, authority: authority, headers: jsonHeaders, body: jsonBody(#"{"name": "m"}"#)
          ))
        let opened = try JSONSerialization.jsonObject(with: Data(buffer: open.body ?? ByteBuffer())) as? [String: Any]
        let run = try #require(opened?["id"] as? String)
        let changed = ServerFixture.screen([PixelRect(x: 1, y: 1, width: 3, height: 3)])
        for (key, image) in [("m/equal", equal), ("m/changed", changed)] {
          let put = try await client.execute(
            .init(
              snapshotURI(run, key), method: .put, authority: authority, headers: pngHeaders,
              body: ByteBuffer(bytes: ServerFixture.png(image))))
          #expect(put.status == .ok)
        }
        try await client.shutdown()

        let after = try await Self.metrics(port)
        #expect(Self.value(after, "snapdiff_frames_received_total") == 2)
        #expect(Self.value(after, #"snapdiff_verdicts_total{status="passed"}"#) == 1)
        #expect(Self.value(after, #"snapdiff_verdicts_total{status="failed"}"#) == 1)
        #expect(Self.value(after, #"snapdiff_verdicts_total{status="new"}"#) == 0)
        // The changed frame decoded once here, its baseline once; one comparison.
        #expect(Self.value(after, "snapdiff_decode_seconds_count") == 2)
        #expect(Self.value(after, "snapdiff_compare_seconds_count") == 1)
        #expect(Self.value(after, "snapdiff_open_runs") == 1)
        let puts = after.split(separator: "\n").filter {
          $0.hasPrefix("snapdiff_http_request_duration_seconds_count{") && $0.contains(#"method="PUT""#)
            && $0.contains(#"status="200""#)
        }
        #expect(puts.count == 1 && puts.first.map { $0.hasSuffix(" 2") } == true, "\(puts)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("GET /api/v1/ready: 503 until the index is rebuilt, 200 then, 503 when its database file is gone")
  func readiness() async throws {
    try await withFixture { fixture in
      let service = try RunService(configuration: fixture.configuration())
      let app = Application(router: buildRouter(service))
      try await app.test(.router) { client in
        let rebuilding = try await client.execute(uri: "/api/v1/ready", method: .get)
        #expect(rebuilding.status == .serviceUnavailable)
        #expect((rebuilding.json["reason"] as? String)?.contains("rebuilt") == true)

        try service.index.synchronize()
        let ready = try await client.execute(uri: "/api/v1/ready", method: .get)
        #expect(ready.status == .ok)
        #expect(ready.json["status"] as? String == "ready")

        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: fixture.data + "/serve.sqlite" + suffix)
        }
        let unreachable = try await client.execute(uri: "/api/v1/ready", method: .get)
        #expect(unreachable.status == .serviceUnavailable)
        #expect((unreachable.json["reason"] as? String)?.contains("gone") == true)
        // Liveness is another matter: the process still serves.
        #expect(try await client.execute(uri: "/api/v1/health", method: .get).status == .ok)
      }
    }
  }

  /// `GET /metrics` over a socket of its own.
  static func metrics(_ port: Int) async throws -> String {
    let response = try await offCooperativePool {
      try RawHTTP.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port)
    }
    #expect(response.status == 200)
    #expect(response.head.lowercased().contains("content-type: text/plain; version=0.0.4"))
    return response.body
  }

  /// The value of the sample `name` (with its labels, as printed), or nil.
  static func value(_ exposition: String, _ name: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
      return Double(line.dropFirst(name.count + 1))
    }
    return nil
  }
}
