import Foundation
import SnapdiffCore
import Testing

/// PostgreSQL stopped under a running `snapdiff serve --database`: every request that needs the
/// database is answered 503 with `Retry-After` in well under a second or two (it used to be 500
/// "no answer within 15 s" after 15–30 s), and the service serves again once the database is
/// back. Real processes: the service and Debian's PostgreSQL (`scripts/postgres.sh`).
@Suite("snapdiff serve while PostgreSQL is down")
struct PostgresOutageTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "open, PUT, approve, list, close: 503 with Retry-After within 2 s while it is stopped for 12 s; served again once it is back",
    .enabled(
      if: PostgresServiceTests.available,
      "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func outage() async throws {
    // Stopped below: a cluster of its own, never the one other tests share.
    let own = try TestPostgres.OwnCluster()
    defer { own.stop() }
    let (url, cluster) = (own.url, own.directory)
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    let key = "outage/Home"
    try await withFixture { fixture in
      try fixture.writeBaseline(key, ServerFixture.screen())
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 4)]))
      try await offCooperativePool {
        let server = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url])
        defer { server.stop() }
        let port = server.port
        let run = try ExpectContinueTests.openRun(port: port)
        #expect(try PostgresServiceTests.put(run, key, changed, port: port).status == 200)

        let requests: [(String, () throws -> RawHTTP.Response)] = [
          ("open", { try RawHTTP.send(Self.openRequest(port: port), port: port) }),
          ("PUT", { try PostgresServiceTests.put(run, key, changed, port: port) }),
          ("approve", { try Self.send("POST", snapshotURI(run, key, "/approve"), port: port) }),
          ("list", { try Self.send("GET", "/api/v1/runs", port: port) }),
          ("close", { try Self.send("POST", "/api/v1/runs/\(run)/close", port: port) }),
        ]
        // The test cluster runs with synchronous_commit off and stops with -m immediate: what
        // was just committed is written out first, or the restart would lose it.
        try TestPostgres.psql(url, "CHECKPOINT")
        try TestPostgres.cluster("pause", cluster)
        let paused = Date()
        var resumed = false
        // Back up for the tests after this one, whatever happens here.
        defer { if !resumed { try? TestPostgres.cluster("resume", cluster) } }
        var slowest = 0.0
        // Twice: the first requests find out, the next ones are refused on what was found.
        for round in 1...2 {
          for (name, send) in requests {
            let started = Date()
            let response = try send()
            let seconds = Date().timeIntervalSince(started)
            slowest = max(slowest, seconds)
            #expect(response.status == 503, "\(name), round \(round): \(response.head)\n\(response.body)")
            #expect(seconds < 2, "\(name), round \(round): answered after \(seconds) s")
            #expect(
              response.head.lowercased().contains("\r\nretry-after: 2\r\n"), "\(name), round \(round): \(response.head)"
            )
            #expect(response.body.contains("PostgreSQL database"), "\(name): \(response.body)")
          }
          Thread.sleep(forTimeInterval: 0.6)
        }
        // Down for 12 s in all, as in the attack (the pool's reconnection backs off meanwhile).
        while Date().timeIntervalSince(paused) < 12 {
          let started = Date()
          let response = try Self.send("GET", "/api/v1/runs", port: port)
          slowest = max(slowest, Date().timeIntervalSince(started))
          #expect(response.status == 503, "\(response.head)\n\(response.body)")
          Thread.sleep(forTimeInterval: 1)
        }
        #expect(slowest < 2)
        print("PostgreSQL stopped for 12 s: slowest 503 after \(slowest) s")
        #expect(try PostgresServiceTests.get("/api/v1/health", port: port).status == 200)

        try TestPostgres.cluster("resume", cluster)
        resumed = true
        let back = Date()
        var opened: RawHTTP.Response?
        while Date().timeIntervalSince(back) < 30 {
          let response = try RawHTTP.send(Self.openRequest(port: port), port: port)
          if response.status == 201 {
            opened = response
            break
          }
          #expect(response.status == 503, "\(response.head)\n\(response.body)")
          Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(opened != nil, "no run opened within 30 s of the database's return\n\(server.log())")
        print("PostgreSQL back: a run opened after \(Date().timeIntervalSince(back)) s")
        #expect(try PostgresServiceTests.put(run, key, changed, port: port).status == 200)
        let approve = try Self.send("POST", snapshotURI(run, key, "/approve"), port: port)
        #expect(approve.status == 200, "\(approve.body)")
        #expect(try Self.send("GET", "/api/v1/runs", port: port).status == 200)
        #expect(try Self.send("POST", "/api/v1/runs/\(run)/close", port: port).status == 200)
      }
    }
  }

  static func openRequest(port: Int) -> String {
    let body = #"{"name": "outage"}"#
    return "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
  }

  static func send(_ method: String, _ uri: String, port: Int) throws -> RawHTTP.Response {
    try RawHTTP.send(PostgresServiceTests.request(method, uri, port: port), port: port)
  }
}
