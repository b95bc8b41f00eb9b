import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import SnapdiffServer
import Testing

@Suite("access: tokens, --private, loopback")
struct AccessTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("with a token: writes need it (401 without, 403 wrong), reads stay open")
  func writesNeedTheToken() async throws {
    try await withFixture { fixture in
      try await fixture.test(fixture.configuration(token: "s3cret")) { client in
        let none = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: jsonHeaders, body: jsonBody(#"{"name": "x"}"#))
        #expect(none.status == .unauthorized)
        #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"snapdiff\"")
        #expect(none.errorMessage.contains("Authorization: Bearer"))
        let wrong = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: bearer("nope", jsonHeaders), body: jsonBody(#"{"name": "x"}"#))
        #expect(wrong.status == .forbidden)
        let basic = try await client.execute(
          uri: "/api/v1/runs", method: .post,
          headers: [.authorization: "Basic czNjcmV0", .contentType: "application/json"],
          body: jsonBody(#"{"name": "x"}"#))
        #expect(basic.status == .unauthorized)
        let run = try await client.openRun(headers: bearer("s3cret"))
        #expect(!run.isEmpty)

        // Every write route refuses without the token, before doing anything.
        let png = ServerFixture.png(ServerFixture.screen())
        #expect(try await client.putFrame(run, "a/b", png).status == .unauthorized)
        for uri in [
          "/api/v1/runs/\(run)/close", "/api/v1/runs/\(run)/approve", snapshotURI(run, "a/b", "/approve"),
          snapshotURI(run, "a/b", "/reject"),
        ] {
          let response = try await client.execute(
            uri: uri, method: .post, headers: jsonHeaders, body: jsonBody(#"{"all": true}"#))
          #expect(response.status == .unauthorized, "\(uri)")
        }
        #expect(try fixture.record(run).snapshots.isEmpty && fixture.record(run).closedAt == nil)

        let put = try await client.putFrame(run, "a/b", png, headers: bearer("s3cret"))
        #expect(put.status == .ok)
        // Reads are open.
        for uri in [
          "/api/v1/runs", "/api/v1/runs/\(run)", snapshotURI(run, "a/b"), snapshotURI(run, "a/b", "/current.png"), "/",
          "/runs/\(run)",
        ] {
          let response = try await client.execute(uri: uri, method: .get)
          #expect(response.status == .ok, "\(uri)")
        }
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("--private: reads need the token too (header or the page's cookie); health stays open")
  func privateReads() async throws {
    try await withFixture { fixture in
      try await fixture.test(fixture.configuration(token: "s3cret", privateReads: true)) { client in
        #expect(try await client.execute(uri: "/api/v1/health", method: .get).status == .ok)
        let list = try await client.execute(uri: "/api/v1/runs", method: .get)
        #expect(list.status == .unauthorized)
        let wrong = try await client.execute(uri: "/api/v1/runs", method: .get, headers: bearer("nope"))
        #expect(wrong.status == .forbidden)
        #expect(try await client.execute(uri: "/api/v1/runs", method: .get, headers: bearer("s3cret")).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/version", method: .get).status == .unauthorized)

        let page = try await client.execute(uri: "/", method: .get)
        #expect(page.status == .unauthorized)
        #expect(page.text.contains("<input type=\"password\""))
        let withCookie = try await client.execute(uri: "/", method: .get, headers: [.cookie: "snapdiff_token=s3cret"])
        #expect(withCookie.status == .ok)
        // The cookie never authorises a write (a cross-site form would send it).
        let write = try await client.execute(
          uri: "/api/v1/runs", method: .post,
          headers: [.cookie: "snapdiff_token=s3cret", .contentType: "application/json"],
          body: jsonBody(#"{"name": "x"}"#))
        #expect(write.status == .unauthorized)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("without a token: writes need a loopback Host; cross-origin writes are refused")
  func noTokenWrites() async throws {
    try await withFixture { fixture in
      try await fixture.test { client in
        // The router test framework has no socket (a local client); its Host is localhost.
        let run = try await client.openRun()
        #expect(!run.isEmpty)
        var rebound = jsonHeaders
        rebound[.origin] = "http://evil.example"
        let crossSite = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: rebound, body: jsonBody(#"{"name": "x"}"#))
        #expect(crossSite.status == .forbidden)
        var sameSite = jsonHeaders
        sameSite[.origin] = "http://localhost"
        let fromPage = try await client.execute(
          uri: "/api/v1/runs", method: .post, headers: sameSite, body: jsonBody(#"{"name": "x"}"#))
        #expect(fromPage.status == .created)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a configuration that cannot be safe is refused before the server starts")
  func configurationChecks() async throws {
    try await withFixture { fixture in
      #expect(throws: ServerConfigurationError.self) { try fixture.configuration(host: "0.0.0.0").validate() }
      #expect(throws: ServerConfigurationError.self) { try fixture.configuration(host: "192.168.1.10").validate() }
      #expect(throws: ServerConfigurationError.self) { try fixture.configuration(privateReads: true).validate() }
      #expect(throws: ServerConfigurationError.self) { try fixture.configuration(token: "has space").validate() }
      try fixture.configuration(token: "s3cret", host: "0.0.0.0").validate()
      for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] {
        try fixture.configuration(host: host).validate()
      }
      await #expect(throws: ServerConfigurationError.self) {
        _ = try await buildApplication(fixture.configuration(host: "0.0.0.0"))
      }
    }
  }
}
