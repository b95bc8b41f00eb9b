import Foundation

/// What a program run to its end left: its exit status and what it printed.
public struct ProcessOutput: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String

  public init(status: Int32, standardOutput: String, standardError: String) {
    self.status = status
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Standard output parsed as one JSON object.
  public func json() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as! [String: Any]
  }
}

/// Programs the tests run as processes: found on `PATH`, or built by the package beside the tests
/// (`swift build --build-tests` and `swift test` build every product).
public enum ExternalTool {
  /// The folder the running test bundle was built into, where the package's executables are.
  public static let buildFolder: URL = {
    var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    // On macOS the bundle is a folder: Contents/MacOS/<binary> inside <name>.xctest.
    while folder.pathExtension == "xctest" || folder.lastPathComponent == "MacOS"
      || folder.lastPathComponent == "Contents"
    {
      folder.deleteLastPathComponent()
    }
    return folder
  }()

  /// The package's executable `name` built beside the tests, if it is there.
  public static func built(_ name: String) -> String? {
    let path = buildFolder.appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// The `snapdiff` built beside the tests.
  public static let snapdiff: String? = built("snapdiff")

  /// The first of `names` found as an executable file in `PATH`.
  public static func path(_ names: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in names {
      for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
        return "\(folder)/\(name)"
      }
    }
    return nil
  }

  /// A Chromium or Chrome on `PATH`, for the tests that open pages headless.
  public static let chromium = path(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])

  /// chromedriver on `PATH` (Debian: chromium-driver).
  public static let chromedriver = path(["chromedriver"])

  /// Runs `arguments` (the first is looked up in `PATH` unless it is a path) and waits for it,
  /// feeding `input` on standard input (none: the null device).
  public static func run(
    _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
    input: String? = nil
  ) throws -> ProcessOutput {
    let stdin = Pipe()
    let process = try start(
      "/usr/bin/env", arguments, in: directory, environment: environment,
      standardInput: input == nil ? FileHandle.nullDevice : stdin)
    if let input {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
    return finish(process)
  }

  /// Starts `executable arguments…` without waiting, its output to pipes (`finish` reads them).
  /// `environment`: the whole environment (nil: this process's).
  public static func start(
    _ executable: String, _ arguments: [String], in directory: String? = nil,
    environment: [String: String]? = nil, standardInput: Any? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let standardInput { process.standardInput = standardInput }
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    return process
  }

  /// Reads a started process's output pipes to their ends and waits for it. Standard error is
  /// read on another thread, so that neither pipe can fill and block the child.
  public static func finish(_ process: Process) -> ProcessOutput {
    let errors = PipeReader((process.standardError as! Pipe).fileHandleForReading)
    let output = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(
      status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: errors.wait(), as: UTF8.self))
  }

  /// Reads `handle` up to and including the first newline (or its end): the line a server
  /// prints when it listens.
  public static func readFirstLine(_ handle: FileHandle) -> String {
    var first = Data()
    while !first.contains(UInt8(ascii: "\n")) {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      first += chunk
    }
    return String(decoding: first, as: UTF8.self)
  }
}

/// Reads a pipe to its end on a thread of its own.
public final class PipeReader: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  public init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  /// Everything read, once the pipe has closed.
  public func wait() -> Data {
    done.wait()
    return data
  }
}

/// Runs blocking work (a child process, a socket read) on a thread of its own and waits for it
/// without holding one of the few threads Swift concurrency has (two on a 2-core machine): an
/// in-process server of the same test needs those threads to answer.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
  }
}
