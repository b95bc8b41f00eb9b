import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// The service and the CLI work on the same run folders and store: neither hides the other's
/// changes, and the index never disagrees with `run.json`.
@Suite("the service and the CLI share state")
struct SharedStateTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "a run made by check appears in the list; approving it through the API updates run.json, the store and the index")
  func checkRunReviewedThroughTheAPI() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("Home - test/Home", ServerFixture.screen())
      try fixture.writeBaseline("Home - test/Other", ServerFixture.screen())
      let frames = fixture.root + "/frames"
      let changed = ServerFixture.screen([PixelRect(x: 3, y: 3, width: 5, height: 5)])
      try FileManager.default.createDirectory(atPath: frames + "/Home - test", withIntermediateDirectories: true)
      try PNGEncoder().write(changed, to: frames + "/Home - test/Home.png")
      try PNGEncoder().write(ServerFixture.screen(), to: frames + "/Home - test/Other.png")

      try await fixture.test { client in
        // The server is up (index built) before check runs: the list still shows the new run.
        #expect(try await client.execute(uri: "/api/v1/runs", method: .get).json["total"] as? Int == 0)
        let outcome = try RunChecker(
          currentDirectory: frames, store: fixture.store, runsDirectory: fixture.runs, recordMode: .never
        ).run()
        let id = outcome.record.id
        let list = try await client.execute(uri: "/api/v1/runs", method: .get)
        let runs = try #require(list.json["runs"] as? [[String: Any]])
        #expect(runs.map { $0["id"] as? String } == [id])
        #expect(runs[0]["verdict"] as? String == "failed" && runs[0]["open"] as? Bool == false)

        let approve = try await client.execute(uri: snapshotURI(id, "Home - test/Home", "/approve"), method: .post)
        #expect(approve.status == .ok, "\(approve.text)")
        #expect(try fixture.record(id).snapshots.first { $0.key == "Home - test/Home" }?.status == .approved)
        #expect(try fixture.baseline("Home - test/Home") == changed)
        let after = try await client.execute(uri: "/api/v1/runs", method: .get)
        let summary = try #require((after.json["runs"] as? [[String: Any]])?.first)
        #expect(summary["counts"] as? [String: Int] == ["approved": 1, "passed": 1])
        #expect(summary["verdict"] as? String == "passed")
        try Self.expectIndexMatchesRecords(fixture)

        // The CLI's own review (here: Review, as `snapdiff reject` calls it) shows in the service.
        let frames2 = ServerFixture.screen([PixelRect(x: 30, y: 1, width: 2, height: 2)])
        try PNGEncoder().write(frames2, to: frames + "/Home - test/Other.png")
        let second = try RunChecker(
          currentDirectory: frames, store: fixture.store, runsDirectory: fixture.runs, recordMode: .never
        ).run().folder
        try Review(folder: second, storeRoot: fixture.store.root).reject(
          Review.Selection(patterns: ["Home - test/Other"]))
        let rejected = try await client.execute(uri: snapshotURI(second.id, "Home - test/Other"), method: .get)
        #expect(rejected.json["status"] as? String == "rejected")
        let listed = try await client.execute(uri: "/api/v1/runs?limit=1", method: .get)
        #expect(
          (listed.json["runs"] as? [[String: Any]])?.first?["counts"] as? [String: Int] == ["passed": 1, "rejected": 1])
        try Self.expectIndexMatchesRecords(fixture)

        // A run folder deleted by hand leaves the list.
        try FileManager.default.removeItem(atPath: second.path)
        #expect(try await client.execute(uri: "/api/v1/runs", method: .get).json["total"] as? Int == 1)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("the index is rebuilt from the run folders when the database is deleted")
  func indexRebuilt() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/b", ServerFixture.screen())
      let run = try await fixture.test { client in
        let run = try await client.openRun()
        _ = try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen()))
        return run
      }
      try FileManager.default.removeItem(atPath: fixture.data + "/serve.sqlite")
      try await fixture.test { client in
        let runs = try await client.execute(uri: "/api/v1/runs", method: .get).json["runs"] as? [[String: Any]]
        #expect(runs?.map { $0["id"] as? String } == [run])
        #expect(runs?.first?["counts"] as? [String: Int] == ["passed": 1])
      }
    }
  }

  /// Every snapshot status in the SQLite index equals the one in its run's `run.json`.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func expectIndexMatchesRecords(_ fixture: ServerFixture) throws {
    let database = try DatabaseQueue(path: fixture.data + "/serve.sqlite")
    let rows = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT runId, key, status FROM snapshot ORDER BY runId, key")
    }
    var fromFiles: [String] = []
    for id in try FileManager.default.contentsOfDirectory(atPath: fixture.runs).sorted() where id != "last" {
      for snapshot in try fixture.record(id).snapshots.sorted(by: { $0.key < $1.key }) {
        fromFiles.append("\(id) \(snapshot.key) \(snapshot.status.rawValue)")
      }
    }
    let fromIndex = rows.map { "\($0["runId"] as String) \($0["key"] as String) \($0["status"] as String)" }
    #expect(fromIndex == fromFiles)
  }
}
