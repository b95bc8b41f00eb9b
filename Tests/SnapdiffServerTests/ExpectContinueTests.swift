import Foundation
import SnapdiffCore
import Testing

/// `Expect: 100-continue` over a real socket to the built `snapdiff serve`: the server answers
/// `100 Continue` before the body is sent (curl asks for bodies over 1 MiB, and without an answer
/// waits a second), except when the declared length is over the upload limit, where the final
/// 413 comes instead and the body is never sent.
///
/// The server runs as a process and the clients on threads of their own, so that nothing here
/// waits on the cooperative pool that the other tests' in-process servers and blocking clients
/// share (two threads on a 2-core machine).
@Suite("Expect: 100-continue")
struct ExpectContinueTests {
  static let key = "Login - test_login/Login"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "100 Continue before the body, then the verdict on the same connection; none without Expect; 413 instead of 100 over the limit; pipelined in order"
  )
  func interimResponse() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      try fixture.writeBaseline(Self.key, ServerFixture.screen())
      let frame = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 5, height: 5)]))
      let (run, exchange) = try await offCooperativePool {
        let server = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--max-upload-mb", "1"])
        defer { server.stop() }
        let run = try Self.openRun(port: server.port)
        return (run, try Self.exchange(port: server.port, run: run, frame: frame))
      }
      #expect(exchange.interim.hasPrefix("HTTP/1.1 100 Continue"), "\(exchange.interim)")
      #expect(exchange.verdict.head.hasPrefix("HTTP/1.1 200"), "\(exchange.verdict.head)")
      #expect(exchange.verdict.body.contains(#""status":"failed""#), "\(exchange.verdict.body)")
      #expect(
        exchange.next.head.hasPrefix("HTTP/1.1 200") && exchange.next.body.contains("ok"), "\(exchange.next.head)")
      #expect(exchange.withoutExpect.hasPrefix("HTTP/1.1 200"), "\(exchange.withoutExpect)")
      #expect(exchange.overLimit.hasPrefix("HTTP/1.1 413"), "\(exchange.overLimit)")
      #expect(
        exchange.pipelined.map { String($0.prefix(12)) } == ["HTTP/1.1 200", "HTTP/1.1 100", "HTTP/1.1 200"],
        "\(exchange.pipelined)")
      #expect(try fixture.record(run).snapshots.map(\.status) == [.failed])
    }
  }

  /// What the server answered in ``exchange(port:run:frame:)``.
  struct Exchange: Sendable {
    /// The first answer to a head that expects 100-continue, before any body byte.
    var interim: String
    /// The final answer once the body is sent, and the answer to the next request on the same
    /// connection.
    var verdict: (head: String, body: String)
    var next: (head: String, body: String)
    /// The first answer to the same upload without `Expect`.
    var withoutExpect: String
    /// The first answer to a head that expects 100-continue and declares a body over the limit.
    var overLimit: String
    /// A whole upload and, pipelined behind it, a head that expects 100-continue: the first
    /// answers, in the order they came.
    var pipelined: [String]
  }

  /// The uploads of `frame` to `run` over raw sockets, with a server whose limit is 1 MiB.
  /// Blocking: run it off the cooperative pool.
  static func exchange(port: Int, run: String, frame: [UInt8]) throws -> Exchange {
    let head = "PUT \(snapshotURI(run, key)) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: image/png\r\n"
    // The head alone, then wait: the interim answer must come while the body is withheld.
    let connection = try SocketConnection(port: port)
    defer { connection.close() }
    try connection.send(head + "Content-Length: \(frame.count)\r\nExpect: 100-Continue\r\n\r\n")
    let interim = try connection.readHead("the interim response")
    try connection.send(frame)
    let verdict = try connection.readResponse("the verdict after 100 Continue")
    // The connection is still good for the next request.
    try connection.send("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    let next = try connection.readResponse("the next request's response")

    // Without Expect, no interim response: the first answer is the verdict.
    let plain = try SocketConnection(port: port)
    defer { plain.close() }
    try plain.send(Array((head + "Content-Length: \(frame.count)\r\n\r\n").utf8) + frame)
    let withoutExpect = try plain.readResponse("the verdict without Expect").head

    // Over the limit: no 100 Continue but the final 413, and the body is never sent.
    let tooLarge = try SocketConnection(port: port)
    defer { tooLarge.close() }
    try tooLarge.send(head + "Content-Length: \(2 << 20)\r\nExpect: 100-continue\r\n\r\n")
    let overLimit = try tooLarge.readHead("the 413 over the limit")

    // Pipelined: the second request's 100 Continue comes after the first request's response.
    let pipelining = try SocketConnection(port: port)
    defer { pipelining.close() }
    try pipelining.send(
      Array((head + "Content-Length: \(frame.count)\r\n\r\n").utf8) + frame
        + Array((head + "Content-Length: \(frame.count)\r\nExpect: 100-continue\r\n\r\n").utf8))
    var pipelined = [try pipelining.readResponse("the first pipelined response").head]
    pipelined.append(try pipelining.readHead("the second pipelined request's interim response"))
    try pipelining.send(frame)
    pipelined.append(try pipelining.readResponse("the second pipelined response").head)
    return Exchange(
      interim: interim, verdict: verdict, next: next, withoutExpect: withoutExpect, overLimit: overLimit,
      pipelined: pipelined)
  }

  static let curl = ExternalTool.path(["curl"])

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "curl uploads a 2 MiB frame without waiting for the expectation to time out",
    .enabled(if: curl != nil, "needs curl"), .timeLimit(.minutes(2)))
  func curlUpload() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      // Noise does not compress: a 1024×768 frame of it is a PNG of over 2 MiB.
      var generator = SystemRandomNumberGenerator()
      var pixels = [UInt8](repeating: 255, count: 1024 * 768 * 4)
      for pixel in stride(from: 0, to: pixels.count, by: 4) {
        let random = generator.next()
        pixels[pixel] = UInt8(truncatingIfNeeded: random)
        pixels[pixel + 1] = UInt8(truncatingIfNeeded: random >> 8)
        pixels[pixel + 2] = UInt8(truncatingIfNeeded: random >> 16)
      }
      let png = try PNGEncoder().encode(RGBAImage(width: 1024, height: 768, pixels: pixels))
      #expect(png.count > 2 << 20)
      let path = fixture.root + "/big.png"
      try Data(png).write(to: URL(fileURLWithPath: path))
      let (run, upload) = try await offCooperativePool {
        let server = try ServeProcess(
          executable: executable, root: fixture.root, token: nil, arguments: ["--max-upload-mb", "8"])
        defer { server.stop() }
        let run = try Self.openRun(port: server.port)
        // curl waits --expect100-timeout seconds for the answer (1 by default); 20 makes a
        // missing answer impossible to miss.
        let upload = try ExternalTool.run([
          "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-H", "Expect: 100-continue",
          "--expect100-timeout", "20", "-T", path, "http://127.0.0.1:\(server.port)\(snapshotURI(run, "big/frame"))",
        ])
        return (run, upload)
      }
      let fields = upload.standardOutput.split(separator: " ")
      #expect(upload.status == 0 && fields.first == "200", "curl: \(upload.standardOutput) \(upload.standardError)")
      let seconds = try #require(fields.last.flatMap { Double($0) }, "curl printed \(upload.standardOutput)")
      #expect(seconds < 10, "the upload took \(seconds) s: curl waited for 100 Continue")
      #expect(try fixture.record(run).snapshots.map(\.status) == [.new])
    }
  }

  /// Opens a run over a one-shot connection and returns its id. Blocking, like ``exchange(port:run:frame:)``.
  static func openRun(port: Int) throws -> String {
    let body = #"{"name": "expect"}"#
    let response = try RawHTTP.send(
      "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
      port: port)
    let json = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
    guard let id = json?["id"] as? String else {
      throw SocketConnection.Failure(description: "opening a run: \(response.head)\n\(response.body)")
    }
    return id
  }
}
