import Foundation

/// A real `snapdiff serve` process on a free loopback port, for tests that talk to the service
/// the way a test runner does. Out of the test process, it answers whatever the tests in this
/// process are doing with their threads. Two ways to start it:
///
/// - `init(binary:token:arguments:)`: the `snapdiff-serve` executable in a folder of its own
///   (removed by `stop()`), as the test API's tests use it, without the engine in the build.
/// - `init(executable:root:token:arguments:logName:)`: `snapdiff serve` (the CLI, which runs
///   `snapdiff-serve` in its place) over `root/baselines` and `root/.snapdiff`, a folder the test
///   owns; its standard error goes to `root/serve.log` (or `logName`, for two servers on one
///   root) for failure messages.
///
/// Starting it blocks until it listens: in async tests, do it through `offCooperativePool`.
/// `stop()` sends SIGTERM (SIGINT, Ctrl-C, is ignored by processes started in the background of a
/// non-interactive shell, as CI's may be).
public final class ServeProcess: @unchecked Sendable {
  /// `http://127.0.0.1:PORT`.
  public let url: String
  /// The port it listens on.
  public let port: Int
  /// The folder it serves: `baselines/` and `.snapdiff/`.
  public let folder: String
  public let process: Process
  /// Its standard error, when it goes to a file.
  private let logPath: String?
  /// Whether `stop()` removes `folder` (it made the folder itself).
  private let ownsFolder: Bool

  /// The `snapdiff-serve` to run: `SNAPDIFF_SERVE_BINARY`, else the package's debug or release
  /// build; nil when there is none (build it with `swift build --product snapdiff-serve`).
  public static var binary: String? {
    if let path = ProcessInfo.processInfo.environment["SNAPDIFF_SERVE_BINARY"], !path.isEmpty { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    return [".build/debug/snapdiff-serve", ".build/release/snapdiff-serve"].map { root + "/" + $0 }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts `snapdiff-serve` with `arguments` (after `--port 0`) in a new temporary folder and
  /// waits for its `listening on` line.
  public convenience init(binary: String, token: String, arguments: [String] = []) throws {
    try self.init(
      executable: binary, arguments: ["--port", "0"] + arguments, folder: try makeTemporaryDirectory("snapdiff-serve"),
      ownsFolder: true, token: token, logPath: nil)
  }

  /// Starts `snapdiff serve` (`executable` is the CLI) on 127.0.0.1 and a free port over
  /// `root/baselines` and `root/.snapdiff`, with the token given or none, and waits until it
  /// listens.
  public convenience init(
    executable: String, root: String, token: String?, arguments: [String] = [], logName: String = "serve.log"
  ) throws {
    let logPath = root + "/" + logName
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    try self.init(
      executable: executable,
      arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--baselines", "baselines", "--data", ".snapdiff"]
        + arguments,
      folder: root, ownsFolder: false, token: token, logPath: logPath)
  }

  private init(
    executable: String, arguments: [String], folder: String, ownsFolder: Bool, token: String?, logPath: String?
  ) throws {
    self.folder = folder
    self.ownsFolder = ownsFolder
    self.logPath = logPath
    let process = Process()
    self.process = process
    do {
      port = try Self.start(
        process, executable: executable, arguments: arguments, in: folder, token: token, logPath: logPath)
    } catch {
      if ownsFolder { try? FileManager.default.removeItem(atPath: folder) }
      throw error
    }
    url = "http://127.0.0.1:\(port)"
  }

  /// Runs `process` and returns the port of its `listening on` line.
  private static func start(
    _ process: Process, executable: String, arguments: [String], in folder: String, token: String?, logPath: String?
  ) throws -> Int {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    var environment = ProcessInfo.processInfo.environment
    environment["CI"] = nil
    environment["SNAPDIFF_TOKEN"] = token
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError =
      try logPath.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
    try process.run()
    // "snapdiff serve: listening on http://127.0.0.1:PORT/ (API: /api/v1)", flushed at start.
    let line = ExternalTool.readFirstLine(output.fileHandleForReading)
    guard let match = line.firstMatch(of: #/http://127\.0\.0\.1:(\d+)/#), let port = Int(match.1) else {
      process.terminate()
      process.waitUntilExit()
      throw ServeProcessError(message: "snapdiff serve did not start: \(line)\n\(read(logPath))")
    }
    return port
  }

  /// What it wrote on standard error so far (empty when that goes nowhere).
  public func log() -> String { Self.read(logPath) }

  private static func read(_ path: String?) -> String {
    guard let path else { return "" }
    return String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
  }

  /// Stops the server, removes its folder if it made it, and returns its exit status: 0 for a
  /// clean stop on SIGTERM. One that has not stopped after 20 s is killed (status 9), so a server
  /// that hangs on shutdown shows too.
  @discardableResult
  public func stop() -> Int32 {
    if process.isRunning {
      process.terminate()
      let deadline = Date().addingTimeInterval(20)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    if ownsFolder { try? FileManager.default.removeItem(atPath: folder) }
    return process.terminationStatus
  }

  deinit { stop() }
}

public struct ServeProcessError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }

  public init(message: String) { self.message = message }
}
