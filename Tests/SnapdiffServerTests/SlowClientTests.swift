import Foundation
import SnapdiffCore
import Testing

/// Issue #12, slow clients: 600 half-sent requests stayed open for a minute, and 400 half-sent
/// heads under `ulimit -n 256` kept `/health` from answering. Against a real `snapdiff serve`
/// process (as deployed: its own threads, its flags), over raw sockets.
@Suite("slow clients against snapdiff serve", .serialized)
struct SlowClientTests {
  /// The `snapdiff` the server tests run: `SNAPDIFF_TEST_SNAPDIFF` (a release build, for the
  /// README's figures), else the one built beside the tests.
  static var snapdiff: String? {
    ProcessInfo.processInfo.environment["SNAPDIFF_TEST_SNAPDIFF"] ?? ExternalTool.snapdiff
  }

  /// Times `work`, in seconds.
  static func timed<T>(_ work: () throws -> T) rethrows -> (T, Double) {
    let start = Date()
    let result = try work()
    return (result, Date().timeIntervalSince(start))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "150 half-sent heads over a cap of 40: /health answers at once, every slow connection is closed, heads with 408")
  func halfSentHeads() async throws {
    let snapdiff = try #require(Self.snapdiff, "build snapdiff first")
    try await withFixture { fixture in
      let server = try await offCooperativePool {
        try ServeProcess(
          executable: snapdiff, root: fixture.root, token: nil,
          arguments: ["--max-connections", "40", "--header-timeout", "1", "--idle-timeout", "2"])
      }
      defer { server.stop() }
      let port = server.port
      let report = try await offCooperativePool {
        () throws -> (health: Double, closed: Int, timedOut: Int, total: Int) in
        var slow: [SocketConnection] = []
        defer { for connection in slow { connection.close() } }
        for index in 0..<150 {
          let connection = try SocketConnection(port: port, timeout: 6)
          try connection.send("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-\(index): a")
          slow.append(connection)
        }
        // A real client meanwhile: over the cap, it takes the place of the longest-waiting head.
        let (health, seconds) = try Self.timed {
          try RawHTTP.send("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
        }
        #expect(health.status == 200, "\(health.head)")
        // Every slow connection is closed by the server: made room for (at once) or timed out
        // with 408 after a second; none waits for the socket's 6 s.
        var closed = 0
        var timedOut = 0
        for connection in slow {
          let (wasClosed, received) = connection.waitForClose()
          if wasClosed { closed += 1 }
          if String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 408") { timedOut += 1 }
        }
        return (seconds, closed, timedOut, slow.count)
      }
      #expect(report.health < 1, "/health took \(report.health) s beside 150 slow clients")
      #expect(report.closed == report.total, "\(report.total - report.closed) slow connections still open after 6 s")
      #expect(report.timedOut >= 1 && report.timedOut <= 40, "\(report.timedOut) answered 408")
      print(
        "slow clients: /health in \(Int(report.health * 1000)) ms; \(report.closed) of \(report.total) closed, \(report.timedOut) with 408"
      )
      #expect(server.stop() == 0, "\(server.log())")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a body shorter than its Content-Length and an idle keep-alive connection are closed at the idle timeout")
  func idleConnections() async throws {
    let snapdiff = try #require(Self.snapdiff, "build snapdiff first")
    try await withFixture { fixture in
      let server = try await offCooperativePool {
        try ServeProcess(
          executable: snapdiff, root: fixture.root, token: nil,
          arguments: ["--header-timeout", "1", "--idle-timeout", "2"])
      }
      defer { server.stop() }
      let port = server.port
      try await offCooperativePool {
        // 10 bytes of a declared 100: the server waits for the rest no longer than 2 s.
        let short = try SocketConnection(port: port, timeout: 8)
        defer { short.close() }
        try short.send(
          "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\": "
        )
        let (shortClosed, shortSeconds) = Self.timed { short.waitForClose().closed }
        #expect(shortClosed && shortSeconds > 1.5 && shortSeconds < 5, "closed: \(shortClosed) after \(shortSeconds) s")

        // A keep-alive connection after its answer: closed 2 s later; the answer itself is whole.
        let idle = try SocketConnection(port: port, timeout: 8)
        defer { idle.close() }
        try idle.send("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = try idle.readResponse("health")
        #expect(answer.head.hasPrefix("HTTP/1.1 200"), "\(answer.head)")
        let (idleClosed, idleSeconds) = Self.timed { idle.waitForClose().closed }
        #expect(idleClosed && idleSeconds > 1.5 && idleSeconds < 5, "closed: \(idleClosed) after \(idleSeconds) s")

        // A head trickled a byte at a time is cut off at the header timeout, though bytes keep coming.
        let trickle = try SocketConnection(port: port, timeout: 8)
        defer { trickle.close() }
        let start = Date()
        // A byte every 100 ms until the server answers (sending on after it closed would reset
        // the connection and lose the answer).
        for byte in Array("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".utf8)
          + Array(repeating: 120, count: 40)
        {
          try trickle.send([byte])
          if trickle.isReadable(within: 100) { break }
        }
        let seconds = Date().timeIntervalSince(start)
        let (trickleClosed, received) = trickle.waitForClose()
        #expect(
          trickleClosed && String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 408"),
          "\(received.count) bytes")
        #expect(seconds < 4, "the trickled head was cut off after \(seconds) s")
      }
      #expect(server.stop() == 0, "\(server.log())")
    }
  }

  @Test("snapdiff serve --help lists the connection limits with their defaults")
  func help() throws {
    let snapdiff = try #require(Self.snapdiff, "build snapdiff first")
    let output = try ExternalTool.run([snapdiff, "serve", "--help"])
    for option in ["--max-connections", "--header-timeout", "--idle-timeout", "--workers", "--max-decoded-mb"] {
      #expect(output.standardOutput.contains(option), "\(option) missing from:\n\(output.standardOutput)")
    }
    #expect(
      output.standardOutput.contains("(default: 10.0)") && output.standardOutput.contains("(default: 60.0)"),
      "\(output.standardOutput)")
  }
}
