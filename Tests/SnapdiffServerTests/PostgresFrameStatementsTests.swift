import Foundation
import SnapdiffCore
import Testing

/// What a frame costs in PostgreSQL statements (round trips), counted by the database itself
/// (`pg_stat_statements`, which `scripts/postgres.sh` loads), so that a statement more per frame
/// cannot come back unseen: on loopback each one is a good part of a frame's time.
@Suite("statements a frame costs on PostgreSQL")
struct PostgresFrameStatementsTests {
  /// The most a frame may cost, with frames posted one at a time: the lock-free check of its key
  /// (1); the blob store's shared lock (2); the run's lock (2) around the check of the key again
  /// (1) and the record appended and indexed in one transaction (`BEGIN`, the index's lock, the
  /// run's row, the append with the index, `COMMIT`: 5); the index found up to date (1).
  static let mostPerFrame = 12

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "equal, changed and new frames cost at most 12 statements each, and the run's list still counts them all",
    .enabled(
      if: PostgresServiceTests.available,
      "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster (scripts/postgres.sh)"))
  func statementsPerFrame() async throws {
    let url = try TestPostgres.newDatabase()
    try TestPostgres.psql(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let screen = ServerFixture.screen()
      for index in 0..<12 { try fixture.writeBaseline("count/\(index)", screen) }
      let same = ServerFixture.png(screen)
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 1, y: 1, width: 3, height: 3)]))
      try await offCooperativePool {
        let server = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--database", url])
        defer { server.stop() }
        let run = try ExpectContinueTests.openRun(port: server.port)
        // The first frame of a run reads the run's keys from the start: not counted.
        #expect(try PostgresServiceTests.put(run, "count/warm-up", same, port: server.port).status == 200)
        try TestPostgres.psql(url, "SELECT pg_stat_statements_reset()")
        // 0–5 equal, 6–11 changed, 12–14 new.
        let frames = 15
        for index in 0..<frames {
          let response = try PostgresServiceTests.put(
            run, "count/\(index)", index < 6 ? same : changed, port: server.port)
          #expect(response.status == 200, "\(response.body)\n\(server.log())")
        }
        // Every statement of this database but the pool's keep-alives (`SELECT 1`) and these
        // queries themselves.
        let statements = try #require(
          Int(
            try TestPostgres.value(
              url,
              """
              SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
              WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND query NOT LIKE 'SELECT $1%' AND query NOT LIKE '%pg_stat_statements%'
              """)))
        #expect(
          statements <= frames * Self.mostPerFrame,
          "\(statements) statements for \(frames) frames (at most \(Self.mostPerFrame) each)")
        print("PostgresFrameStatementsTests: \(statements) statements for \(frames) frames")
        // A key posted again moves its count from its old status to its new one.
        #expect(try PostgresServiceTests.put(run, "count/0", changed, port: server.port).status == 200)
        // Indexed with their appends (the list finds the index up to date): every frame counted.
        let list = try PostgresServiceTests.get("/api/v1/runs", port: server.port)
        let listed = (list.json["runs"] as? [[String: Any]])?.first
        #expect(listed?["counts"] as? [String: Int] == ["passed": 5, "failed": 7, "new": 4], "\(list.body)")
        #expect(listed?["snapshotCount"] as? Int == 16 && listed?["verdict"] as? String == "failed", "\(list.body)")
      }
    }
  }
}
