import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

@testable import SnapdiffServer

/// What a frame posted to the service reads from disk and waits for the disk to flush: counted
/// (`FileAccessCounter`), not timed, so that a second read of a baseline or an `fsync` more per
/// frame cannot come back unseen.
@Suite("files a posted frame reads and flushes")
struct FrameFileAccessTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "each frame reads its baseline once (a new frame none), never reads back its copy, an equal frame flushes only the log and resolves no path, a diff image is written once"
  )
  func baselineReadOnceAndOneFlushPerEqualFrame() async throws {
    try await withFixture { fixture in
      let screen = ServerFixture.screen()
      for key in ["files/equal", "files/changed"] { try fixture.writeBaseline(key, screen) }
      let same = ServerFixture.png(screen)
      let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 3, y: 3, width: 4, height: 2)]))
      let baselines = FileSystem.absolute(fixture.baselines)
      let data = FileSystem.absolute(fixture.data)
      try await fixture.test { client in
        let run = try await client.openRun()
        // Once before counting: the baseline becomes a blob (written and flushed once for all runs).
        #expect(try await client.putFrame(run, "files/equal", same).status == .ok)
        let runFolder = data + "/runs/" + run
        let incoming = runFolder + "/" + RunSession.incomingDirectory + "/"
        let log = runFolder + "/" + SnapshotLog.fileName
        let store = FileAccessCounter(below: baselines)
        let folders = FileAccessCounter(below: data)
        defer {
          store.stop()
          folders.stop()
        }
        for _ in 0..<2 {
          let response = try await client.putFrame(run, "files/equal", same)
          #expect(response.status == .ok && response.json["status"] as? String == "passed", "\(response.text)")
        }
        // Equal frames (most frames of most runs): the verdict is the one thing flushed.
        #expect(folders.syncs == [log: 2], "flushed for two equal frames: \(folders.syncs)")
        // No path is resolved from `/` (a failing `readlink` per folder on the way: about 45 a
        // frame, when each run folder, store and blob store resolved its root), and no folder
        // that is there is asked for again.
        #expect(
          folders.resolutions.isEmpty && store.resolutions.isEmpty,
          "resolved for two equal frames: \(folders.resolutions) \(store.resolutions)")
        #expect(folders.folderCreations.isEmpty, "folders asked for: \(folders.folderCreations)")
        let frames: [(key: String, png: [UInt8], status: String)] = [
          ("files/changed", changed, "failed"), ("files/new", changed, "new"), ("files/changed", changed, "failed"),
        ]
        for frame in frames {
          let response = try await client.putFrame(run, frame.key, frame.png)
          #expect(response.status == .ok && response.json["status"] as? String == frame.status, "\(response.text)")
        }
        #expect(
          store.reads == [baselines + "/files/equal.png": 2, baselines + "/files/changed.png": 2],
          "reads in the store, for two frames of each key with a baseline: \(store.reads)")
        #expect(store.syncs.isEmpty, "\(store.syncs)")
        // The run's copies of the frames are written from the request's bytes, not flushed (the
        // frame's blob is, when the run keeps it), and never read back.
        #expect(folders.syncs[log] == 5, "\(folders.syncs)")
        let copies =
          folders.syncs.keys.filter { $0.hasPrefix(incoming) } + folders.reads.keys.filter { $0.hasPrefix(incoming) }
        #expect(copies.isEmpty, "copies flushed or read back: \(copies)")
        // A failed frame's diff image is written and flushed once, as its blob: `diff/<key>.png`
        // is another name for that file (the blob, its link in `images/` and this one).
        let diffCopies = folders.syncs.keys.filter { $0.hasPrefix(runFolder + "/diff/") }
        #expect(diffCopies.isEmpty, "diff images written twice: \(diffCopies)")
        let diffFile = try FileManager.default.attributesOfItem(atPath: runFolder + "/diff/files/changed.png")
        #expect(diffFile[.referenceCount] as? Int == 3, "\(diffFile)")
        // A key in a new folder: that folder alone is made, not every folder on its way.
        let made = FileAccessCounter(below: runFolder)
        defer { made.stop() }
        #expect(try await client.putFrame(run, "files/deep/new", changed).status == .ok)
        #expect(
          made.folderCreations[incoming + "files/deep"] == 1 && made.folderCreations[incoming + "files"] == nil
            && made.folderCreations[runFolder + "/" + RunSession.incomingDirectory] == nil,
          "\(made.folderCreations)")
      }
    }
  }
}
