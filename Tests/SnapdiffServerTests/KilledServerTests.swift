import Foundation
import SnapdiffCore
import Testing

/// A verdict the service answered survives the server being killed: it is on disk (the run's
/// log, `SnapshotLog`) before the 200 is sent.
@Suite("a server killed with SIGKILL")
struct KilledServerTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("every frame answered 200 is in the run after kill -9: read open, then closed by the CLI's session")
  func answeredFramesSurvive() async throws {
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    try await withFixture { fixture in
      let screen = ServerFixture.screen()
      for index in 0..<10 { try fixture.writeBaseline("kill/\(index)", screen) }
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 0, y: 0, width: 3, height: 3)]))
      let same = ServerFixture.png(screen)
      let (run, answered) = try await offCooperativePool {
        let server = try ServeProcess(executable: executable, root: fixture.root, token: nil)
        let run = try ExpectContinueTests.openRun(port: server.port)
        var answered: [String: String] = [:]
        // Ten with baselines (every third changed), five new.
        for index in 0..<15 {
          let key = "kill/\(index)"
          let body = index < 10 && index % 3 != 0 ? same : changed
          let head =
            "PUT \(snapshotURI(run, key)) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: image/png\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
          let response = try RawHTTP.send(Array(head.utf8) + body, port: server.port)
          #expect(response.status == 200, "\(response.head)")
          let json = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
          answered[key] = json?["status"] as? String
        }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        return (run, answered)
      }
      #expect(answered.count == 15)
      let folder = RunFolder(path: fixture.runs + "/" + run)
      let open = try folder.load()
      #expect(open.closedAt == nil)
      #expect(Dictionary(uniqueKeysWithValues: open.snapshots.map { ($0.key, $0.status.rawValue) }) == answered)
      let closed = try RunSession.reopen(folder, storeRoot: fixture.store.root).close()
      #expect(closed.snapshots.count == 15)
      #expect(closed.counts == [.passed: 6, .failed: 4, .new: 5])
    }
  }
}
