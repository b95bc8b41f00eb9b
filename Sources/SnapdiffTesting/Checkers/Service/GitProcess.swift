import Foundation
import SnapdiffModel

/// `git` for `branch: "auto"` in the test process, through Foundation's `Process` where there is
/// one (macOS, Linux); nil in an iOS simulator or on a device, where only the CI's variables
/// name the branch.
enum GitProcess {
  static var runner: AutoBranch.GitRunner? {
    #if os(macOS) || os(Linux)
      return run
    #else
      return nil
    #endif
  }

  #if os(macOS) || os(Linux)
    /// `git arguments…` in the working folder: its standard output without the last newline, or
    /// nil when it fails or cannot be started.
    static func run(_ arguments: [String]) -> String? {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["git"] + arguments
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { return nil }
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { return nil }
      var text = String(decoding: data, as: UTF8.self)
      if text.hasSuffix("\n") { text.removeLast() }
      return text
    }
  #endif
}
