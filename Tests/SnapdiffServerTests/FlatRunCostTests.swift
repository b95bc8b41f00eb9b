import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

@testable import SnapdiffServer

/// A frame costs the same at the end of a long run as at its start: counted, not timed.
@Suite("a long service run")
struct FlatRunCostTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "2,000 frames: run.json is not written before close; the log and the index grow by the same amount per frame, first frames and last alike"
  )
  func noPerFrameGrowth() async throws {
    try await withFixture { fixture in
      let count = 2_000
      let screen = ServerFixture.screen()
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 1, y: 1, width: 2, height: 2)]))
      let same = ServerFixture.png(screen)
      // Keys of one length, every tenth frame changed: each block of frames writes the same bytes.
      let keys = (0..<count).map { String(format: "long/%05d", $0) }
      for key in keys { try fixture.writeBaseline(key, screen) }
      let service = try RunService(configuration: fixture.configuration())
      try service.index.synchronize()
      let app = Application(router: buildRouter(service))
      try await app.test(.router) { client in
        let run = try await client.openRun()
        let folder = RunFolder(path: fixture.runs + "/" + run)
        let opened = try Self.identity(folder.recordPath)
        // After each 100 frames: the log's size and the index's changed rows so far.
        var logSizes: [Int] = []
        var indexChanges: [Int] = []
        for (index, key) in keys.enumerated() {
          let response = try await client.putFrame(run, key, index % 10 == 0 ? changed : same)
          #expect(response.status == .ok, "\(key): \(response.text)")
          if (index + 1) % 100 == 0 {
            logSizes.append(try Self.size(folder.snapshotLog.path))
            indexChanges.append(try await (service.index as! SQLiteRunIndex).database.read { $0.totalChangesCount })
          }
        }
        #expect(try Self.identity(folder.recordPath) == opened, "run.json was written before the run closed")
        let logGrowth = zip(logSizes.dropFirst(), logSizes).map { $0 - $1 }
        let indexGrowth = zip(indexChanges.dropFirst(), indexChanges).map { $0 - $1 }
        #expect(Set(logGrowth).count == 1, "log bytes per 100 frames: \(logGrowth)")
        #expect(Set(indexGrowth) == [200], "index rows changed per 100 frames: \(indexGrowth)")

        // The open run reads whole (the review page, `status`), then closes with every verdict.
        #expect(try folder.load().snapshots.count == count)
        let indexed = try #require(try (service.index as! SQLiteRunIndex).run(run))
        #expect(indexed.passedCount == count - count / 10 && indexed.failedCount == count / 10)
        #expect(indexed.verdict == "failed")
        let close = try await client.execute(uri: "/api/v1/runs/\(run)/close", method: .post)
        #expect(close.status == .ok)
        let closed = try folder.loadStored()
        #expect(closed.snapshots.count == count && closed.closedAt != nil)
        #expect(closed.counts == [.passed: count - count / 10, .failed: count / 10])
      }
    }
  }

  static func identity(_ path: String) throws -> [String] {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return [
      "\(attributes[.systemFileNumber] ?? "")", "\(attributes[.size] ?? "")", "\(attributes[.modificationDate] ?? "")",
    ]
  }

  static func size(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
  }
}
