import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Approvals as operations through the service, over a real socket: a group approved in one
/// request and undone in one (`POST /api/v1/approvals/{operation}/undo`), listed with author and
/// time (`GET /api/v1/runs/{run}/approvals`); the compare-and-swap refusal naming the newer
/// approval; a branch merge undone whole; other runs that see the approval; and the lighter
/// answers (gzip, image validators).
@Suite("approval operations through the API")
struct ApprovalOperationServerTests {
  static let keys = (1...12).map { "Screen\($0) - test_brand/Screen\($0)" }
  static let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 6, height: 3)]))

  @available(macOS 14, iOS 17, tvOS 17, *)
  func live(_ fixture: ServerFixture, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    let app = try await buildApplication(fixture.configuration())
    try await app.test(.live, body)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a group approved in one request is one operation, listed, and undone in one request; twice is 409")
  func groupUndo() async throws {
    try await withFixture { fixture in
      for key in Self.keys { try fixture.writeBaseline(key, ServerFixture.screen()) }
      let old = try FileIO.read(fixture.baselines + "/\(Self.keys[0]).png")
      try await live(fixture) { client in
        let run = try await client.openRun()
        for key in Self.keys { _ = try await client.putFrame(run, key, Self.changed) }
        let approve = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"sameAs": "\#(Self.keys[0])"}"#))
        #expect(approve.status == .ok, "\(approve.text)")
        let operation = try #require(approve.json["operation"] as? String)
        for key in Self.keys { #expect(try FileIO.read(fixture.baselines + "/\(key).png") == Self.changed) }

        let listed = try await client.execute(uri: "/api/v1/runs/\(run)/approvals", method: .get)
        #expect(listed.status == .ok, "\(listed.text)")
        let operations = try #require(listed.json["operations"] as? [[String: Any]])
        #expect(operations.count == 1)
        #expect(operations.first?["id"] as? String == operation)
        #expect(operations.first?["kind"] as? String == "approve")
        #expect((operations.first?["keys"] as? [String])?.count == 12)
        #expect(operations.first?["user"] as? String == "service (local)")
        #expect(operations.first?["undoable"] as? Bool == true)
        #expect(operations.first?["time"] is String)

        let undo = try await client.execute(uri: "/api/v1/approvals/\(operation)/undo", method: .post)
        #expect(undo.status == .ok, "\(undo.text)")
        #expect((undo.json["keys"] as? [String])?.count == 12)
        for key in Self.keys { #expect(try FileIO.read(fixture.baselines + "/\(key).png") == old) }
        #expect(try fixture.record(run).snapshots.allSatisfy { $0.status == .failed })
        let summary = try await client.execute(uri: "/api/v1/runs?limit=5", method: .get)
        let runs = try #require(summary.json["runs"] as? [[String: Any]])
        #expect(runs.first { $0["id"] as? String == run }?["toReview"] as? Int == 12)

        let after = try await client.execute(uri: "/api/v1/runs/\(run)/approvals", method: .get)
        let both = try #require(after.json["operations"] as? [[String: Any]])
        #expect(both.map { $0["kind"] as? String } == ["approve", "undo"])
        #expect(both.first?["undoneCount"] as? Int == 12)
        #expect(both.first?["undoable"] as? Bool == false)
        #expect(both.last?["undoes"] as? [String] == [operation])
        let twice = try await client.execute(uri: "/api/v1/approvals/\(operation)/undo", method: .post)
        #expect(twice.status == .conflict)
        #expect(twice.errorMessage.contains("already undone"), "\(twice.text)")
        let unknown = try await client.execute(uri: "/api/v1/approvals/0123abcd/undo", method: .post)
        #expect(unknown.status == .notFound)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("an operation whose baseline a newer approval replaced is refused (409, the newer one named)")
  func newerApprovalRefuses() async throws {
    try await withFixture { fixture in
      let key = Self.keys[0]
      try fixture.writeBaseline(key, ServerFixture.screen())
      let other = ServerFixture.png(ServerFixture.screen([PixelRect(x: 20, y: 5, width: 5, height: 5)]))
      try await live(fixture) { client in
        let first = try await client.openRun()
        _ = try await client.putFrame(first, key, Self.changed)
        let older = try #require(
          try await client.execute(uri: snapshotURI(first, key, "/approve"), method: .post).json["operation"] as? String
        )
        let second = try await client.openRun()
        _ = try await client.putFrame(second, key, other)
        let newer = try #require(
          try await client.execute(uri: snapshotURI(second, key, "/approve"), method: .post).json["operation"]
            as? String)
        let refused = try await client.execute(uri: "/api/v1/approvals/\(older)/undo", method: .post)
        #expect(refused.status == .conflict)
        #expect(refused.errorMessage.contains("the newer approve \(newer)"), "\(refused.text)")
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == other)
        let listed = try await client.execute(uri: "/api/v1/runs/\(first)/approvals", method: .get)
        let operation = try #require((listed.json["operations"] as? [[String: Any]])?.first)
        #expect(operation["undoable"] as? Bool == false)
        #expect((operation["refusal"] as? String)?.contains(newer) == true)
        #expect(try await client.execute(uri: "/api/v1/approvals/\(newer)/undo", method: .post).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/approvals/\(older)/undo", method: .post).status == .ok)
        #expect(try FileIO.read(fixture.baselines + "/\(key).png") == ServerFixture.png(ServerFixture.screen()))
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("undoing a branch merge puts the trunk's baselines back and the branch's back in its overlay")
  func mergeUndo() async throws {
    try await withFixture { fixture in
      let keys = Array(Self.keys.prefix(3))
      for key in keys { try fixture.writeBaseline(key, ServerFixture.screen()) }
      let trunk = try FileIO.read(fixture.baselines + "/\(keys[0]).png")
      try await live(fixture) { client in
        let opened = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "ui", "branch": "feature/brand", "baseBranch": "main"}"#))
        let run = try #require(opened.json["id"] as? String)
        for key in keys { _ = try await client.putFrame(run, key, Self.changed) }
        #expect(
          try await client.execute(
            uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
            body: jsonBody(#"{"failed": true}"#)
          ).status == .ok)
        let merge = try await client.execute(uri: "/api/v1/branches/feature%2Fbrand/merge", method: .post)
        #expect(merge.status == .ok, "\(merge.text)")
        for key in keys { #expect(try FileIO.read(fixture.baselines + "/\(key).png") == Self.changed) }
        let log = try ApprovalLog(dataDirectory: fixture.data).entries()
        let merged = log.filter { $0.mergedFrom != nil }
        #expect(merged.count == 3 && Set(merged.map(\.operationID)).count == 1)
        let operation = try #require(merged.first?.operationID)

        let undo = try await client.execute(uri: "/api/v1/approvals/\(operation)/undo", method: .post)
        #expect(undo.status == .ok, "\(undo.text)")
        for key in keys {
          #expect(try FileIO.read(fixture.baselines + "/\(key).png") == trunk)
          #expect(try FileIO.read(fixture.baselines + "/.branches/feature%2Fbrand/\(key).png") == Self.changed)
        }
        // The branch sees its approvals again; main does not.
        let again = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "ui", "branch": "feature/brand", "baseBranch": "main"}"#))
        let branchRun = try #require(again.json["id"] as? String)
        #expect(try await client.putFrame(branchRun, keys[0], Self.changed).json["status"] as? String == "passed")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("another open run of the branch shows the same frames approved in the approving run, until undone")
  func runsSeeApprovals() async throws {
    try await withFixture { fixture in
      let keys = Array(Self.keys.prefix(4))
      for key in keys { try fixture.writeBaseline(key, ServerFixture.screen()) }
      try await live(fixture) { client in
        let first = try await client.openRun()
        let second = try await client.openRun()
        let other = try await client.openRun(branch: "feature/other")
        for run in [first, second, other] {
          for key in keys { _ = try await client.putFrame(run, key, Self.changed) }
        }
        // One frame in the second run differs: it stays failed.
        _ = try await client.putFrame(
          second, keys[3], ServerFixture.png(ServerFixture.screen([PixelRect(x: 30, y: 2, width: 3, height: 3)])))
        let approve = try await client.execute(
          uri: "/api/v1/runs/\(first)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"failed": true}"#))
        #expect(approve.status == .ok, "\(approve.text)")
        #expect(approve.json["seenIn"] as? [String] == [second])
        let seen = try fixture.record(second)
        #expect(seen.snapshots.filter { $0.status == .approved }.count == 3)
        #expect(seen.snapshots.first { $0.key == keys[0] }?.approvedIn?.run == first)
        #expect(seen.snapshots.first { $0.key == keys[3] }?.status == .failed)
        #expect(try fixture.record(other).snapshots.allSatisfy { $0.status == .failed })
        let list = try await client.execute(uri: "/api/v1/runs?limit=10", method: .get)
        let runs = try #require(list.json["runs"] as? [[String: Any]])
        #expect(runs.first { $0["id"] as? String == second }?["toReview"] as? Int == 1)
        let page = try await client.execute(uri: "/runs/\(second)", method: .get)
        #expect(page.text.contains("approved in run \(first)"))

        let operation = try #require(approve.json["operation"] as? String)
        #expect(try await client.execute(uri: "/api/v1/approvals/\(operation)/undo", method: .post).status == .ok)
        #expect(try fixture.record(second).snapshots.allSatisfy { $0.status == .failed && $0.approvedIn == nil })
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a frame a pixel off the approved one is re-checked against the new baseline under the service's options")
  func runsRecheckAgainstNewBaseline() async throws {
    try await withFixture { fixture in
      let keys = Array(Self.keys.prefix(3))
      for key in keys { try fixture.writeBaseline(key, ServerFixture.screen()) }
      var configuration = fixture.configuration()
      configuration.options.maxDiffPixels = 2
      let app = try await buildApplication(configuration)
      try await app.test(.live) { client in
        let first = try await client.openRun()
        let second = try await client.openRun()
        for run in [first, second] {
          for key in keys { _ = try await client.putFrame(run, key, Self.changed) }
        }
        // In the second run, key 1 is the change with one more pixel (within the 2 allowed),
        // key 2 the change with a 3×3 square more (9 pixels: not).
        let onePixel = ServerFixture.png(
          ServerFixture.screen([
            PixelRect(x: 2, y: 2, width: 6, height: 3), PixelRect(x: 20, y: 9, width: 1, height: 1),
          ]))
        let square = ServerFixture.png(
          ServerFixture.screen([
            PixelRect(x: 2, y: 2, width: 6, height: 3), PixelRect(x: 20, y: 5, width: 3, height: 3),
          ]))
        #expect(try await client.putFrame(second, keys[1], onePixel).status == .ok)
        #expect(try await client.putFrame(second, keys[2], square).status == .ok)
        #expect(try fixture.record(second).comparison?.maxDiffPixels == 2)
        #expect(try fixture.record(second).snapshots.allSatisfy { $0.status == .failed })
        let approve = try await client.execute(
          uri: "/api/v1/runs/\(first)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"failed": true}"#))
        #expect(approve.status == .ok, "\(approve.text)")
        #expect(approve.json["seenIn"] as? [String] == [second])
        let seen = try fixture.record(second)
        let byKey = Dictionary(uniqueKeysWithValues: seen.snapshots.map { ($0.key, $0) })
        #expect(byKey[keys[0]]?.status == .approved && byKey[keys[0]]?.approvedIn?.rechecked == nil)
        #expect(byKey[keys[1]]?.status == .approved && byKey[keys[1]]?.approvedIn?.rechecked == true)
        #expect(byKey[keys[2]]?.status == .failed && byKey[keys[2]]?.approvedIn == nil)
        let page = try await client.execute(uri: "/runs/\(second)", method: .get)
        #expect(page.text.contains("approved in run \(first) (re-checked)"))

        let operation = try #require(approve.json["operation"] as? String)
        #expect(try await client.execute(uri: "/api/v1/approvals/\(operation)/undo", method: .post).status == .ok)
        #expect(try fixture.record(second).snapshots.allSatisfy { $0.status == .failed && $0.approvedIn == nil })
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("pages and JSON gzip-compressed when accepted; thumbnails with an ETag, immutable when versioned, 304")
  func lighterAnswers() async throws {
    try await withFixture { fixture in
      for key in Self.keys { try fixture.writeBaseline(key, ServerFixture.screen()) }
      try await live(fixture) { client in
        let run = try await client.openRun()
        for key in Self.keys { _ = try await client.putFrame(run, key, Self.changed) }
        let plain = try await client.execute(uri: "/runs/\(run)", method: .get)
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Encoding")
        let zipped = try await client.execute(uri: "/runs/\(run)", method: .get, headers: [.acceptEncoding: "gzip, br"])
        #expect(zipped.status == .ok)
        #expect(zipped.headers[.contentEncoding] == "gzip")
        let bytes = Array(buffer: zipped.body)
        #expect(bytes.starts(with: [0x1F, 0x8B]))
        #expect(bytes.count * 4 < plain.body.readableBytes, "\(bytes.count) of \(plain.body.readableBytes)")
        let json = try await client.execute(
          uri: "/api/v1/runs/\(run)", method: .get, headers: [.acceptEncoding: "gzip"])
        #expect(json.headers[.contentEncoding] == "gzip")

        // The page's thumbnails name their tag: kept by the browser for good.
        let html = plain.text
        let marker = "?thumb=1&amp;v="
        let start = try #require(html.range(of: marker))
        let tag = String(html[start.upperBound...].prefix { $0 != "\"" })
        let path = String(html[..<start.lowerBound].split(separator: "\"").last!)
        let versioned = try await client.execute(uri: path + "?thumb=1&v=" + tag, method: .get)
        #expect(versioned.status == .ok)
        #expect(versioned.headers[.eTag] == "\"\(tag)\"")
        #expect(versioned.headers[.cacheControl] == "private, max-age=31536000, immutable")
        let unversioned = try await client.execute(uri: path + "?thumb=1", method: .get)
        #expect(unversioned.headers[.cacheControl] == "no-cache")
        let again = try await client.execute(
          uri: path + "?thumb=1", method: .get, headers: [.ifNoneMatch: "\"\(tag)\""])
        #expect(again.status == .notModified)
        #expect(again.body.readableBytes == 0)
        let full = try await client.execute(uri: snapshotURI(run, Self.keys[0], "/current.png"), method: .get)
        #expect(full.headers[.eTag] == "\"\(SHA256.hex(Self.changed))\"")
        let fullAgain = try await client.execute(
          uri: snapshotURI(run, Self.keys[0], "/current.png"), method: .get,
          headers: [.ifNoneMatch: "\"\(SHA256.hex(Self.changed))\""])
        #expect(fullAgain.status == .notModified)
      }
    }
  }
}
