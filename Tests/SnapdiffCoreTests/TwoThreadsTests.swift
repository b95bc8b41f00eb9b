// Pins the one two-thread runner of the engine (`TwoThreads`, a pthread in place of Dispatch):
// both halves run, at once, their results come back in order and an error from either half
// reaches the caller; and the two places that use it (a pair of files decoded, the rows of two
// large rasters compared) still answer as before.
import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("two threads")
struct TwoThreadsTests {
  struct HalfFailed: Error, Equatable {
    let half: String
  }

  /// Counts the halves that have started; each half waits (up to 10 s) until both have, so
  /// halves run one after the other would each see only their own start.
  final class Rendezvous: @unchecked Sendable {
    private let lock = Lock()
    private var started = 0

    func arriveAndWait() -> Bool {
      lock.withLock { started += 1 }
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline {
        if lock.withLock({ started == 2 }) { return true }
        usleep(100)
      }
      return false
    }
  }

  @Test("both halves run at once, the first on the calling thread, and both results come back")
  func bothHalvesRun() throws {
    let caller = pthread_self()
    let rendezvous = Rendezvous()
    let (first, second) = try TwoThreads.run(
      { () throws -> (Bool, Bool) in (rendezvous.arriveAndWait(), pthread_equal(pthread_self(), caller) != 0) },
      { () throws -> (Bool, Bool) in (rendezvous.arriveAndWait(), pthread_equal(pthread_self(), caller) != 0) })
    #expect(first.0 && second.0, "each half saw the other start")
    #expect(first.1, "the first half ran on the calling thread")
    #expect(!second.1, "the second half ran on a thread of its own")

    let values = try TwoThreads.run({ [1, 2, 3] }, { "second" })
    #expect(values.0 == [1, 2, 3] && values.1 == "second")

    let other = Rendezvous()
    nonisolated(unsafe) var met = (false, false)
    TwoThreads.run({ met.0 = other.arriveAndWait() }, { met.1 = other.arriveAndWait() })
    #expect(met.0 && met.1, "the non-throwing form runs both halves at once too")
  }

  @Test("an error from either half is thrown; the first half's when both fail")
  func errorsPropagate() {
    #expect(throws: HalfFailed(half: "first")) {
      try TwoThreads.run({ () throws -> Int in throw HalfFailed(half: "first") }, { 2 })
    }
    #expect(throws: HalfFailed(half: "second")) {
      try TwoThreads.run({ 1 }, { () throws -> Int in throw HalfFailed(half: "second") })
    }
    #expect(throws: HalfFailed(half: "first")) {
      try TwoThreads.run(
        { () throws -> Int in throw HalfFailed(half: "first") },
        { () throws -> Int in throw HalfFailed(half: "second") })
    }
  }

  /// A pair of files decodes on the two threads: the file that does not decode is the one named,
  /// the baseline when both do not, whether the files' sizes differ (each thread reads its own)
  /// or not (the baseline read first to compare the bytes).
  @Test("a comparison names the file that did not decode")
  func comparisonNamesTheBadFile() throws {
    try withTemporaryDirectory { folder in
      let good = BadInputTests.goodPNG
      let damaged = BadInputTests.damagedPNG
      let files = [
        "good": good, "damaged": damaged, "truncated": Array(good.prefix(good.count - 40)),
        "short": Array(good.prefix(good.count - 80)),
      ]
      for (name, bytes) in files {
        FileManager.default.createFile(atPath: "\(folder)/\(name).png", contents: Data(bytes))
      }
      func failingPath(_ baseline: String, _ current: String) -> String? {
        do {
          _ = try FileComparison().compare(baseline: "\(folder)/\(baseline).png", current: "\(folder)/\(current).png")
          return nil
        } catch let error as PNGError {
          return error.path
        } catch {
          return "not a PNGError: \(error)"
        }
      }
      // Sizes differ.
      #expect(failingPath("good", "truncated") == "\(folder)/truncated.png")
      #expect(failingPath("truncated", "good") == "\(folder)/truncated.png")
      #expect(failingPath("short", "truncated") == "\(folder)/short.png")
      // Same size, other bytes.
      #expect(failingPath("good", "damaged") == "\(folder)/damaged.png")
      #expect(failingPath("damaged", "good") == "\(folder)/damaged.png")
    }
  }

  /// Rasters of 1 MB and more have their rows compared on the two threads, the top half on one
  /// and the bottom half on the other: a difference in each half is found.
  @Test("rows of large rasters are compared in two halves, and both count")
  func largeRastersCountBothHalves() {
    let white = RGBAColor(red: 255, green: 255, blue: 255)
    let baseline = RGBAImage(width: 600, height: 500, filledWith: white)
    var current = baseline
    current[x: 0, y: 0] = RGBAColor(red: 0, green: 0, blue: 0)
    current[x: 599, y: 499] = RGBAColor(red: 0, green: 0, blue: 0)
    #expect(baseline.pixels.count >= 1 << 20)
    let result = PixelDiff().compare(baseline, current)
    #expect(result.differentPixels == 2)
    #expect(PixelDiff().compare(baseline, baseline).identical)
  }
}
