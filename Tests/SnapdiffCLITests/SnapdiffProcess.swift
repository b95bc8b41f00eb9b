import Foundation

/// Runs the built `snapdiff` executable as a real process.
enum SnapdiffProcess {
  typealias Output = ProcessOutput

  /// The `snapdiff` built beside the running test bundle.
  static let executable = ExternalTool.buildFolder.appendingPathComponent("snapdiff").path

  /// This process's environment with `environment` added, without `CI`, `SNAPDIFF_RECORD` and
  /// `GITHUB_STEP_SUMMARY` (tests say what they want; on GitHub Actions every `check` would
  /// otherwise write to the job's summary and print annotations among the output tests read).
  static func environment(_ environment: [String: String]) -> [String: String] {
    var variables = ProcessInfo.processInfo.environment
    variables["CI"] = nil
    variables["SNAPDIFF_RECORD"] = nil
    variables["GITHUB_STEP_SUMMARY"] = nil
    return variables.merging(environment) { $1 }
  }

  /// Runs `snapdiff arguments…` in `directory` and waits for it.
  static func run(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
  ) throws -> Output {
    try ExternalTool.finish(start(arguments, in: directory, environment: environment))
  }

  /// Starts `snapdiff arguments…` without waiting; its output goes to pipes.
  static func start(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
  ) throws -> Process {
    try ExternalTool.start(executable, arguments, in: directory, environment: Self.environment(environment))
  }
}

enum CLIFixtures {
  /// The fixture folder of the core tests.
  static let directory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SnapdiffCoreTests/Fixtures").path

  static func path(_ relative: String) -> String { directory + "/" + relative }
}

extension SnapdiffProcess {
  /// What one run of `snapdiff` cost.
  struct Cost {
    var output: Output
    var seconds: Double
    /// The child's own peak resident memory.
    var peakBytes: Int
  }

  /// GNU time (Debian's `time` package), which measures its child's peak memory.
  static let timeTool = "/usr/bin/time"

  /// Runs `snapdiff arguments…` (in `directory`) under GNU time and returns its wall time and peak memory.
  ///
  /// Through a tool of its own because a process spawned straight from the test process (large)
  /// reports that process's peak as its own: Linux carries the old memory's high-water mark over
  /// `exec` into `ru_maxrss`. GNU time is small, so its child's figure is the child's.
  static func measured(_ arguments: [String], in directory: String? = nil) throws -> Cost {
    let report = temporaryPath("snapdiff-cost")
    defer { try? FileManager.default.removeItem(atPath: report) }
    let output = try ExternalTool.run(
      [timeTool, "-o", report, "-f", "%e %M", executable] + arguments, in: directory)
    // The last line: "SECONDS KILOBYTES" (before it, a note when the child failed).
    let line = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last ?? ""
    let fields = line.split(separator: " ")
    return Cost(
      output: output,
      seconds: fields.first.flatMap { Double($0) } ?? .infinity,
      peakBytes: (fields.dropFirst().first.flatMap { Int($0) } ?? Int.max / 2048) * 1024)
  }
}
