import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Issue #14 through the service: images served as the run compared them after an approval,
/// history and undo, and a run closed complete listing the screens it never received.
@Suite("run history through the API")
struct RunHistoryServerTests {
  let key = "Home - test_search/Home"
  let other = "Profile - test_profile/Profile"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("after an approval, baseline.png is still the baseline the run compared; history and undo")
  func approveHistoryUndo() async throws {
    try await withFixture { fixture in
      let old = ServerFixture.screen()
      try fixture.writeBaseline(key, old)
      let oldBytes = try FileIO.read(fixture.baselines + "/\(key).png")
      let newBytes = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)]))
      try await fixture.test { client in
        let run = try await client.openRun()
        #expect(try await client.putFrame(run, key, newBytes).json["differentPixels"] as? Int == 12)
        let approve = try await client.execute(uri: snapshotURI(run, key, "/approve"), method: .post)
        #expect(approve.status == .ok, "\(approve.text)")
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == newBytes)

        let baseline = try await client.execute(uri: snapshotURI(run, key, "/baseline.png"), method: .get)
        #expect(Array(buffer: baseline.body) == oldBytes)
        let current = try await client.execute(uri: snapshotURI(run, key, "/current.png"), method: .get)
        #expect(Array(buffer: current.body) == newBytes)
        let verdict = try await client.execute(uri: snapshotURI(run, key), method: .get)
        #expect(verdict.json["differentPixels"] as? Int == 12)
        #expect(verdict.json["status"] as? String == "approved")
        #expect(verdict.json["baselineHash"] as? String == SHA256.hex(oldBytes))
        #expect(verdict.json["currentHash"] as? String == SHA256.hex(newBytes))

        let encoded = String(snapshotURI(run, key).split(separator: "/").last!)
        let history = try await client.execute(uri: "/api/v1/baselines/\(encoded)/history", method: .get)
        #expect(history.status == .ok, "\(history.text)")
        let entries = try #require(history.json["entries"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["old"] as? String == SHA256.hex(oldBytes))
        #expect(entries.first?["new"] as? String == SHA256.hex(newBytes))
        #expect(entries.first?["run"] as? String == run)
        #expect(entries.first?["branch"] as? String == "main")
        #expect(entries.first?["user"] as? String == "service (local)")
        #expect(history.json["current"] as? String == SHA256.hex(newBytes))
        #expect(history.json["undoable"] as? String == entries.first?["id"] as? String)

        // Rejecting the approved snapshot: nothing to review. After the undo, it can be.
        let early = try await client.execute(uri: snapshotURI(run, key, "/reject"), method: .post)
        #expect(early.status == .conflict)
        let undo = try await client.execute(uri: "/api/v1/baselines/\(encoded)/undo", method: .post)
        #expect(undo.status == .ok, "\(undo.text)")
        #expect(undo.json["undone"] as? String == entries.first?["id"] as? String)
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == oldBytes)
        #expect(try fixture.record(run).snapshots.first?.status == .failed)
        let reject = try await client.execute(uri: snapshotURI(run, key, "/reject"), method: .post)
        #expect(reject.status == .ok, "\(reject.text)")

        let twice = try await client.execute(uri: "/api/v1/baselines/\(encoded)/undo", method: .post)
        #expect(twice.status == .conflict)
        let after = try await client.execute(uri: "/api/v1/baselines/\(encoded)/history", method: .get)
        #expect((after.json["entries"] as? [[String: Any]])?.map { $0["action"] as? String } == ["approve", "undo"])
        let wrong = try await client.execute(uri: "/api/v1/baselines/\(encoded)/nope", method: .get)
        #expect(wrong.status == .notFound)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("close with complete lists every baseline the run did not receive as missing")
  func closeComplete() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline(key, ServerFixture.screen())
      try fixture.writeBaseline(other, ServerFixture.screen())
      try fixture.writeBaseline("Legacy/Removed", ServerFixture.screen())
      try await fixture.test { client in
        // Without complete: nothing is missing (the run may be one part of several).
        let partial = try await client.openRun()
        _ = try await client.putFrame(partial, key, ServerFixture.png(ServerFixture.screen()))
        let plain = try await client.execute(uri: "/api/v1/runs/\(partial)/close", method: .post)
        #expect(plain.status == .ok)
        #expect((plain.json["counts"] as? [String: Int])?["missing"] == nil)

        let run = try await client.openRun()
        _ = try await client.putFrame(run, key, ServerFixture.png(ServerFixture.screen()))
        let skip = try await client.execute(
          uri: snapshotURI(run, other, "/skip"), method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"reason": "not allowed"}"#))
        #expect(skip.status == .ok)
        let closed = try await client.execute(
          uri: "/api/v1/runs/\(run)/close", method: .post, headers: jsonHeaders, body: jsonBody(#"{"complete": true}"#))
        #expect(closed.status == .ok, "\(closed.text)")
        #expect(closed.json["complete"] as? Bool == true)
        #expect(closed.json["counts"] as? [String: Int] == ["passed": 1, "skipped": 1, "missing": 1])
        let record = try fixture.record(run)
        let missing = try #require(record.snapshots.first { $0.key == "Legacy/Removed" })
        #expect(missing.status == .missing)
        #expect(missing.baselineHash == SHA256.hex(try FileIO.read(fixture.baselines + "/Legacy/Removed.png")))
        // Closing again changes nothing.
        let again = try await client.execute(
          uri: "/api/v1/runs/\(run)/close", method: .post, headers: jsonHeaders, body: jsonBody(#"{"complete": true}"#))
        #expect(try fixture.record(run) == record)
        #expect(again.status == .ok)

        // A shard vouches for its prefix only.
        let shard = try await client.openRun()
        _ = try await client.putFrame(shard, key, ServerFixture.png(ServerFixture.screen()))
        let shardClosed = try await client.execute(
          uri: "/api/v1/runs/\(shard)/close", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"complete": true, "prefix": "Home"}"#))
        #expect(shardClosed.json["counts"] as? [String: Int] == ["passed": 1])
        let expected = try await client.openRun()
        let listed = try await client.execute(
          uri: "/api/v1/runs/\(expected)/close", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"complete": true, "keys": ["Profile - test_profile/Profile"]}"#))
        #expect(listed.json["counts"] as? [String: Int] == ["missing": 1])
        let badKey = try await client.openRun()
        let refused = try await client.execute(
          uri: "/api/v1/runs/\(badKey)/close", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"complete": true, "keys": ["../up"]}"#))
        #expect(refused.status == .unprocessableContent)
        let keysAlone = try await client.execute(
          uri: "/api/v1/runs/\(badKey)/close", method: .post, headers: jsonHeaders, body: jsonBody(#"{"prefix": "a"}"#))
        #expect(keysAlone.status == .badRequest)
      }
    }
  }
}
