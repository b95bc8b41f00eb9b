import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Issue #12, the smaller service findings: what clients are told (statuses, wording, paths)
/// for malformed chunks, bad JSON, unknown fields, empty runs and errors that hold paths.
@Suite("service answers: statuses, wording, paths")
struct ServiceWordingTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a malformed chunk size answers 400 (it was 500 'strict mode assertion') and the connection closes")
  func malformedChunk() async throws {
    try await withFixture { fixture in
      try await withLoopbackServer(fixture.configuration()) { port in
        let answer = try await offCooperativePool {
          try RawHTTP.send(
            "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            port: port)
        }
        #expect(answer.status == 400, "\(answer.head)")
        #expect(!answer.body.contains("strict mode"), "\(answer.body)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("JSON problems are worded, not Swift's; unknown fields are refused, naming them")
  func wording() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let missing = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody(#"{"branch": "main"}"#))
        #expect(missing.status == .badRequest)
        #expect(missing.errorMessage == #"the JSON body is missing "name""#, "\(missing.text)")
        let typo = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders,
          body: jsonBody(#"{"name": "x", "recordmode": "all"}"#))
        #expect(typo.status == .badRequest)
        #expect(
          typo.errorMessage.hasPrefix("the JSON body: unknown field 'recordmode' (the fields are name, "),
          "\(typo.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.runs).filter { !$0.hasPrefix(".") }.isEmpty)

        let run = try await client.openRun()
        let approve = try await client.execute(
          uri: "/api/v1/runs/\(run)/approve", method: .post, headers: jsonHeaders, body: jsonBody(#"{"failled": true}"#)
        )
        #expect(
          approve.status == .badRequest && approve.errorMessage.contains("unknown field 'failled'"), "\(approve.text)")

        let png = ServerFixture.png(ServerFixture.screen())
        for (settings, expected) in [
          (#"{"treshold": 0.2}"#, "the settings part of 'a/b': unknown field 'treshold' (the fields are threshold, "),
          (
            #"{"ignoreRegions": [{"x": 0, "y": 0, "w": 1, "height": 1}]}"#,
            "the settings part of 'a/b': $.ignoreRegions[0]: unknown field 'w'"
          ),
          (#"{"threshold": "high"}"#, "the settings part of 'a/b': $.threshold should be a number"),
        ] {
          var form = Multipart()
          form.add("frame", png, contentType: "image/png")
          form.add("settings", Array(settings.utf8), contentType: "application/json")
          let response = try await client.execute(
            uri: snapshotURI(run, "a/b"), method: .put, headers: form.headers, body: form.body)
          #expect(response.status == .unprocessableContent, "\(settings): \(response.text)")
          #expect(response.errorMessage.hasPrefix(expected), "\(settings): \(response.errorMessage)")
          #expect(
            !response.errorMessage.contains("Coding") && !response.errorMessage.contains("CodingKeys"),
            "\(response.errorMessage)")
        }
        #expect(try fixture.record(run).snapshots.isEmpty)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a new run without snapshots reads 'empty', not 'passed', in its summary, the list and its filter")
  func emptyRun() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/b", ServerFixture.screen())
      try await fixture.test { client in
        let open = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody(#"{"name": "empty"}"#))
        #expect(open.json["verdict"] as? String == "empty" && open.json["passed"] as? Bool == false, "\(open.text)")
        let run = open.json["id"] as? String ?? ""
        let empty = try await client.execute(uri: "/api/v1/runs?verdict=empty", method: .get)
        #expect((empty.json["runs"] as? [[String: Any]])?.map { $0["id"] as? String } == [run], "\(empty.text)")
        let passed = try await client.execute(uri: "/api/v1/runs?verdict=passed", method: .get)
        #expect(passed.json["total"] as? Int == 0, "\(passed.text)")
        #expect(try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen())).status == .ok)
        let closed = try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post)
        #expect(closed.json["verdict"] as? String == "passed", "\(closed.text)")
        #expect(RunVerdict(try fixture.record(run)) == .passed)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a verdict's error and the 409 page name the server's folders by role, not by absolute path")
  func pathsByRole() async throws {
    try await withFixture { fixture in
      // A baseline that is not a PNG: the frame's verdict carries the decoder's error.
      try FileManager.default.createDirectory(atPath: fixture.baselines + "/a", withIntermediateDirectories: true)
      try Data("not a png".utf8).write(to: URL(fileURLWithPath: fixture.baselines + "/a/b.png"))
      try await fixture.test { client in
        let run = try await client.openRun()
        let verdict = try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen()))
        let error = verdict.json["error"] as? String ?? ""
        #expect(!error.isEmpty && !error.contains(fixture.root), "\(verdict.text)")
        #expect(error.contains("<baselines>/a/b.png"), "\(verdict.text)")
        #expect(
          try fixture.record(run).snapshots.first?.error?.contains(fixture.root) == true, "run.json keeps the path")

        // A run.json that cannot be read: the review page answers 409 without the path.
        try Data("{".utf8).write(to: URL(fileURLWithPath: fixture.runs + "/\(run)/run.json"))
        let page = try await client.execute(uri: "/runs/\(run)", method: .get)
        #expect(page.status == .conflict, "\(page.text)")
        #expect(
          page.text.contains("&lt;data&gt;/runs/\(run)/run.json") || page.text.contains("<data>/runs/\(run)/run.json"),
          "\(page.text)")
        #expect(!page.text.contains(fixture.root), "\(page.text)")
        let api = try await client.execute(uri: "/api/v1/runs/\(run)/snapshots/a%2Fb", method: .get)
        #expect(api.status == .conflict && !api.text.contains(fixture.root), "\(api.text)")
      }
    }
  }
}
