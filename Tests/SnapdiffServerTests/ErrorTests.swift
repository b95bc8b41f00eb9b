import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

/// Bad requests get JSON errors with a fitting status, and leave nothing behind.
@Suite("errors")
struct ErrorTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("404: unknown run, snapshot, image or route")
  func notFound() async throws {
    try await withFixture { fixture in
      try fixture.writeBaseline("a/b", ServerFixture.screen())
      try await fixture.test { client in
        let run = try await client.openRun()
        _ = try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen()))
        let cases: [(String, HTTPRequest.Method)] = [
          ("/api/v1/runs/19990101-000000-000", .get),
          ("/api/v1/runs/19990101-000000-000/close", .post),
          (snapshotURI("19990101-000000-000", "a/b"), .get),
          (snapshotURI(run, "a/nope"), .get),
          (snapshotURI(run, "a/nope", "/baseline.png"), .get),
          (snapshotURI(run, "a/b", "/diff.png"), .get),  // passed: no diff image
          (snapshotURI(run, "a/nope", "/approve"), .post),
          ("/api/v1/nothing", .get),
          ("/api/v1/runs", .delete),
        ]
        for (uri, method) in cases {
          let response = try await client.execute(uri: uri, method: method)
          #expect(response.status == .notFound, "\(method) \(uri): \(response.text)")
          #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(uri)")
          #expect(!response.errorMessage.isEmpty, "\(uri)")
        }
        let putUnknown = try await client.putFrame(
          "19990101-000000-000", "a/b", ServerFixture.png(ServerFixture.screen()))
        #expect(putUnknown.status == .notFound)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("413: a body over --max-upload-mb is refused and nothing is stored")
  func tooLarge() async throws {
    try await withFixture { fixture in
      let png = ServerFixture.png(ServerFixture.screen([PixelRect(x: 0, y: 0, width: 5, height: 5)]))
      try await fixture.test(fixture.configuration(maxUploadBytes: png.count - 1)) { client in
        let run = try await client.openRun()
        let response = try await client.putFrame(run, "a/big", png)
        #expect(response.status == .contentTooLarge)
        #expect(response.errorMessage.contains("limit"))
        var form = Multipart()
        form.add("frame", png, filename: "big.png", contentType: "image/png")
        let multipart = try await client.execute(
          uri: snapshotURI(run, "a/big"), method: .put, headers: form.headers, body: form.body)
        #expect(multipart.status == .contentTooLarge)
        #expect(try fixture.record(run).snapshots.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.runs + "/\(run)/incoming/a/big.png"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: fixture.data + "/uploads"))?.isEmpty ?? true)
        // JSON bodies have their own limit, 1 MiB.
        let name = String(repeating: "x", count: 2 << 20)
        let json = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody("{\"name\": \"\(name)\"}"))
        #expect(json.status == .contentTooLarge)
        #expect(json.errorMessage == "the JSON body is larger than its limit of 1 MiB")
        // At the limit it is taken.
        let small = ServerFixture.png(ServerFixture.screen())
        #expect(small.count < png.count)
        #expect(try await client.putFrame(run, "a/small", small).status == .ok)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("422: not a PNG, a corrupt PNG, a key that leaves the store, a bad tree or bad settings")
  func unprocessable() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        let png = ServerFixture.png(ServerFixture.screen())
        let notPNG = try await client.putFrame(run, "a/text", Array("hello, world".utf8))
        #expect(notPNG.status == .unprocessableContent)
        #expect(notPNG.errorMessage.contains("not a PNG"))
        let truncated = try await client.putFrame(run, "a/truncated", Array(png.prefix(60)))
        #expect(truncated.status == .unprocessableContent)

        for key in ["..%2F..%2Fescape", "a%2F..%2F..%2Fescape", "%2Fabsolute", "a%5Cb", "a%00b", "a%2F%2Fb"] {
          let response = try await client.execute(
            uri: "/api/v1/runs/\(run)/snapshots/\(key)", method: .put, headers: pngHeaders, body: ByteBuffer(bytes: png)
          )
          #expect(response.status == .unprocessableContent, "\(key): \(response.text)")
        }
        let badEscape = try await client.execute(
          uri: "/api/v1/runs/\(run)/snapshots/a%zz", method: .put, headers: pngHeaders, body: ByteBuffer(bytes: png))
        #expect(badEscape.status == .badRequest)

        let badTree = try await client.execute(
          uri: snapshotURI(run, "a/tree"), method: .put, headers: jsonHeaders,
          body: jsonBody(
            #"{"screen": {"width": 10, "height": 10}, "root": {"elementType": "buton", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}}"#
          ))
        #expect(badTree.status == .unprocessableContent)
        #expect(badTree.errorMessage.contains("not a valid element tree"))

        var form = Multipart()
        form.add("frame", png, contentType: "image/png")
        form.add("settings", Array(#"{"threshold": 7}"#.utf8), contentType: "application/json")
        let badSettings = try await client.execute(
          uri: snapshotURI(run, "a/settings"), method: .put, headers: form.headers, body: form.body)
        #expect(badSettings.status == .unprocessableContent, "\(badSettings.text)")
        var selector = Multipart()
        selector.add("frame", png, contentType: "image/png")
        selector.add("settings", Array(#"{"ignoreElements": ["@nosuchtype"]}"#.utf8), contentType: "application/json")
        let badSelector = try await client.execute(
          uri: snapshotURI(run, "a/selector"), method: .put, headers: selector.headers, body: selector.body)
        #expect(badSelector.status == .unprocessableContent, "\(badSelector.text)")

        #expect(try fixture.record(run).snapshots.isEmpty)
        let incoming = fixture.runs + "/\(run)/incoming"
        #expect(try FileManager.default.subpathsOfDirectory(atPath: incoming).filter { $0.hasSuffix(".png") }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/escape.png"))
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("400 and 415: malformed multipart bodies, unknown parts, an empty body, a content type not taken")
  func malformed() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        let png = ServerFixture.png(ServerFixture.screen())
        let uri = snapshotURI(run, "a/form")
        func put(_ body: [UInt8], contentType: String) async throws -> TestResponse {
          try await client.execute(
            uri: uri, method: .put, headers: [.contentType: contentType], body: ByteBuffer(bytes: body))
        }
        let noBoundary = try await put(png, contentType: "multipart/form-data")
        #expect(noBoundary.status == .badRequest && noBoundary.errorMessage.contains("boundary"))
        let wrongBoundary = try await put(
          Array("--other\r\n\r\nx\r\n--other--".utf8), contentType: "multipart/form-data; boundary=b")
        #expect(wrongBoundary.status == .badRequest)
        let unclosed = try await put(
          Array("--b\r\nContent-Disposition: form-data; name=\"frame\"\r\n\r\n".utf8) + png,
          contentType: "multipart/form-data; boundary=b")
        #expect(unclosed.status == .badRequest && unclosed.errorMessage.contains("not closed"))
        let noName = try await put(
          Array("--b\r\nContent-Type: image/png\r\n\r\nx\r\n--b--\r\n".utf8),
          contentType: "multipart/form-data; boundary=b")
        #expect(noName.status == .badRequest)

        var unknown = Multipart()
        unknown.add("frame", png, contentType: "image/png")
        unknown.add("image", png, contentType: "image/png")
        let unknownPart = try await client.execute(uri: uri, method: .put, headers: unknown.headers, body: unknown.body)
        #expect(unknownPart.status == .badRequest && unknownPart.errorMessage.contains("unknown part 'image'"))
        var twice = Multipart()
        twice.add("frame", png, contentType: "image/png")
        twice.add("frame", png, contentType: "image/png")
        #expect(
          try await client.execute(uri: uri, method: .put, headers: twice.headers, body: twice.body).status
            == .badRequest)
        var settingsOnly = Multipart()
        settingsOnly.add("settings", Array("{}".utf8), contentType: "application/json")
        #expect(
          try await client.execute(uri: uri, method: .put, headers: settingsOnly.headers, body: settingsOnly.body)
            .status == .badRequest)

        let empty = try await client.execute(uri: uri, method: .put, headers: pngHeaders)
        #expect(empty.status == .badRequest)
        let form = try await put(png, contentType: "application/x-www-form-urlencoded")
        #expect(form.status == .unsupportedMediaType)
        #expect(try fixture.record(run).snapshots.isEmpty)

        // Quoted boundaries, a preamble and an epilogue are fine.
        var good = Multipart()
        good.add("frame", png, filename: #"a \"quoted\" name.png"#, contentType: "image/png")
        let body = Array("a preamble\r\n".utf8) + Array(buffer: good.body) + Array("an epilogue".utf8)
        let accepted = try await put(body, contentType: "multipart/form-data; boundary=\"\(good.boundary)\"")
        #expect(accepted.status == .ok, "\(accepted.text)")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("500: an unexpected failure names the server's folders by role, not by absolute path")
  func internalError() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        let run = try await client.openRun()
        // The run's incoming folder replaced by a file: the frame cannot be received.
        let incoming = fixture.runs + "/" + run + "/incoming"
        try FileManager.default.removeItem(atPath: incoming)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: incoming))
        let response = try await client.putFrame(run, "a/b", ServerFixture.png(ServerFixture.screen()))
        #expect(response.status == .internalServerError, "\(response.text)")
        #expect(response.errorMessage.contains("<data>/runs/\(run)/incoming"), "\(response.text)")
        #expect(!response.text.contains(fixture.root), "\(response.text)")
      }
    }
  }
}
