import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Two `snapdiff serve` processes on one PostgreSQL database and one shared folder (baselines and
/// data), as behind a load balancer: they serve the same runs. Needs a throwaway cluster
/// (`scripts/postgres.sh start`, which `scripts/test.sh` runs): `SNAPDIFF_TEST_POSTGRES_URL`.
/// Without it the tests skip, except under `CI=true`, where they fail.
@Suite("snapdiff serve on PostgreSQL, two instances")
struct PostgresServiceTests {
  static let environment = ProcessInfo.processInfo.environment
  static let available = environment["SNAPDIFF_TEST_POSTGRES_URL"] != nil || environment["CI"] == "true"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "frames split across both land in one run; approvals at once lose nothing; a run closes once",
    .enabled(
      if: available, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func twoInstancesShareRuns() async throws {
    let url = try TestPostgres.newDatabase()
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let screen = ServerFixture.screen()
      for index in 0..<6 { try fixture.writeBaseline("pg/\(index)", screen) }
      let changed = ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 4)])
      let changedPNG = ServerFixture.png(changed)
      let samePNG = ServerFixture.png(screen)
      try await offCooperativePool {
        let a = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url], logName: "a.log")
        defer { a.stop() }
        let b = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url], logName: "b.log")
        defer { b.stop() }
        let run = try ExpectContinueTests.openRun(port: a.port)
        // Six frames, alternately to each instance: 0, 1, 2 unchanged; 3, 4, 5 changed.
        for index in 0..<6 {
          let port = index % 2 == 0 ? a.port : b.port
          let response = try Self.put(run, "pg/\(index)", index < 3 ? samePNG : changedPNG, port: port)
          #expect(response.status == 200, "\(response.head)\n\(response.body)\n\(a.log())\(b.log())")
        }
        // A frame posted to one is seen on the other.
        let seen = try Self.get(snapshotURI(run, "pg/0"), port: b.port)
        #expect(seen.status == 200 && seen.json["status"] as? String == "passed", "\(seen.body)")
        let seenChanged = try Self.get(snapshotURI(run, "pg/3"), port: b.port)
        #expect(seenChanged.json["status"] as? String == "failed", "\(seenChanged.body)")
        for port in [a.port, b.port] {
          let list = try Self.get("/api/v1/runs", port: port)
          let runs = list.json["runs"] as? [[String: Any]]
          #expect(runs?.count == 1, "\(list.body)")
          #expect(runs?.first?["counts"] as? [String: Int] == ["passed": 3, "failed": 3], "\(list.body)")
        }
        // Approvals at the same time from both: another key each (one run.json, read-modify-write),
        // and the same key from both.
        let requests: [(Int, String)] = [(a.port, "pg/3"), (b.port, "pg/4"), (a.port, "pg/5"), (b.port, "pg/5")]
        let statuses = LockedStatuses()
        let group = DispatchGroup()
        for (port, key) in requests {
          group.enter()
          Thread.detachNewThread {
            let response = try? RawHTTP.send(
              Self.request("POST", snapshotURI(run, key, "/approve"), port: port), port: port)
            statuses.add(key, response?.status ?? 0)
            group.leave()
          }
        }
        group.wait()
        // The same key twice: one approves, the other finds nothing left to review (409) or
        // approves the same frame again.
        #expect(statuses.of("pg/3") == [200] && statuses.of("pg/4") == [200], "\(statuses.all)")
        #expect(statuses.of("pg/5").contains(200) && statuses.of("pg/5").allSatisfy { $0 == 200 || $0 == 409 })
        let record = try Self.get("/api/v1/runs/\(run)", port: a.port)
        let snapshots = (record.json["snapshots"] as? [[String: Any]]) ?? []
        let byKey = Dictionary(
          uniqueKeysWithValues: snapshots.map { ($0["key"] as? String ?? "", $0["status"] as? String ?? "") })
        #expect(
          byKey == [
            "pg/0": "passed", "pg/1": "passed", "pg/2": "passed", "pg/3": "approved", "pg/4": "approved",
            "pg/5": "approved",
          ])
        for key in ["pg/3", "pg/4", "pg/5"] { #expect(try fixture.baseline(key) == changed, "the baseline of \(key)") }
        // Closed on one, closed on the other; closing again answers the closed run.
        let close = try RawHTTP.send(Self.request("POST", "/api/v1/runs/\(run)/close", port: a.port), port: a.port)
        #expect(close.status == 200, "\(close.body)")
        let again = try RawHTTP.send(Self.request("POST", "/api/v1/runs/\(run)/close", port: b.port), port: b.port)
        #expect(again.status == 200, "\(again.body)")
        let first = try Self.json(close.body)
        let second = try Self.json(again.body)
        #expect(first["open"] as? Bool == false && second["open"] as? Bool == false)
        #expect(
          first["closedAt"] as? String == second["closedAt"] as? String, "closed once: \(close.body)\n\(again.body)")
        let late = try Self.put(run, "pg/0", samePNG, port: b.port)
        #expect(late.status == 409, "\(late.body)")
        let open = try Self.get("/api/v1/runs?open=true", port: b.port)
        #expect(open.json["total"] as? Int == 0, "\(open.body)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "one instance killed mid-run: the other finishes the run with every answered frame",
    .enabled(
      if: available, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func killedInstance() async throws {
    let url = try TestPostgres.newDatabase()
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let screen = ServerFixture.screen()
      for index in 0..<8 { try fixture.writeBaseline("kill/\(index)", screen) }
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 0, y: 0, width: 3, height: 3)]))
      let same = ServerFixture.png(screen)
      try await offCooperativePool {
        let a = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url], logName: "a.log")
        let b = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url], logName: "b.log")
        defer { b.stop() }
        let run = try ExpectContinueTests.openRun(port: a.port)
        var answered: [String: String] = [:]
        for index in 0..<10 {
          // The first five to the instance about to die, the rest to the other.
          let port = index < 5 ? a.port : b.port
          let key = "kill/\(index)"
          let response = try Self.put(run, key, index % 3 == 0 ? changed : same, port: port)
          #expect(response.status == 200, "\(response.body)")
          answered[key] = try Self.json(response.body)["status"] as? String
          if index == 4 {
            kill(a.process.processIdentifier, SIGKILL)
            a.process.waitUntilExit()
          }
        }
        let close = try RawHTTP.send(Self.request("POST", "/api/v1/runs/\(run)/close", port: b.port), port: b.port)
        #expect(close.status == 200, "\(close.body)\n\(b.log())")
        let record = try fixture.record(run)
        #expect(record.closedAt != nil)
        #expect(Dictionary(uniqueKeysWithValues: record.snapshots.map { ($0.key, $0.status.rawValue) }) == answered)
        // 0, 3, 6 changed; 8 and 9 without baselines.
        #expect(record.counts == [.passed: 5, .failed: 3, .new: 2])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "readiness answers 503 while the database is stopped, 200 again once it is back",
    .enabled(
      if: available, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func readinessFollowsTheDatabase() async throws {
    // Stopped below: a cluster of its own, never the one other tests share.
    let own = try TestPostgres.OwnCluster()
    defer { own.stop() }
    let (url, cluster) = (own.url, own.directory)
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      try await offCooperativePool {
        let server = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url])
        defer { server.stop() }
        #expect(try Self.waitForReadiness(200, port: server.port), "\(server.log())")
        try TestPostgres.cluster("pause", cluster)
        var resumed = false
        // Back up for the tests after this one, whatever happens here.
        defer { if !resumed { try? TestPostgres.cluster("resume", cluster) } }
        #expect(try Self.waitForReadiness(503, port: server.port))
        let ready = try Self.get("/api/v1/ready", port: server.port)
        #expect((ready.json["reason"] as? String)?.contains("does not answer") == true, "\(ready.body)")
        #expect(try Self.get("/api/v1/health", port: server.port).status == 200)
        try TestPostgres.cluster("resume", cluster)
        resumed = true
        #expect(try Self.waitForReadiness(200, port: server.port))
      }
    }
  }

  @Test("a bad --database URL is refused at once (64), an unreachable database at start-up names it (2)")
  func startupErrors() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      try await offCooperativePool {
        let bad = try Self.runServe(executable, root: fixture.root, ["--database", "mysql://x@h/db"])
        #expect(bad.status == 64 && bad.error.contains("not a postgres:// URL"), "\(bad)")
        let noName = try Self.runServe(executable, root: fixture.root, ["--database", "postgres://u:secret@h:5432"])
        #expect(
          noName.status == 64 && noName.error.contains("no database name") && !noName.error.contains("secret"),
          "\(noName)")
        let port = try TestPostgres.freePort()
        let unreachable = try Self.runServe(
          executable, root: fixture.root, ["--database", "postgres://snapdiff@127.0.0.1:\(port)/snapdiff"])
        #expect(unreachable.status == 2, "\(unreachable)")
        #expect(
          unreachable.error.contains(
            "cannot reach the PostgreSQL database postgres://snapdiff@127.0.0.1:\(port)/snapdiff"),
          "\(unreachable)")
      }
    }
  }

  @Test(
    "a migration that fails stops the start-up, naming it and the server's reason, and applies nothing of it",
    .enabled(
      if: available, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func failedMigration() async throws {
    let url = try TestPostgres.newDatabase()
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    // A table of another application where migration 1 creates its own.
    try TestPostgres.psql(url, "CREATE TABLE run_snapshots (other integer)")
    try await withFixture { fixture in
      try await offCooperativePool {
        let failed = try Self.runServe(executable, root: fixture.root, ["--database", url])
        #expect(failed.status == 2, "\(failed)")
        #expect(failed.error.contains("migration 1 (runs, snapshots and snapshot records) of postgres://"), "\(failed)")
        #expect(failed.error.contains("\"run_snapshots\" already exists"), "\(failed)")
      }
    }
    // Rolled back whole: no `runs` table, no version recorded.
    try TestPostgres.psql(url, "SELECT 1 / (CASE WHEN to_regclass('runs') IS NULL THEN 1 ELSE 0 END)")
    try TestPostgres.psql(url, "SELECT 1 / (CASE WHEN (SELECT count(*) FROM schema_version) = 0 THEN 1 ELSE 0 END)")
  }

  // MARK: - Helpers

  static func request(_ method: String, _ uri: String, port: Int) -> String {
    "\(method) \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
  }

  static func put(_ run: String, _ key: String, _ png: [UInt8], port: Int) throws -> RawHTTP.Response {
    let head =
      "PUT \(snapshotURI(run, key)) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: image/png\r\n"
      + "Content-Length: \(png.count)\r\nConnection: close\r\n\r\n"
    return try RawHTTP.send(Array(head.utf8) + png, port: port)
  }

  static func get(_ uri: String, port: Int) throws -> (status: Int, body: String, json: [String: Any]) {
    let response = try RawHTTP.send(request("GET", uri, port: port), port: port)
    return (response.status, response.body, (try? json(response.body)) ?? [:])
  }

  static func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }

  /// Polls `/api/v1/ready` (every 0.2 s, up to 20 s) until it answers `status`.
  static func waitForReadiness(_ status: Int, port: Int) throws -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if (try? get("/api/v1/ready", port: port).status) == status { return true }
      Thread.sleep(forTimeInterval: 0.2)
    }
    return false
  }

  /// Runs `snapdiff serve ARGS` expecting it to stop by itself: its exit status and standard error.
  static func runServe(_ executable: String, root: String, _ arguments: [String]) throws -> (
    status: Int32, error: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["serve", "--port", "0", "--baselines", "baselines", "--data", ".snapdiff"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}

private final class LockedStatuses: @unchecked Sendable {
  private let lock = NSLock()
  private var statuses: [(String, Int)] = []
  func add(_ key: String, _ status: Int) { lock.withLock { statuses.append((key, status)) } }
  func of(_ key: String) -> [Int] { lock.withLock { statuses.filter { $0.0 == key }.map(\.1) } }
  var all: String { lock.withLock { "\(statuses)" } }
}

/// The throwaway cluster `scripts/postgres.sh` started: a new database in it for each test.
enum TestPostgres {
  /// A new, empty database on the test cluster, as a URL.
  static func newDatabase() throws -> String {
    let base = try #require(
      ProcessInfo.processInfo.environment["SNAPDIFF_TEST_POSTGRES_URL"],
      "SNAPDIFF_TEST_POSTGRES_URL is not set (CI=true): scripts/test.sh starts a cluster with scripts/postgres.sh")
    let name = "snapdiff_" + UUID().uuidString.prefix(8).lowercased()
    try psql(base, "CREATE DATABASE \(name)")
    return String(base[..<base.lastIndex(of: "/")!]) + "/" + name
  }

  /// Runs one SQL statement with `psql` on `url`; it must succeed.
  static func psql(_ url: String, _ statement: String) throws {
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = ["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement]
    psql.standardOutput = FileHandle.nullDevice
    try psql.run()
    psql.waitUntilExit()
    try #require(psql.terminationStatus == 0, "psql on \(url): \(statement)")
  }

  /// The one value `query` answers on `url` (`psql -tA`).
  static func value(_ url: String, _ query: String) throws -> String {
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = ["psql", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", query]
    let output = Pipe()
    psql.standardOutput = output
    try psql.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    psql.waitUntilExit()
    try #require(psql.terminationStatus == 0, "psql on \(url): \(query)")
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `scripts/postgres.sh pause|resume DIR`, through `system` (Foundation's `Process` waits for
  /// the end of pipes the started server inherits, so it never returns after `resume`).
  static func cluster(_ verb: String, _ directory: String) throws {
    let status = system("bash '\(script)' \(verb) '\(directory)' </dev/null >/dev/null 2>&1")
    try #require(status == 0, "scripts/postgres.sh \(verb) failed (\(status))")
  }

  /// A cluster of a test's own (`scripts/postgres.sh start`), for a test that stops the
  /// database (`cluster("pause", …)`): tests running beside it on the shared cluster never see
  /// it go away. `stop()` removes it.
  struct OwnCluster {
    let url: String
    let directory: String

    init() throws {
      let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("snapdiff-pg-\(UUID().uuidString).env").path
      defer { try? FileManager.default.removeItem(atPath: output) }
      let status = system("bash '\(TestPostgres.script)' start </dev/null >'\(output)' 2>/dev/null")
      let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
      func value(_ name: String) -> String? {
        lines.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
      }
      url = try #require(value("SNAPDIFF_TEST_POSTGRES_URL"), "scripts/postgres.sh start failed (\(status))")
      directory = try #require(value("SNAPDIFF_TEST_POSTGRES_DIR"), "scripts/postgres.sh start printed no folder")
    }

    func stop() { _ = system("bash '\(TestPostgres.script)' stop '\(directory)' </dev/null >/dev/null 2>&1") }
  }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scripts/postgres.sh").path

  /// A loopback port nothing listens on (bound, read, closed).
  static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
