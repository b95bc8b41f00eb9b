import Foundation

/// Runs the built `snapdiff` executable as a real process.
struct SnapdiffProcess {
  struct Output {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// The `snapdiff` built beside the running test bundle.
  static let executable: String = {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = testBinary.deletingLastPathComponent()
    // On macOS the bundle is a folder: Contents/MacOS/<binary> inside <name>.xctest.
    while folder.pathExtension == "xctest" || folder.lastPathComponent == "MacOS"
      || folder.lastPathComponent == "Contents"
    {
      folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("snapdiff").path
  }()

  /// Runs `snapdiff arguments…` in `directory` and waits for it.
  /// `environment` is added to this process's, without `CI` and `SNAPDIFF_RECORD` (tests say
  /// what they want).
  static func run(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
  ) throws -> Output {
    let process = try start(arguments, in: directory, environment: environment)
    let out = process.standardOutput as! Pipe
    let err = process.standardError as! Pipe
    // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus,
      standardOutput: String(decoding: outData, as: UTF8.self),
      standardError: String(decoding: errData, as: UTF8.self))
  }

  /// Starts `snapdiff arguments…` without waiting; its output goes to pipes.
  static func start(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment
    variables["CI"] = nil
    variables["SNAPDIFF_RECORD"] = nil
    variables.merge(environment) { $1 }
    process.environment = variables
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    return process
  }
}

enum CLIFixtures {
  /// The fixture folder of the core tests.
  static let directory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SnapdiffCoreTests/Fixtures").path

  static func path(_ relative: String) -> String { directory + "/" + relative }
}

func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("snapdiff-cli-tests-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

extension SnapdiffProcess.Output {
  /// Standard output parsed as one JSON object.
  func json() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as! [String: Any]
  }
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
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("snapdiff-cost-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: timeTool)
    process.arguments = ["-o", report, "-f", "%e %M", executable] + arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // The last line: "SECONDS KILOBYTES" (before it, a note when the child failed).
    let line = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last ?? ""
    let fields = line.split(separator: " ")
    return Cost(
      output: Output(
        status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
        standardError: String(decoding: errData, as: UTF8.self)),
      seconds: fields.first.flatMap { Double($0) } ?? .infinity,
      peakBytes: (fields.dropFirst().first.flatMap { Int($0) } ?? Int.max / 2048) * 1024)
  }
}
