import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `git` run as a child process, for `--branch auto` (``AutoBranch``).
enum GitCommand {
  /// Runs `git ARGUMENTS…` in the working folder with `environment`: its standard output without
  /// the last newline, or nil when git exits non-zero or cannot be started (not installed).
  /// Its standard error is dropped: git's own messages would only repeat what the error that
  /// ``AutoBranch`` throws says.
  static func runner(environment: [String: String]) -> AutoBranch.GitRunner {
    { arguments in
      guard
        let process = try? ChildProcess.start(
          "git", arguments, environment: environment, searchPath: true, captureOutput: true, discardErrors: true)
      else { return nil }
      var lines: [String] = []
      while let line = process.readLine() { lines.append(line) }
      if let output = process.output { close(output) }
      guard process.wait() == 0 else { return nil }
      return lines.joined(separator: "\n")
    }
  }
}
