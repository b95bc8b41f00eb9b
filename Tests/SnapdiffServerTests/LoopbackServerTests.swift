import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The server as `snapdiff serve` starts it, on 127.0.0.1 and a free port, driven over raw
/// sockets where the test needs control of the bytes (chunked bodies, the Host header).
@Suite("a server on 127.0.0.1")
struct LoopbackServerTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "health over a socket; a chunked upload over the limit is cut off with 413; writes need a loopback Host; concurrent approvals all land"
  )
  func loopback() async throws {
    try await withFixture { fixture in
      for index in 0..<6 { try fixture.writeBaseline("a/\(index)", ServerFixture.screen()) }
      try await withLoopbackServer(fixture.configuration(maxUploadBytes: 64 << 10)) { port in
        // Raw sockets block: off the concurrency pool, which the in-process server needs.
        let health = try await offCooperativePool {
          try RawHTTP.send(
            "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port)
        }
        #expect(health.status == 200 && health.body.contains("\"ok\""))

        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
        client.connect()
        let open = try await client.execute(
          .init(
            "/api/v1/runs", method: .post, authority: "127.0.0.1:\(port)", headers: jsonHeaders,
            body: jsonBody(#"{"name": "loop"}"#)))
        #expect(open.status == .created)
        let opened = try JSONSerialization.jsonObject(with: Data(buffer: open.body ?? ByteBuffer())) as? [String: Any]
        let run = try #require(opened?["id"] as? String)

        // Chunked (no Content-Length): the server reads up to the limit, then answers 413.
        var request = "PUT \(snapshotURI(run, "a/huge")) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        request += "Content-Type: image/png\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        let chunk = [UInt8](repeating: 0x41, count: 16 << 10)
        var body: [UInt8] = []
        for _ in 0..<64 {  // 1 MiB in all, 16 times the limit
          body += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8)
        }
        body += Array("0\r\n\r\n".utf8)
        let huge = try await offCooperativePool { [request, body] in
          try RawHTTP.send(Array(request.utf8) + body, port: port)
        }
        #expect(huge.status == 413, "\(huge.head)")
        #expect(try fixture.record(run).snapshots.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.data + "/uploads").isEmpty)

        // Without a token, a write addressed to another host name (DNS rebinding) is refused.
        let rebound = try await offCooperativePool {
          try RawHTTP.send(
            "POST /api/v1/runs HTTP/1.1\r\nHost: evil.example:\(port)\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{\"name\":\"x\"}",
            port: port)
        }
        #expect(rebound.status == 403, "\(rebound.head)")

        // Six frames, then six approvals at once: each lands in run.json and the store.
        let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 0, y: 0, width: 4, height: 4)]))
        for index in 0..<6 {
          let put = try await client.execute(
            .init(
              snapshotURI(run, "a/\(index)"), method: .put, authority: "127.0.0.1:\(port)", headers: pngHeaders,
              body: ByteBuffer(bytes: changed)))
          #expect(put.status == .ok)
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
          for index in 0..<6 {
            group.addTask {
              let approver = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
              approver.connect()
              let response = try await approver.execute(
                .init(snapshotURI(run, "a/\(index)", "/approve"), method: .post, authority: "127.0.0.1:\(port)"))
              try await approver.shutdown()
              return Int(response.status.code)
            }
          }
          for try await status in group { #expect(status == 200) }
        }
        try await client.shutdown()
        #expect(try fixture.record(run).snapshots.allSatisfy { $0.status == .approved })
        for index in 0..<6 {
          #expect(
            try fixture.baseline("a/\(index)") == ServerFixture.screen([PixelRect(x: 0, y: 0, width: 4, height: 4)]))
        }
      }
    }
  }
}
