import Foundation
import SnapdiffCore
import Testing

/// One order for the locks a thread holds together (`FileLock.Rank`: blobs, a run, the store),
/// checked as they are taken: a lower rank asked for under a higher one is refused at once. And
/// every writer follows it: `check`, a service frame, `approve`, `approve --undo` and a close in
/// one test (each would be refused if it took them out of order).
@Suite("the order of the locks")
struct LockOrderTests {
  @Test("blobs, run, store in that order; re-entry; a lower rank under a higher one refused")
  func rankOrder() throws {
    try withTemporaryDirectory { folder in
      let (blobs, run, store) = (folder + "/blobs.lock", folder + "/run.lock", folder + "/store.lock")
      try FileLock.withLock(blobs, rank: .blobs, shared: true) {
        try FileLock.withLock(run, rank: .run) {
          try FileLock.withLock(store, rank: .store) {
            // Taken again inside: at once, whatever its rank.
            try FileLock.withLock(run, rank: .run) {}
            try FileLock.withLock(blobs, rank: .blobs, shared: true) {}
          }
        }
      }
      let refusal = #expect(throws: FileError.self) {
        try FileLock.withLock(store, rank: .store) { try FileLock.withLock(run, rank: .run) {} }
      }
      #expect(
        refusal?.description.contains("locks are taken blobs, run, store") == true, "\(String(describing: refusal))")
      #expect(throws: FileError.self) {
        try FileLock.withLock(run, rank: .run) { try FileLock.withLock(blobs, rank: .blobs, shared: true) {} }
      }
      // Refused before it waited: the lock is free for the next one.
      #expect(!FileLock.isHeld(run) && !FileLock.isHeld(blobs))
    }
  }

  @Test("check, a service frame, approve, undo, a skip and a close all take them in order")
  func everyWriterInOrder() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let white = RGBAImage(width: 4, height: 4, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
      var changed = white
      changed[x: 1, y: 1] = RGBAColor(red: 0, green: 0, blue: 0)
      try store.write(try PNGEncoder().encode(white), for: SnapshotKey("a/home"))
      try FileManager.default.createDirectory(atPath: folder + "/frames/a", withIntermediateDirectories: true)
      try PNGEncoder().write(changed, to: folder + "/frames/a/home.png")
      let checked = try RunChecker(
        currentDirectory: folder + "/frames", store: store, runsDirectory: folder + "/runs", recordMode: .never
      ).run()
      #expect(checked.record.snapshots.first?.status == .failed)
      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store)
      #expect(try session.submit(key: "a/home", png: PNGEncoder().encode(changed)).status == .failed)
      try session.skip(key: "a/other", reason: "not on this device")
      _ = try session.close()
      let review = try Review(folder: checked.folder, storeRoot: store.root)
      #expect(try review.approve(Review.Selection(patterns: ["a/home"])).count == 1)
      let history = BaselineHistory(store: store, runsDirectory: folder + "/runs")
      let undone = try history.undo(SnapshotKey("a/home"), user: "tests")
      #expect(undone.undoes != nil)
      #expect(try PNGDecoder().decode(contentsOf: folder + "/baselines/a/home.png") == white)
    }
  }
}
