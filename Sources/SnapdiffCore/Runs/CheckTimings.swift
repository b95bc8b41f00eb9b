import Dispatch
import SnapdiffModel

/// Where a check's time went, stage by stage (`check --timings`, SNAPDIFF_TIMINGS=1): the wall
/// time of each stage summed over the threads that ran it, its CPU time, and its share of the
/// whole process's CPU time; what is in no stage (listing the frames, start-up, waiting for a
/// lock, the summary) is the rest.
///
/// ```swift
/// let timings = CheckTimings()
/// checker.observer = timings
/// _ = try checker.run()
/// print(timings.table(snapshots: 200, jobs: 2))
/// ```
public final class CheckTimings: CheckObserver, @unchecked Sendable {
  private struct Total {
    var count = 0
    var nanoseconds: UInt64 = 0
    var cpuNanoseconds: UInt64 = 0
  }

  private let lock = Lock()
  private var totals: [CheckStage: Total] = [:]
  private let start = DispatchTime.now().uptimeNanoseconds

  public init() {}

  public func decoded(nanoseconds: UInt64) {}
  public func compared(nanoseconds: UInt64) {}

  public func spent(_ stage: CheckStage, nanoseconds: UInt64, cpuNanoseconds: UInt64) {
    lock.withLock {
      totals[stage, default: Total()].count += 1
      totals[stage, default: Total()].nanoseconds += nanoseconds
      totals[stage, default: Total()].cpuNanoseconds += cpuNanoseconds
    }
  }

  /// The breakdown as a Markdown table, with the share of the process's CPU time spent outside
  /// decoding and comparing; wall time since this object was made, CPU time since the process
  /// started.
  public func table(snapshots: Int, jobs: Int) -> String {
    let wall = DispatchTime.now().uptimeNanoseconds &- start
    let processCPU = max(ThreadCPUTime.processNanoseconds(), 1)
    let totals = lock.withLock { self.totals }
    func seconds(_ nanoseconds: UInt64) -> String { Self.fixed(Double(nanoseconds) / 1e9, places: 3) + " s" }
    func share(_ nanoseconds: UInt64) -> String {
      Self.fixed(100 * Double(nanoseconds) / Double(processCPU), places: 1) + " %"
    }
    var lines = [
      "check --timings: \(snapshots) snapshots, \(jobs) job\(jobs == 1 ? "" : "s"); \(seconds(wall)) wall, "
        + "\(seconds(processCPU)) CPU (the whole process)",
      "",
      "| stage | times | wall, threads summed | CPU | share of CPU |",
      "|---|---:|---:|---:|---:|",
    ]
    var staged: UInt64 = 0
    for stage in CheckStage.allCases {
      let total = totals[stage] ?? Total()
      staged += total.cpuNanoseconds
      lines.append(
        "| \(stage.rawValue) | \(total.count) | \(seconds(total.nanoseconds)) | \(seconds(total.cpuNanoseconds)) | \(share(total.cpuNanoseconds)) |"
      )
    }
    let rest = processCPU > staged ? processCPU - staged : 0
    lines.append(
      "| elsewhere (start-up, listing frames, threads, locks, summary) | | | \(seconds(rest)) | \(share(rest)) |")
    let inner = (totals[.decode]?.cpuNanoseconds ?? 0) + (totals[.compare]?.cpuNanoseconds ?? 0)
    let outside = processCPU > inner ? processCPU - inner : 0
    lines.append("")
    lines.append("outside decoding and comparing: \(seconds(outside)) CPU, \(share(outside)) of the process's")
    return lines.joined(separator: "\n")
  }

  /// `value` with `places` decimals: `fixed(0.0456, places: 3)` → `"0.046"`.
  static func fixed(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = String(scaled / Int(scale))
    guard places > 0 else { return whole }
    let fraction = String(scaled % Int(scale))
    return whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
  }
}
