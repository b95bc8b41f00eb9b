import Foundation
import SnapdiffCore
import Testing

/// `run.json` read while reviewers rewrite it: what one `update` writes is never lost to a
/// reader that happened to load the run at the same moment (`RunRecordCache` keeps what readers
/// decode; a record kept under a newer file's stamp than it was read from would be served to the
/// next `update`, which would write it back without the earlier change).
@Suite("a run's record under concurrent readers")
struct RunRecordConcurrencyTests {
  @Test("every update lands while other threads load the open run in a loop")
  func updatesSurviveConcurrentLoads() throws {
    try withTemporaryDirectory { folder in
      let store = try BaselineStore(root: folder + "/baselines")
      let session = try RunSession.open(runsDirectory: folder + "/runs", store: store)
      let png = try PNGEncoder().encode(
        RGBAImage(width: 2, height: 2, filledWith: RGBAColor(red: 9, green: 9, blue: 9)))
      let keys = (0..<60).map { "screen/\($0)" }
      for key in keys { try session.submit(key: key, png: png) }
      let run = session.folder

      let finished = LockedFlag()
      let readers = DispatchGroup()
      let readerErrors = LockedFlag()
      for _ in 0..<2 {
        DispatchQueue.global().async(group: readers) {
          while !finished.value {
            if (try? run.load()) == nil { readerErrors.set() }
          }
        }
      }
      for key in keys {
        try run.update { record in
          guard let index = record.snapshots.firstIndex(where: { $0.key == key }) else { return }
          record.snapshots[index].status = .approved
        }
      }
      finished.set()
      readers.wait()

      #expect(!readerErrors.value)
      let unapproved = try run.load().snapshots.filter { $0.status != .approved }.map(\.key)
      #expect(unapproved.isEmpty, "updates lost: \(unapproved)")
    }
  }
}

/// A flag threads set and read.
private final class LockedFlag: @unchecked Sendable {
  private var state = false
  private let lock = NSLock()

  var value: Bool { lock.withLock { state } }
  func set() { lock.withLock { state = true } }
}
