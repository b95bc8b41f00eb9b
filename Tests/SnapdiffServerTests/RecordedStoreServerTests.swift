import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

/// The service reads and changes its own store, whatever a run's `run.json` says: a run whose
/// record names another store is neither approved into it nor served from it.
@Suite("the service's store, not the run's")
struct RecordedStoreServerTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "a run.json pointed at another store: approve 409, the other store's baseline not served, neither store changed")
  func tamperedStore() async throws {
    try await withFixture { fixture in
      let key = "Home - test_search/Home"
      try fixture.writeBaseline(key, ServerFixture.screen())
      let other = ServerFixture.screen([PixelRect(x: 30, y: 10, width: 5, height: 5)])
      try FileManager.default.createDirectory(
        atPath: fixture.root + "/other/Home - test_search", withIntermediateDirectories: true)
      try PNGEncoder().write(other, to: fixture.root + "/other/\(key).png")
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)]))
      try await fixture.test { client in
        let run = try await client.openRun()
        #expect(try await client.putFrame(run, key, changed).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post).status == .ok)
        // A run recorded without hashes, whose record names the store `other/`.
        let path = fixture.runs + "/" + run + "/run.json"
        var record =
          try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        record["baselinesDirectory"] = "../../../other"
        var snapshots = record["snapshots"] as! [[String: Any]]
        snapshots[0]["baseline"] = "../../../other/\(key).png"
        snapshots[0]["baselineHash"] = nil
        record["snapshots"] = snapshots
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))

        let baseline = try await client.execute(uri: snapshotURI(run, key, "/baseline.png"), method: .get)
        #expect(baseline.status == .notFound, "\(baseline.status)")
        let approve = try await client.execute(uri: snapshotURI(run, key, "/approve"), method: .post)
        #expect(approve.status == .conflict, "\(approve.text)")
        #expect(approve.text.contains("the store this command uses"), "\(approve.text)")
      }
      #expect(try fixture.baseline(key) == ServerFixture.screen())
      #expect(try PNGDecoder().decode(contentsOf: fixture.root + "/other/\(key).png") == other)
    }
  }
}
