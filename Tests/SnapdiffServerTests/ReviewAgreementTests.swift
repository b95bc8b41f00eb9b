import Foundation
import HummingbirdTesting
import SnapdiffCore
import Testing

/// Which snapshots a reviewer acts on is one rule (`SnapshotStatus.isReviewable`), and which
/// wait for one another (`awaitsReview(recordMode:)`): `snapdiff status`, the run's report, the
/// service's `toReview` and the review page agree on runs that hold every status.
@Suite("what to review: status, the report, the service and the page agree")
struct ReviewAgreementTests {
  static let changed = ServerFixture.screen([PixelRect(x: 0, y: 0, width: 4, height: 4)])

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("every status in record mode never, and a re-recorded failure beside a recorded new snapshot")
  func everyStatus() async throws {
    let snapdiff = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      for key in ["s/passed", "s/failed", "s/missing", "s/approved", "s/rejected", "s/skipped"] {
        try fixture.writeBaseline(key, ServerFixture.screen())
      }
      let (never, recording) = try await fixture.test { client in
        // Record mode never: one snapshot of each status.
        let never = try await Self.open(client, recordMode: "never")
        _ = try await client.putFrame(never, "s/passed", ServerFixture.png(ServerFixture.screen()))
        for key in ["s/failed", "s/approved", "s/rejected", "s/new"] {
          _ = try await client.putFrame(never, key, ServerFixture.png(Self.changed))
        }
        let skip = try await client.execute(
          uri: snapshotURI(never, "s/skipped", "/skip"), method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"reason": "not on this device"}"#))
        #expect(skip.status == .ok, "\(skip.text)")
        let closed = try await client.execute(
          uri: "/api/v1/runs/\(never)/close", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"complete": true}"#))
        #expect(closed.status == .ok, "\(closed.text)")
        let approved = try await client.execute(uri: snapshotURI(never, "s/approved", "/approve"), method: .post)
        #expect(approved.status == .ok, "\(approved.text)")
        let rejected = try await client.execute(uri: snapshotURI(never, "s/rejected", "/reject"), method: .post)
        #expect(rejected.status == .ok, "\(rejected.text)")

        // Record mode failed: the failure is re-recorded (and still fails), the new snapshot recorded.
        let recording = try await Self.open(client, recordMode: "failed")
        _ = try await client.putFrame(recording, "s/passed", ServerFixture.png(ServerFixture.screen()))
        _ = try await client.putFrame(recording, "s/missing", ServerFixture.png(Self.changed))
        _ = try await client.putFrame(recording, "s/other-new", ServerFixture.png(Self.changed))
        _ = try await client.execute(uri: "/api/v1/runs/\(recording)/close", method: .post)
        return (never, recording)
      }

      let record = try fixture.record(never)
      #expect(Set(record.snapshots.map(\.status)) == Set(SnapshotStatus.allCases), "\(record.snapshots.map(\.status))")
      try await Self.expectAgreement(
        fixture, run: never, snapdiff: snapdiff, awaiting: ["s/failed", "s/missing", "s/new", "s/rejected"],
        reviewable: ["s/failed", "s/missing", "s/new", "s/rejected"])

      let recorded = try fixture.record(recording)
      #expect(recorded.snapshots.filter(\.recorded).map(\.key).sorted() == ["s/missing", "s/other-new"])
      // s/missing failed here (its baseline differs) and was re-recorded: it still waits, as the
      // run failed with it; the new snapshot the mode recorded can be approved, and does not wait.
      try await Self.expectAgreement(
        fixture, run: recording, snapdiff: snapdiff, awaiting: ["s/missing"],
        reviewable: ["s/missing", "s/other-new"])
    }
  }

  /// `awaiting`: what `status` exits 1 for and lists, and the run list's `toReview` counts;
  /// `reviewable`: the snapshots the report prints `approve` for and the page offers.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func expectAgreement(
    _ fixture: ServerFixture, run: String, snapdiff: String, awaiting: Set<String>, reviewable: Set<String>
  ) async throws {
    let record = try fixture.record(run)
    #expect(Set(record.awaitingReview.map(\.key)) == awaiting)

    // snapdiff status.
    let status = try ExternalTool.run([snapdiff, "status", run], in: fixture.root)
    #expect(status.status == (awaiting.isEmpty ? 0 : 1), "\(status.standardOutput)\(status.standardError)")
    for snapshot in record.snapshots where awaiting.contains(snapshot.key) {
      let label = snapshot.status.rawValue.uppercased()
      let line = label + String(repeating: " ", count: max(0, 8 - label.count)) + " " + snapshot.key
      #expect(status.standardOutput.contains(line), "\(status.standardOutput)")
    }

    // The report written into the run folder: an approve command for each reviewable snapshot.
    let report = try String(contentsOfFile: fixture.runs + "/" + run + "/index.html", encoding: .utf8)
    let commands = report.components(separatedBy: "snapdiff approve '").dropFirst()
    #expect(Set(commands.compactMap { $0.split(separator: "'").first.map(String.init) }) == reviewable)

    try await fixture.test { client in
      // The service: toReview in the run list (the index's counts and the run's record mode).
      let list = try await client.execute(uri: "/api/v1/runs", method: .get)
      let listed = (list.json["runs"] as? [[String: Any]])?.first { $0["id"] as? String == run }
      #expect(listed?["toReview"] as? Int == awaiting.count, "\(list.text)")

      // The review page: its script's list of reviewable statuses, over the cards it shows.
      let page = try await client.execute(uri: "/runs/\(run)", method: .get)
      #expect(page.status == .ok)
      let script = try #require(page.text.components(separatedBy: "var reviewable = [").dropFirst().first)
      let statuses = Set(
        script.prefix { $0 != "]" }.split(separator: ",").map {
          $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        })
      #expect(statuses == Set(SnapshotStatus.reviewable.map(\.rawValue)))
      var offered: Set<String> = []
      for card in page.text.components(separatedBy: "<article class=\"snap ").dropFirst() {
        guard let cardStatus = Self.attribute("data-status", in: card), let key = Self.attribute("data-key", in: card)
        else { continue }
        if statuses.contains(cardStatus) { offered.insert(key) }
      }
      #expect(offered == reviewable)
    }
  }

  /// Opens a run in `recordMode`.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func open(_ client: any TestClientProtocol, recordMode: String) async throws -> String {
    let response = try await client.execute(
      uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
      body: jsonBody("{\"name\": \"review\", \"recordMode\": \"\(recordMode)\"}"))
    #expect(response.status == .created, "\(response.text)")
    return try #require(response.json["id"] as? String)
  }

  /// The value of `name="…"` in the first tag of `html`.
  static func attribute(_ name: String, in html: String) -> String? {
    let tag = html.prefix { $0 != ">" }
    guard let start = tag.range(of: name + "=\"") else { return nil }
    return String(tag[start.upperBound...].prefix { $0 != "\"" })
  }
}
