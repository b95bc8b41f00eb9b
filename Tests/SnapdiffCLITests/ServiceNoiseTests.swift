import Foundation
import SnapdiffCore
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Known noise, flaky snapshots and `"branch": "auto"` through the real `snapdiff serve` on a
/// socket: a difference approved as noise through the API passes the next run (the verdict
/// says so) while another change fails; fingerprints are listed and removed; a snapshot whose
/// verdict flips is listed by `GET /api/v1/flaky` and badged on the review page.
@Suite("service: known noise and flaky snapshots")
struct ServiceNoiseTests {
  let key = "Home - test_search/Home"
  let spinner = "Home - test_search/Spinner"
  let header = "Home - test_search/Header"
  let content = PixelRect(x: 5, y: 10, width: 10, height: 10)
  let cursor = PixelRect(x: 40, y: 5, width: 2, height: 6)
  let badge = PixelRect(x: 25, y: 30, width: 4, height: 4)

  func json(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func post(_ url: String, _ body: String) throws -> (Int, Data) {
    try ServiceHistoryTests.http("POST", url, body: Data(body.utf8), type: "application/json")
  }

  /// Opens a run of commit `commit`, puts `frames` (key → rectangles), closes it; the verdicts by key.
  func run(_ api: String, commit: String, _ frames: [(String, [PixelRect])]) throws -> (String, [String: [String: Any]])
  {
    let (opened, body) = try post(api + "/runs", #"{"name": "ci", "commit": "\#(commit)"}"#)
    #expect(opened == 201, "\(String(decoding: body, as: UTF8.self))")
    let run = try #require(try json(body)["id"] as? String)
    var verdicts: [String: [String: Any]] = [:]
    for (key, rects) in frames {
      let png = try PNGEncoder().encode(Workspace.screen(rects))
      let (status, answer) = try ServiceHistoryTests.http(
        "PUT", api + "/runs/\(run)/snapshots/\(PercentEncoding.segment(key))", body: Data(png), type: "image/png")
      #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
      verdicts[key] = try json(answer)
    }
    #expect(try post(api + "/runs/\(run)/close", "{}").0 == 200)
    return (run, verdicts)
  }

  @Test("known noise, flaky snapshots and branch auto over a real socket", .timeLimit(.minutes(2)))
  func noiseAndFlakyThroughTheService() throws {
    try withWorkspace { workspace in
      for name in [key, spinner, header] {
        try workspace.writeFrame(name, Workspace.screen([content]), folder: "baselines")
      }
      let (server, port) = try ServiceHistoryTests.serve(in: workspace)
      defer { if server.isRunning { server.terminate() } }
      let api = "http://127.0.0.1:\(port)/api/v1"

      // Run 1: the cursor fails; approved as noise through the API, the baseline kept.
      let baseline = try FileIO.read(workspace.root + "/baselines/\(key).png")
      let (first, verdicts1) = try run(
        api, commit: "c0ffee", [(key, [content, cursor]), (spinner, [content]), (header, [content])])
      #expect(verdicts1[key]?["passed"] as? Bool == false)
      let (approved, approval) = try ServiceHistoryTests.http(
        "POST", api + "/runs/\(first)/snapshots/\(PercentEncoding.segment(key))/noise")
      #expect(approved == 200, "\(String(decoding: approval, as: UTF8.self))")
      #expect(try json(approval)["action"] as? String == "approvedAsNoise")
      #expect(try FileIO.read(workspace.root + "/baselines/\(key).png") == baseline)

      // Run 2: the same difference passes as known noise; the spinner fails.
      let (_, verdicts2) = try run(
        api, commit: "c0ffee", [(key, [content, cursor]), (spinner, [content, cursor]), (header, [content])])
      #expect(verdicts2[key]?["passed"] as? Bool == true)
      #expect(verdicts2[key]?["status"] as? String == "passed")
      let noise = try #require(verdicts2[key]?["knownNoise"] as? [String: Any])
      #expect(noise["changeHash"] as? String == verdicts1[key]?["changeHash"] as? String)

      // Run 3: another change in the same snapshot fails; the spinner passes again.
      let (third, verdicts3) = try run(
        api, commit: "c0ffee", [(key, [content, cursor, badge]), (spinner, [content]), (header, [content])])
      #expect(verdicts3[key]?["passed"] as? Bool == false)
      #expect(verdicts3[key]?["knownNoise"] == nil)

      // Listed, then removed.
      let (listed, list) = try ServiceHistoryTests.http("GET", api + "/noise")
      #expect(listed == 200)
      let entries = try #require(try json(list)["entries"] as? [[String: Any]])
      #expect(entries.map { $0["key"] as? String } == [key])
      #expect(entries.first?["stale"] as? Bool == false)
      let (removed, removal) = try post(api + "/noise/remove", #"{"key": "\#(key)", "all": true}"#)
      #expect(removed == 200)
      #expect((try json(removal)["entries"] as? [[String: Any]])?.count == 1)
      #expect((try json(ServiceHistoryTests.http("GET", api + "/noise").1)["entries"] as? [Any])?.isEmpty == true)

      // The spinner flipped twice on one baseline and commit; the header never did.
      let (found, flakyBody) = try ServiceHistoryTests.http("GET", api + "/flaky")
      #expect(found == 200)
      let flaky = try #require(try json(flakyBody)["snapshots"] as? [[String: Any]])
      let spinnerFinding = try #require(flaky.first { $0["key"] as? String == spinner })
      #expect(spinnerFinding["flips"] as? Int == 2)
      #expect(spinnerFinding["commit"] as? String == "c0ffee")
      #expect(!flaky.contains { $0["key"] as? String == header })
      let (_, page) = try ServiceHistoryTests.http("GET", "http://127.0.0.1:\(port)/runs/\(third)")
      let html = String(decoding: page, as: UTF8.self)
      #expect(html.contains(">flaky</span>"))

      // "branch": "auto": refused without the client's CI variables, resolved from them.
      let (refused, refusal) = try post(api + "/runs", #"{"name": "ci", "branch": "auto"}"#)
      #expect(refused == 400)
      #expect(String(decoding: refusal, as: UTF8.self).contains("needs the client's CI variables in 'ci'"))
      let (opened, openBody) = try post(
        api + "/runs",
        #"{"name": "ci", "branch": "auto", "ci": {"GITHUB_HEAD_REF": "feature/login", "GITHUB_BASE_REF": "main", "GITHUB_SHA": "abc123"}}"#
      )
      #expect(opened == 201, "\(String(decoding: openBody, as: UTF8.self))")
      let openedRun = try json(openBody)
      #expect(openedRun["branch"] as? String == "feature/login")
      let autoRun = try #require(openedRun["id"] as? String)
      let record = try json(ServiceHistoryTests.http("GET", api + "/runs/\(autoRun)").1)
      #expect(record["baseBranch"] as? String == "main")
      #expect(record["commit"] as? String == "abc123")
    }
  }
}
