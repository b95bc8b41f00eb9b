import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #12, cheap inputs that froze every request: a 42 MB settings part took 48.7 s and
/// 750 MB before it was refused; three 20 MB element-tree parts silenced `/health` for 40 s.
/// Here the worst of them, and large frames and trees within the limits, go to a real
/// `snapdiff serve` at once while `/health` is asked every 50 ms on fresh connections.
/// A value handed to another thread that the test itself keeps from racing (the sending thread
/// only sends; the test's thread only receives).
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Results that threads add to under a lock.
final class LockedResults<Item>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Item] = []
  func append(_ item: Item) { lock.withLock { stored.append(item) } }
  var items: [Item] { lock.withLock { stored } }
  var count: Int { lock.withLock { stored.count } }
}

@Suite("heavy inputs against snapdiff serve", .serialized)
struct HeavyInputTests {
  /// A request sent over its own connection while its answer is read: a server that refuses a
  /// body early answers before the client has sent it all.
  static func send(_ head: String, body: [UInt8], port: Int) throws -> (status: Int, body: String, seconds: Double) {
    let start = Date()
    let connection = try SocketConnection(port: port, timeout: 60)
    defer { connection.close() }
    let sending = UncheckedBox(connection)
    let sender = Thread { try? sending.value.send(Array(head.utf8) + body) }
    sender.start()
    let response = try connection.readResponse(head.split(separator: "\r\n").first.map(String.init) ?? head)
    let status = response.head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, response.body, Date().timeIntervalSince(start))
  }

  static func multipart(_ name: String, _ body: [UInt8], boundary: String = "heavy-boundary") -> [UInt8] {
    Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8) + body
      + Array("\r\n--\(boundary)--\r\n".utf8)
  }

  static func put(_ path: String, _ body: [UInt8], contentType: String) -> String {
    "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
  }

  /// A noisy RGBA image (a linear congruential generator: the same every run).
  static func noise(width: Int, height: Int, seed: UInt32) -> RGBAImage {
    var state = seed
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: 4) {
        state = state &* 1_664_525 &+ 1_013_904_223
        buffer[index] = UInt8(truncatingIfNeeded: state >> 24)
        buffer[index + 1] = UInt8(truncatingIfNeeded: state >> 16)
        buffer[index + 2] = UInt8(truncatingIfNeeded: state >> 8)
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  /// A PNG whose header claims `width`×`height` RGBA, with one byte of image data: what a
  /// decompression bomb's header looks like.
  static func claimingPNG(width: UInt32, height: UInt32) -> [UInt8] {
    PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: Int(width), height: Int(height), colorType: 6))
      + PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBytes.chunk("IEND", [])
  }

  /// The server's peak resident memory (`VmHWM`), in MiB.
  static func peakMemory(pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return -1 }
    return kib / 1024
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "over-limit parts are refused while read, bombs from their header, frames and trees run on the workers; /health answers within 1 s throughout"
  )
  func healthStaysQuick() async throws {
    let snapdiff = try #require(SlowClientTests.snapdiff, "build snapdiff first")
    try await withFixture { fixture in
      let width = 800
      let height = 600
      try fixture.writeBaseline("big/frame", Self.noise(width: width, height: height, seed: 1))
      let changed = ServerFixture.png(Self.noise(width: width, height: height, seed: 2))
      let server = try await offCooperativePool {
        try ServeProcess(
          executable: snapdiff, root: fixture.root, token: nil, arguments: ["--max-decoded-mb", "256"])
      }
      defer { server.stop() }
      let port = server.port
      let open = try await offCooperativePool {
        try RawHTTP.send(
          "POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{\"name\": \"load\"}",
          port: port)
      }
      let run = try #require(
        open.body.firstMatch(of: #/"id":"([^"]+)"/#).map { String($0.1) }, "\(open.head)\n\(open.body)")
      let snapshots = "/api/v1/runs/\(run)/snapshots/"

      // A tree just under the 4 MiB limit: a small screen and an unknown array of numbers that
      // the parser must still read.
      let numbers = Array(repeating: "1234567,", count: (4 << 20) / 8 - 2_000).joined()
      let bigTree = Array(
        (#"{"scale": 1, "screen": {"width": 300, "height": 200}, "root": {"elementType": "application", "frame": {"x": 0, "y": 0, "width": 300, "height": 200}}, "padding": ["#
          + numbers + "0]}").utf8)
      #expect(bigTree.count < 4 << 20)
      let twentyMB = [UInt8](repeating: 0x20, count: 20 << 20)
      let settings42MB = Array("{\"threshold\": 0.1".utf8) + [UInt8](repeating: 0x20, count: 42 << 20) + Array("}".utf8)
      let boundary = "multipart/form-data; boundary=heavy-boundary"

      struct Job: Sendable {
        var name: String
        var head: String
        var body: [UInt8]
        var expected: Int
        var message: String
      }
      var jobs: [Job] = []
      for index in 0..<3 {
        let body = Self.multipart("tree", twentyMB)
        jobs.append(
          Job(
            name: "20 MB tree part \(index)", head: Self.put(snapshots + "t\(index)", body, contentType: boundary),
            body: body, expected: 413, message: "the 'tree' part is larger than its limit of 4 MiB"))
      }
      let settingsBody = Self.multipart("settings", settings42MB)
      jobs.append(
        Job(
          name: "42 MB settings part", head: Self.put(snapshots + "s", settingsBody, contentType: boundary),
          body: settingsBody, expected: 413, message: "the 'settings' part is larger than its limit of 1 MiB"))
      for index in 0..<2 {
        jobs.append(
          Job(
            name: "4 MiB tree \(index)",
            head: Self.put(snapshots + "tree\(index)", bigTree, contentType: "application/json"),
            body: bigTree, expected: 200, message: "\"key\""))
      }
      for index in 0..<2 {
        jobs.append(
          Job(
            name: "\(width)×\(height) frame \(index)",
            head: Self.put(snapshots + "big%2Fframe", changed, contentType: "image/png"),
            body: changed, expected: 200, message: "\"failed\""))
      }
      let bomb = Self.claimingPNG(width: 1, height: 200_000_000)
      jobs.append(
        Job(
          name: "1×200,000,000 PNG", head: Self.put(snapshots + "bomb", bomb, contentType: "image/png"),
          body: bomb, expected: 422, message: "more than the server's budget of 256 MiB"))
      let heavy = jobs

      let (results, health) = try await offCooperativePool { () -> ([(Job, Int, String, Double)], [Double]) in
        let results = LockedResults<(Job, Int, String, Double)>()
        for job in heavy {
          Thread.detachNewThread {
            let result =
              (try? Self.send(job.head, body: job.body, port: port)) ?? (status: 0, body: "no answer", seconds: 0)
            results.append((job, result.status, result.body, result.seconds))
          }
        }
        var health: [Double] = []
        while results.count < heavy.count {
          let start = Date()
          let answer = try? RawHTTP.send(
            "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
          health.append(answer?.status == 200 ? Date().timeIntervalSince(start) : .infinity)
          Thread.sleep(forTimeInterval: 0.05)
        }
        return (results.items, health)
      }
      for (job, status, body, seconds) in results.sorted(by: { $0.0.name < $1.0.name }) {
        #expect(status == job.expected && body.contains(job.message), "\(job.name): \(status) \(body)")
        print("heavy input: \(job.name): \(status) in \(Int(seconds * 1000)) ms")
      }
      let worst = health.max() ?? .infinity
      let sorted = health.sorted()
      let median = sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
      print(
        "heavy input: /health asked \(health.count) times: median \(Int(median * 1000)) ms, worst \(Int(worst * 1000)) ms; server peak RSS \(Self.peakMemory(pid: server.process.processIdentifier)) MiB"
      )
      #expect(health.count >= 3, "the heavy requests finished before /health was asked")
      #expect(worst < 1, "/health took \(worst) s while the heavy inputs ran")
      #expect(server.stop() == 0, "\(server.log())")
    }
  }
}
