import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Branch-aware baselines in the service's store (issue #14 item 5): approvals on a branch go to
/// its overlay, runs on the branch read it before the store, other branches do not see it, and a
/// merge promotes it.
@Suite("branch overlays through the API")
struct BranchOverlayServerTests {
  let key = "Home - test_search/Home"

  @available(macOS 14, iOS 17, tvOS 17, *)
  func openRun(_ client: some TestClientProtocol, branch: String, base: String?) async throws -> String {
    let baseField = base.map { ", \"baseBranch\": \"\($0)\"" } ?? ""
    let response = try await client.execute(
      uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
      body: jsonBody(#"{"name": "ci", "branch": "\#(branch)"\#(baseField)}"#))
    #expect(response.status == .created, "\(response.text)")
    return response.json["id"] as! String
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("approve on a branch writes its overlay; the branch sees it, the trunk does not; merge promotes it")
  func overlayLifecycle() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline(key, ServerFixture.screen())
      let trunkBytes = try FileIO.read(fixture.baselines + "/\(key).png")
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)]))
      let overlayFile = fixture.baselines + "/.branches/feature%2Flogin/\(key).png"
      try await fixture.test { client in
        let run = try await openRun(client, branch: "feature/login", base: "main")
        #expect(try fixture.record(run).overlays == [".branches/feature%2Flogin"])
        #expect(try await client.putFrame(run, key, changed).json["status"] as? String == "failed")
        let approve = try await client.execute(uri: snapshotURI(run, key, "/approve"), method: .post)
        #expect(approve.status == .ok, "\(approve.text)")
        // The overlay holds the approval; the store is untouched.
        #expect(try FileIO.read(overlayFile) == changed)
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == trunkBytes)

        // The branch's next run passes; a run on main, or on another branch, still fails.
        let again = try await openRun(client, branch: "feature/login", base: "main")
        #expect(try await client.putFrame(again, key, changed).json["status"] as? String == "passed")
        let trunk = try await openRun(client, branch: "main", base: nil)
        #expect(try await client.putFrame(trunk, key, changed).json["status"] as? String == "failed")
        let other = try await openRun(client, branch: "feature/other", base: "main")
        #expect(try await client.putFrame(other, key, changed).json["status"] as? String == "failed")
        // A branch forked from the branch falls back to its overlay.
        let stacked = try await openRun(client, branch: "feature/login-2", base: "feature/login")
        #expect(try fixture.record(stacked).overlays == [".branches/feature%2Flogin-2", ".branches/feature%2Flogin"])
        #expect(try await client.putFrame(stacked, key, changed).json["status"] as? String == "passed")

        let encodedKey = String(snapshotURI(run, key).split(separator: "/").last!)
        let history = try await client.execute(
          uri: "/api/v1/baselines/\(encodedKey)/history?branch=feature%2Flogin", method: .get)
        #expect(history.json["current"] as? String == SHA256.hex(changed))
        let entry = try #require((history.json["entries"] as? [[String: Any]])?.first)
        #expect(entry["overlay"] as? String == ".branches/feature%2Flogin")
        #expect(entry["branch"] as? String == "feature/login")

        let branches = try await client.execute(uri: "/api/v1/branches", method: .get)
        #expect(branches.json["branches"] as? [String] == ["feature/login"])
        let dry = try await client.execute(uri: "/api/v1/branches/feature%2Flogin/merge?dryRun=true", method: .post)
        #expect((dry.json["baselines"] as? [[String: Any]])?.first?["key"] as? String == key)
        #expect(FileManager.default.fileExists(atPath: overlayFile))
        let merge = try await client.execute(uri: "/api/v1/branches/feature%2Flogin/merge", method: .post)
        #expect(merge.status == .ok, "\(merge.text)")
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == changed)
        #expect(!FileManager.default.fileExists(atPath: fixture.baselines + "/.branches/feature%2Flogin"))
        let trunkHistory = try await client.execute(uri: "/api/v1/baselines/\(encodedKey)/history", method: .get)
        let merged = try #require((trunkHistory.json["entries"] as? [[String: Any]])?.last)
        #expect(merged["overlay"] == nil && merged["branch"] as? String == "feature/login")
        #expect(merged["old"] as? String == SHA256.hex(trunkBytes) && merged["new"] as? String == SHA256.hex(changed))
        // Main now passes; merging again finds nothing.
        let after = try await openRun(client, branch: "main", base: nil)
        #expect(try await client.putFrame(after, key, changed).json["status"] as? String == "passed")
        let twice = try await client.execute(uri: "/api/v1/branches/feature%2Flogin/merge", method: .post)
        #expect(twice.status == .notFound)
      }
    }
  }
}
