import ArgumentParser
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Snapdiff {
  /// `snapdiff serve …` runs `snapdiff-serve …` in this process's place (`execv`): the server and
  /// its dependencies live in their own executable, so that `compare` and `check` start without
  /// loading them.
  struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Serve the API that remote test runners post frames to, and the review page.",
      discussion: """
        Runs the snapdiff-serve executable found beside snapdiff (or on PATH) with the same \
        arguments; `snapdiff serve --help` lists its options.
        """
    )

    @Argument(parsing: .allUnrecognized, help: "The server's options (see snapdiff serve --help).")
    var arguments: [String] = []

    func run() throws {
      try Self.runServer(arguments)
    }

    /// Replaces this process with `snapdiff-serve arguments…`; returns only by throwing.
    static func runServer(_ arguments: [String]) throws -> Never {
      let executable = try reportingErrors { try serverExecutable() }
      var cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
      execv(executable, &cArguments)
      let reason = String(cString: strerror(errno))
      Console.error("\(executable): cannot run: \(reason)")
      throw ExitCode(2)
    }

    static let serverName = "snapdiff-serve"

    /// `snapdiff-serve` beside this executable (as `swift build` and the release archive lay
    /// them out), else the first one on `PATH`.
    static func serverExecutable() throws -> String {
      var candidates: [String] = []
      if let own = ownExecutablePath(), let slash = own.lastIndex(of: "/") {
        candidates.append(String(own[...slash]) + serverName)
      }
      let path = ProcessEnvironment.variables["PATH"] ?? ""
      for folder in path.split(separator: ":") where !folder.isEmpty {
        candidates.append(folder + "/" + serverName)
      }
      if let found = candidates.first(where: { access($0, X_OK) == 0 && FileSystem.isFile($0) }) {
        return found
      }
      throw FileError(
        path: candidates.first ?? serverName,
        message:
          "not found: `snapdiff serve` runs the snapdiff-serve executable, looked for beside snapdiff and on PATH; build it with `swift build -c release --product snapdiff-serve` and keep it next to snapdiff"
      )
    }

    /// The path of the running executable, links resolved.
    static func ownExecutablePath() -> String? {
      #if os(Linux)
        return FileSystem.resolved("/proc/self/exe")
      #elseif canImport(Darwin)
        var size = UInt32(PATH_MAX)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return FileSystem.resolved(String(cString: buffer))
      #else
        return nil
      #endif
    }
  }
}
