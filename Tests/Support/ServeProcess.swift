import Foundation

/// A real `snapdiff serve` process (the `snapdiff-serve` executable) on a free loopback port, in
/// a folder of its own, for tests that talk to the service the way a test runner does.
public final class ServeProcess: @unchecked Sendable {
  /// `http://127.0.0.1:PORT`.
  public let url: String
  /// The folder it serves: `baselines/` and `.snapdiff/`.
  public let folder: String
  private let process: Process

  /// The `snapdiff-serve` to run: `SNAPDIFF_SERVE_BINARY`, else the package's debug or release
  /// build; nil when there is none (build it with `swift build --product snapdiff-serve`).
  public static var binary: String? {
    if let path = ProcessInfo.processInfo.environment["SNAPDIFF_SERVE_BINARY"], !path.isEmpty { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    return [".build/debug/snapdiff-serve", ".build/release/snapdiff-serve"].map { root + "/" + $0 }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts it with `arguments` (after `--port 0`) and waits for its `listening on` line.
  public init(binary: String, token: String, arguments: [String] = []) throws {
    folder = NSTemporaryDirectory() + "snapdiff-serve-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--port", "0"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    var environment = ProcessInfo.processInfo.environment
    environment["SNAPDIFF_TOKEN"] = token
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    let handle = output.fileHandleForReading
    while !text.contains("\n") {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let range = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) else {
      process.terminate()
      throw ServeProcessError(message: "snapdiff-serve did not say where it listens: \(text)")
    }
    url = String(text[range])
  }

  /// Stops the server and removes its folder.
  public func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  deinit { stop() }
}

public struct ServeProcessError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
