import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Told how long the stages of each comparison took: what a caller that measures them (the
/// service's `/metrics`, `check --timings`) gives a `RunChecker` or a `RunSession`. Called on the
/// thread that did the work.
public protocol CheckObserver: Sendable {
  /// A frame or a baseline was decoded (or a tree rendered) in `nanoseconds`.
  func decoded(nanoseconds: UInt64)
  /// Two images were compared in `nanoseconds` (the verdict's comparison, not the diff image).
  func compared(nanoseconds: UInt64)
  /// Any stage took `nanoseconds` of wall time, `cpuNanoseconds` of its thread's CPU time. By
  /// default the decodes and comparisons go to the two methods above and the rest is dropped.
  func spent(_ stage: CheckStage, nanoseconds: UInt64, cpuNanoseconds: UInt64)
}

extension CheckObserver {
  public func spent(_ stage: CheckStage, nanoseconds: UInt64, cpuNanoseconds: UInt64) {
    switch stage {
    case .decode: decoded(nanoseconds: nanoseconds)
    case .compare: compared(nanoseconds: nanoseconds)
    default: break
    }
  }
}

/// The stages of a check a `CheckObserver` is told about, in the order `check --timings` lists them.
public enum CheckStage: String, CaseIterable, Sendable {
  /// Each snapshot's baseline located, its settings (settings files, config rules) resolved, and
  /// the element trees beside its files looked for.
  case locate = "locating baselines and settings"
  /// Frames and baselines read from their files.
  case read = "reading files"
  /// PNGs decoded (the baseline cache's reads and fills included) and trees rendered.
  case decode = "decoding"
  /// Two images compared (the verdict's comparison; trees and regions included).
  case compare = "comparing"
  /// What kind of difference a failure is (`DifferenceClassifier`).
  case classify = "classifying differences"
  /// The diff image of a changed frame, drawn and encoded.
  case diffImage = "diff images"
  /// Frames, baselines and diff images kept in the run (hashed, written to the blob store and
  /// synced, linked into the run folder), and baselines recorded.
  case keep = "keeping images"
  /// run.json written and synced, the file hashes saved, `last` pointed at the run.
  case runRecord = "run record"
  /// junit.xml and index.html.
  case reports = "JUnit and HTML report"
}

/// Runs `body`, telling `observer` how long it took as `stage` (nothing is measured without one).
func measured<T>(_ stage: CheckStage, by observer: (any CheckObserver)?, _ body: () throws -> T) rethrows -> T {
  guard let observer else { return try body() }
  let start = DispatchTime.now().uptimeNanoseconds
  let cpuStart = ThreadCPUTime.nanoseconds()
  defer {
    let elapsed = DispatchTime.now().uptimeNanoseconds &- start
    observer.spent(stage, nanoseconds: elapsed, cpuNanoseconds: ThreadCPUTime.nanoseconds() &- cpuStart)
  }
  return try body()
}

/// The CPU time the calling thread has used, and the whole process's.
enum ThreadCPUTime {
  static func nanoseconds() -> UInt64 { clockNanoseconds(CLOCK_THREAD_CPUTIME_ID) }
  static func processNanoseconds() -> UInt64 { clockNanoseconds(CLOCK_PROCESS_CPUTIME_ID) }

  private static func clockNanoseconds(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    guard clock_gettime(clock, &time) == 0 else { return 0 }
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
