import Foundation
import SnapdiffCore
import Testing

/// Issue #29, items 1 and 5, against a real `snapdiff serve`: a tree of 5,000 unidentified
/// elements took 7.6 s and 855 MiB to compare, 8,000 took 2.3 GB, and under `ulimit -v` the
/// allocation failure ended the whole service. Now a 40,000-element tree (3 MB, within the 4 MiB
/// upload limit), every element moved, is compared with its baseline and answered, a tree past the depth limit is
/// refused with 422 while it arrives, and `/health` answers throughout.
@Suite("large and deep trees against snapdiff serve", .serialized)
struct LargeTreeServerTests {
  /// `count` unidentified `other` elements on a 10-point grid, moved by `shift` points, as JSON.
  static func grid(_ count: Int, shift: Int = 0) -> String {
    let children = (0..<count).map { index in
      #"{"elementType":"other","frame":{"x":\#(index % 39 * 10 + shift),"y":\#(index / 39 % 84 * 10 + shift),"width":8,"height":8}}"#
    }
    return
      #"{"scale":1,"screen":{"width":390,"height":844},"root":{"elementType":"application","frame":{"x":0,"y":0,"width":390,"height":844},"children":["#
      + children.joined(separator: ",") + "]}}"
  }

  /// A tree `levels` deep: `other`s one inside another.
  static func nested(_ levels: Int) -> String {
    let open = String(
      repeating: #"{"elementType":"other","frame":{"x":0,"y":0,"width":40,"height":30},"children":["#, count: levels - 1
    )
    return #"{"scale":1,"screen":{"width":40,"height":30},"root":"# + open
      + #"{"elementType":"other","frame":{"x":0,"y":0,"width":1,"height":1}}"#
      + String(repeating: "]}", count: levels - 1)
      + "}"
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "a 40,000-element tree is compared and answered, a 3,000-level tree refused with 422; /health answers within 1 s throughout"
  )
  func largeAndDeepTrees() async throws {
    let snapdiff = try #require(SlowClientTests.snapdiff, "build snapdiff first")
    try await withFixture { fixture in
      let baseline = try ElementTree.decode(Array(Self.grid(40_000).utf8), path: "grid.tree.json")
      try fixture.writeBaseline("grid", ElementRenderer().render(baseline), tree: baseline)
      let server = try await offCooperativePool {
        try ServeProcess(executable: snapdiff, root: fixture.root, token: nil, arguments: [])
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
      let moved = Array(Self.grid(40_000, shift: 2).utf8)
      #expect(moved.count < 4 << 20)
      let deep = Array(Self.nested(3_000).utf8)
      let jobs: [(name: String, head: String, body: [UInt8], expected: Int, message: String)] = [
        (
          "40,000 elements, all moved", HeavyInputTests.put(snapshots + "grid", moved, contentType: "application/json"),
          // The rendered pixels are the same (`other` draws nothing); the layout lists every move.
          moved, 200, "other moved 2 pt right and 2 pt down"
        ),
        (
          "3,000 levels", HeavyInputTests.put(snapshots + "deep", deep, contentType: "application/json"), deep, 422,
          "not a valid element tree: its JSON nests 6001 brackets deep, over the limit of 408 (200 levels of elements)"
        ),
      ]
      let (results, health) = try await offCooperativePool { () -> ([(String, Int, Int, String, String)], [Double]) in
        let results = LockedResults<(String, Int, Int, String, String)>()
        for job in jobs {
          Thread.detachNewThread {
            let answer =
              (try? HeavyInputTests.send(job.head, body: job.body, port: port)) ?? (
                status: 0, body: "no answer", seconds: 0
              )
            results.append((job.name, answer.status, job.expected, answer.body, job.message))
            print("large trees: \(job.name): \(answer.status) in \(Int(answer.seconds * 1000)) ms")
          }
        }
        var health: [Double] = []
        while results.count < jobs.count {
          let start = Date()
          let answer = try? RawHTTP.send(
            "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
          health.append(answer?.status == 200 ? Date().timeIntervalSince(start) : .infinity)
          Thread.sleep(forTimeInterval: 0.05)
        }
        return (results.items, health)
      }
      for (name, status, expected, body, message) in results {
        #expect(status == expected && body.contains(message), "\(name): \(status) \(body.prefix(2_000))")
        // A refusal names the problem; it does not echo the tree.
        if expected != 200 { #expect(body.utf8.count < 4_096, "\(name): a \(body.utf8.count)-byte answer") }
      }
      let worst = health.max() ?? .infinity
      let peak = HeavyInputTests.peakMemory(pid: server.process.processIdentifier)
      print(
        "large trees: /health asked \(health.count) times, worst \(Int(worst * 1000)) ms; server peak RSS \(peak) MiB")
      #expect(worst < 1, "/health took \(worst) s while the trees were compared")
      // Weighing every pair of the 40,000 elements took 12.7 GB and more; now about 150 MiB, and
      // about 1.1 GiB under AddressSanitizer (its shadow memory and redzones: scripts/sanitize.sh
      // sets ASAN_OPTIONS).
      let limit = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil ? 1_024 : 4_096
      #expect(peak < limit, "the server's peak RSS was \(peak) MiB")
      #expect(server.stop() == 0, "\(server.log())")
    }
  }
}
