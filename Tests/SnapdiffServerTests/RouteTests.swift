import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Each route through the router test framework (no socket), on a project in a temporary folder.
@Suite("API routes")
struct RouteTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("GET /api/v1/health and /api/v1/version")
  func healthAndVersion() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let health = try await client.execute(uri: "/api/v1/health", method: .get)
        #expect(health.status == .ok)
        #expect(health.json["status"] as? String == "ok")
        let version = try await client.execute(uri: "/api/v1/version", method: .get)
        #expect(version.json["version"] as? String == "9.9.9-test")
        #expect(version.json["api"] as? String == "v1")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("POST /api/v1/runs opens a run folder with name and branch; 201 and Location")
  func openRun() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let response = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "nightly", "branch": "main", "recordMode": "missing"}"#))
        #expect(response.status == .created)
        let id = try #require(response.json["id"] as? String)
        #expect(response.headers[.location] == "/api/v1/runs/\(id)")
        #expect(response.json["open"] as? Bool == true)
        let record = try fixture.record(id)
        #expect(record.name == "nightly" && record.branch == "main" && record.recordMode == .missing)
        #expect(record.closedAt == nil)

        let missingName = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody(#"{"branch": "main"}"#))
        #expect(missingName.status == .badRequest)
        let badEnvironment = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "x", "environment": "../up"}"#))
        #expect(badEnvironment.status == .unprocessableContent)
        let notJSON = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody("{nope"))
        #expect(notJSON.status == .badRequest)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("PUT a PNG: the verdict with image URLs; GET the verdict and the images")
  func putAndGetSnapshot() async throws {
    try await withFixture { fixture in
      let key = "Home - test_search/Home"
      try fixture.writeBaseline(key, ServerFixture.screen())
      let changed = ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 3)])
      try await fixture.test { client in
        let run = try await client.openRun()
        let response = try await client.putFrame(run, key, ServerFixture.png(changed))
        #expect(response.status == .ok, "\(response.text)")
        let verdict = response.json
        #expect(verdict["key"] as? String == key)
        #expect(verdict["status"] as? String == "failed")
        #expect(verdict["passed"] as? Bool == false)
        #expect(verdict["differentPixels"] as? Int == 12)
        let base = snapshotURI(run, key)
        #expect(verdict["baselineURL"] as? String == base + "/baseline.png")
        #expect(verdict["currentURL"] as? String == base + "/current.png")
        #expect(verdict["diffURL"] as? String == base + "/diff.png")

        // The verdict again, by the key as one segment or with its slash as it is.
        for uri in [base, "/api/v1/runs/\(run)/snapshots/Home%20-%20test_search/Home"] {
          let again = try await client.execute(uri: uri, method: .get)
          #expect(again.status == .ok)
          #expect(again.json["differentPixels"] as? Int == 12)
        }
        let baseline = try await client.execute(uri: base + "/baseline.png", method: .get)
        #expect(baseline.status == .ok && baseline.headers[.contentType] == "image/png")
        #expect(try PNGDecoder().decode(Array(buffer: baseline.body)) == ServerFixture.screen())
        let current = try await client.execute(uri: base + "/current.png", method: .get)
        #expect(try PNGDecoder().decode(Array(buffer: current.body)) == changed)
        let diff = try await client.execute(uri: base + "/diff.png", method: .get)
        #expect(diff.status == .ok)
        #expect(try PNGDecoder().header(of: Array(buffer: diff.body)).width == 40)
        let noKey = try await client.execute(
          uri: snapshotURI(run, "Home - test_search/Other", "/diff.png"), method: .get)
        #expect(noKey.status == .notFound)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("PUT an element tree alone (application/json): rendered and compared")
  func putTree() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        let response = try await client.execute(
          uri: snapshotURI(run, "Tree - test/Screen"), method: .put, headers: jsonHeaders,
          body: jsonBody(ServerFixture.treeJSON))
        #expect(response.status == .ok, "\(response.text)")
        #expect(response.json["status"] as? String == "new")
        #expect(response.json["currentSize"] as? [String: Int] == ["width": 40, "height": 20])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("GET /api/v1/runs lists runs newest first, with counts, verdicts and filters")
  func listRuns() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/one", ServerFixture.screen())
      try await fixture.test { client in
        let first = try await client.openRun("first", branch: "main")
        _ = try await client.putFrame(first, "a/one", ServerFixture.png(ServerFixture.screen()))
        let second = try await client.openRun("second", branch: "feature")
        _ = try await client.putFrame(
          second, "a/one", ServerFixture.png(ServerFixture.screen([PixelRect(x: 0, y: 0, width: 2, height: 2)])))
        let list = try await client.execute(uri: "/api/v1/runs", method: .get)
        #expect(list.status == .ok)
        let runs = try #require(list.json["runs"] as? [[String: Any]])
        #expect(runs.map { $0["id"] as? String } == [second, first])
        #expect(list.json["total"] as? Int == 2)
        #expect(runs[0]["verdict"] as? String == "failed" && runs[0]["toReview"] as? Int == 1)
        #expect(runs[1]["verdict"] as? String == "passed")
        #expect(runs[1]["counts"] as? [String: Int] == ["passed": 1])

        let feature = try await client.execute(uri: "/api/v1/runs?branch=feature", method: .get)
        #expect((feature.json["runs"] as? [[String: Any]])?.map { $0["id"] as? String } == [second])
        let failed = try await client.execute(uri: "/api/v1/runs?verdict=failed&limit=1", method: .get)
        #expect(failed.json["total"] as? Int == 1)
        let paged = try await client.execute(uri: "/api/v1/runs?limit=1&offset=1", method: .get)
        #expect((paged.json["runs"] as? [[String: Any]])?.map { $0["id"] as? String } == [first])
        let badLimit = try await client.execute(uri: "/api/v1/runs?limit=0", method: .get)
        #expect(badLimit.status == .badRequest)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("GET /api/v1/runs/{run} is the run's run.json")
  func showRun() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        let response = try await client.execute(uri: "/api/v1/runs/\(run)", method: .get)
        #expect(response.status == .ok)
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: fixture.runs + "/\(run)/run.json"))
        #expect(Data(buffer: response.body) == onDisk)
        let unknown = try await client.execute(uri: "/api/v1/runs/20990101-000000-000", method: .get)
        #expect(unknown.status == .notFound)
        #expect(unknown.errorMessage == "no run '20990101-000000-000'")
        for sneaky in ["last", "..", "%2E%2E"] {
          let response = try await client.execute(uri: "/api/v1/runs/\(sneaky)", method: .get)
          #expect(response.status == .notFound, "\(sneaky)")
        }
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("POST …/close: the summary and verdict; later frames are refused with 409")
  func closeRun() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/same", ServerFixture.screen())
      try await fixture.test { client in
        let run = try await client.openRun()
        _ = try await client.putFrame(run, "a/same", ServerFixture.png(ServerFixture.screen()))
        let closed = try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post)
        #expect(closed.status == .ok)
        #expect(closed.json["verdict"] as? String == "passed" && closed.json["passed"] as? Bool == true)
        #expect(closed.json["open"] as? Bool == false && closed.json["closedAt"] is String)
        let late = try await client.putFrame(run, "a/same", ServerFixture.png(ServerFixture.screen()))
        #expect(late.status == .conflict)
        let again = try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post)
        #expect(again.status == .ok && again.json["closedAt"] as? String == closed.json["closedAt"] as? String)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("POST …/snapshots/{key}/approve and /reject; POST …/approve with all, failed, keys, dryRun")
  func reviewRoutes() async throws {
    try await withFixture { fixture in
      for key in ["a/one", "a/two", "a/three"] { try fixture.writeBaseline(key, ServerFixture.screen()) }
      let one = ServerFixture.screen([PixelRect(x: 0, y: 0, width: 3, height: 3)])
      let two = ServerFixture.screen([PixelRect(x: 10, y: 10, width: 2, height: 2)])
      try await fixture.test { client in
        let run = try await client.openRun()
        for (key, image) in [("a/one", one), ("a/two", two), ("a/three", two)] {
          _ = try await client.putFrame(run, key, ServerFixture.png(image))
        }
        let approved = try await client.execute(uri: snapshotURI(run, "a/one", "/approve"), method: .post)
        #expect(approved.status == .ok, "\(approved.text)")
        #expect(approved.json["action"] as? String == "approved")
        #expect(try fixture.baseline("a/one") == one)
        let rejected = try await client.execute(uri: snapshotURI(run, "a/two", "/reject"), method: .post)
        #expect(rejected.status == .ok)
        #expect(try fixture.record(run).snapshots.first { $0.key == "a/two" }?.status == .rejected)

        let dryRun = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"failed": true, "dryRun": true}"#))
        #expect(dryRun.json["action"] as? String == "wouldApprove")
        // a/two was rejected: "all failed" leaves it alone (issue #12, bug 7).
        #expect((dryRun.json["snapshots"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["a/three"])
        #expect(try fixture.baseline("a/three") == ServerFixture.screen())

        let keys = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"keys": ["a/three"]}"#))
        #expect(keys.status == .ok)
        #expect(try fixture.baseline("a/three") == two)
        let allButRejected = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders, body: jsonBody(#"{"all": true}"#))
        #expect((allButRejected.json["snapshots"] as? [Any])?.isEmpty == true)
        #expect(FileManager.default.fileExists(atPath: fixture.baselines + "/a/two.rejected.json"))
        let all = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"all": true, "includeRejected": true}"#))
        #expect((all.json["snapshots"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["a/two"])
        #expect(!FileManager.default.fileExists(atPath: fixture.baselines + "/a/two.rejected.json"))
        #expect(all.json["summary"].flatMap { ($0 as? [String: Any])?["verdict"] as? String } == "passed")
        #expect(try fixture.record(run).snapshots.allSatisfy { $0.status == .approved })

        // Nothing left to review: a named key is a conflict, `all` picks nothing.
        let twice = try await client.execute(uri: snapshotURI(run, "a/one", "/approve"), method: .post)
        #expect(twice.status == .conflict)
        let none = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders, body: jsonBody(#"{"all": true}"#))
        #expect(none.status == .ok && (none.json["snapshots"] as? [Any])?.isEmpty == true)
        let empty = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders, body: jsonBody("{}"))
        #expect(empty.status == .badRequest)
        let unknown = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"sameAs": "a/nope"}"#))
        #expect(unknown.status == .notFound)
        let noMatch = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders, body: jsonBody(#"{"keys": ["b/*"]}"#)
        )
        #expect(noMatch.status == .notFound)
        let badAction = try await client.execute(uri: snapshotURI(run, "a/one", "/promote"), method: .post)
        #expect(badAction.status == .notFound)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("GET / lists the runs; GET /runs/{run} is the report with API images and review buttons")
  func reviewPages() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("Home - test/Home", ServerFixture.screen())
      try await fixture.test { client in
        let run = try await client.openRun("nightly <main>")
        _ = try await client.putFrame(
          run, "Home - test/Home", ServerFixture.png(ServerFixture.screen([PixelRect(x: 1, y: 1, width: 2, height: 2)]))
        )
        let list = try await client.execute(uri: "/", method: .get)
        #expect(list.status == .ok && list.headers[.contentType] == "text/html; charset=utf-8")
        #expect(list.text.contains("href=\"/runs/\(run)\""))
        #expect(list.text.contains("nightly &lt;main&gt;"))
        #expect(!list.text.contains("http://") && !list.text.contains("https://"))

        let page = try await client.execute(uri: "/runs/\(run)", method: .get)
        #expect(page.status == .ok)
        #expect(page.text.contains("href=\"/api/v1/runs/\(run)/snapshots/Home%20-%20test/Home/diff.png\""))
        let thumbnailURL = "/api/v1/runs/\(run)/snapshots/Home%20-%20test/Home/current.png?thumb=1"
        // The thumbnail's URL names its tag (the browser keeps it: `ImageValidators`).
        #expect(page.text.contains("src=\"\(thumbnailURL)&amp;v=t"))
        #expect(page.text.contains("\" alt=\"current: Home - test/Home\" loading=\"lazy\""))
        #expect(page.text.contains("data-run=\"\(run)\""))
        #expect(page.text.contains("of this group"))
        #expect(
          page.text.components(separatedBy: "<script").count == 3, "the report's script and the page's, no patching")
        #expect(!page.text.contains("https://"))
        // The image URLs the page uses work; a thumbnail is made once, then read from disk.
        let image = try await client.execute(
          uri: "/api/v1/runs/\(run)/snapshots/Home%20-%20test/Home/diff.png", method: .get)
        #expect(image.status == .ok)
        let thumbnail = try await client.execute(uri: thumbnailURL, method: .get)
        #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/png")
        let small = try PNGDecoder().decode(Array(thumbnail.body.readableBytesView))
        let full = ServerFixture.screen()
        #expect(small.width == full.width && small.height == full.height, "a small image is not enlarged")
        let cached = try FileManager.default.contentsOfDirectory(atPath: fixture.data + "/thumbnails")
        #expect(cached.count == 1)
        let again = try await client.execute(uri: thumbnailURL, method: .get)
        #expect(Array(again.body.readableBytesView) == Array(thumbnail.body.readableBytesView))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.data + "/thumbnails") == cached)

        let missing = try await client.execute(uri: "/runs/nope", method: .get)
        #expect(missing.status == .notFound && missing.text.contains("<html"))
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a phone screen's thumbnail: at most 240×480, the same shape, its changed region outlined")
  func phoneThumbnail() async throws {
    try await withFixture { fixture in
      let white = RGBAImage(width: 720, height: 1560, filledWith: ServerFixture.white)
      var changed = white
      for y in 1000..<1100 {
        for x in 100..<400 { changed[x: x, y: y] = RGBAColor(red: 20, green: 30, blue: 40) }
      }
      let frame = ServerFixture.png(changed)
      try fixture.writeBaseline("Feed - test/Feed", white)
      try await fixture.test { client in
        let run = try await client.openRun("phones")
        _ = try await client.putFrame(run, "Feed - test/Feed", frame)
        let thumbnail = try await client.execute(
          uri: "/api/v1/runs/\(run)/snapshots/Feed%20-%20test%2FFeed/current.png?thumb=1", method: .get)
        #expect(thumbnail.status == .ok)
        let small = try PNGDecoder().decode(Array(thumbnail.body.readableBytesView))
        #expect(small.width == 222 && small.height == 480, "\(small.width)×\(small.height)")
        // The region (100, 1000, 300×100) scaled by 480/1560: dark inside, outlined around.
        let scale = 480.0 / 1560.0
        #expect(small[x: Int(250 * scale), y: Int(1050 * scale)] == RGBAColor(red: 20, green: 30, blue: 40))
        let red = RGBAColor(red: 255, green: 45, blue: 85)
        #expect((295...310).contains { small[x: Int(250 * scale), y: $0] == red }, "an outline just above the change")
        #expect(small[x: Int(250 * scale), y: 20] == ServerFixture.white)
        let baseline = try await client.execute(
          uri: "/api/v1/runs/\(run)/snapshots/Feed%20-%20test%2FFeed/baseline.png?thumb=1", method: .get)
        let plain = try PNGDecoder().decode(Array(baseline.body.readableBytesView))
        #expect(!(295...310).contains { plain[x: Int(250 * scale), y: $0] == red }, "baselines are not outlined")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("--public-url: links to the review page in API answers are absolute on it")
  func publicURL() async throws {
    try await withFixture { fixture in
      var configuration = fixture.configuration()
      configuration.publicURL = "https://snapdiff.example.com/"
      try await fixture.test(configuration) { client in
        let run = try await client.openRun("ci")
        let verdict = try await client.putFrame(run, "Home - test/Home", ServerFixture.png(ServerFixture.screen()))
        #expect(verdict.json["pageURL"] as? String == "https://snapdiff.example.com/runs/\(run)")
        let list = try await client.execute(uri: "/api/v1/runs", method: .get)
        let links = ((list.json["runs"] as? [[String: Any]])?.first?["links"] as? [String: Any])
        #expect(links?["page"] as? String == "https://snapdiff.example.com/runs/\(run)")
        #expect(links?["run"] as? String == "/api/v1/runs/\(run)")
        let closed = try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post)
        #expect(
          (closed.json["links"] as? [String: Any])?["page"] as? String == "https://snapdiff.example.com/runs/\(run)")
      }
      let plain = try await fixture.test { client in
        try await client.execute(uri: "/api/v1/runs", method: .get)
      }
      let page = ((plain.json["runs"] as? [[String: Any]])?.first?["links"] as? [String: Any])?["page"] as? String
      #expect(page?.hasPrefix("/runs/") == true, "without --public-url the link is a path: \(page ?? "none")")
      var bad = fixture.configuration()
      bad.publicURL = "snapdiff.example.com"
      #expect(throws: ServerConfigurationError.self) { try bad.validate() }
    }
  }
}
