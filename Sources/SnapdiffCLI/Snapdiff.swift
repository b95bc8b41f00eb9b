import ArgumentParser
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `snapdiff` command: visual snapshot comparison for UI test suites.
///
/// Synchronous, `serve` included (it waits for its server): an async root makes the main thread
/// end in `dispatch_main`, whose `pthread_exit` unwinds the stack, and in a static executable
/// that sorts every unwind entry of the binary first (60 ms at each start with the server linked).
public struct Snapdiff: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "snapdiff",
    abstract: "Compare UI screenshots against baselines, pixel by pixel.",
    discussion: """
      Exit status: 0 when the comparison passes, 1 when images differ beyond tolerance, \
      2 on bad input or an I/O error (the message names the file), 64 on a usage error.
      """,
    version: SnapdiffVersion.described,
    subcommands: [
      Compare.self, Check.self, Merge.self, Status.self, Approve.self, Reject.self, Noise.self, History.self,
      Branch.self,
      Prune.self,
      Report.self, Render.self, Calibrate.self, Serve.self, Test.self,
    ]
  )

  public init() {}

  /// Runs the command line: `snapdiff serve …` goes to `snapdiff-serve` whole, `--help`
  /// included (the server's options are its own); everything else is parsed here.
  public static func launch(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
    if arguments.first == "serve" {
      do {
        try Serve.runServer(Array(arguments.dropFirst()))
      } catch {
        exit(withError: error)
      }
    }
    if arguments.first == CommandGuard.argument { CommandGuard.run(Array(arguments.dropFirst())) }
    // Freed rasters are reused for the next image instead of coming back from the kernel as
    // fresh, zeroed pages. `snapdiff serve`, which lives long, runs another executable above
    // and keeps the allocator's defaults.
    ProcessMemory.keepFreedImages()
    // `compare A B` (with `--diff D` or not) is most runs: it skips argument-parser, whose
    // reflection over the command's options costs about 2 ms at each start. Anything else,
    // `--help` and every error included, is parsed.
    if let pair = ComparePair.plainForm(arguments) {
      exiting { try pair.run() }
    }
    exiting {
      var command = try parseAsRoot(arguments)
      try command.run()
    }
  }

  /// Runs `body` and exits as argument-parser's `main` does (status 0, or the error's status and
  /// message), except that an `ExitCode` ends the process at once: `exit(withError:)` prints
  /// nothing for one, but builds the command's help by reflection first to find that out (about
  /// 1 ms, 4 % of a failing `compare` of two FHD screenshots).
  private static func exiting(_ body: () throws -> Void) -> Never {
    do {
      try body()
    } catch let code as ExitCode {
      terminate(code.rawValue)
    } catch {
      exit(withError: error)
    }
    terminate(0)
  }

  /// The C library's `exit` (standard output flushed), which `exit(withError:)` hides here.
  private static func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(status)
    #elseif canImport(Darwin)
      Darwin.exit(status)
    #endif
  }
}

package enum SnapdiffVersion {
  package static let current = "0.1.0"
  /// `snapdiff --version`: the version, then what the PNG fast path inflates with.
  package static var described: String {
    "\(current)\nPNG image data inflated with \(PNGDecoder.inflater)\nbaselines written with \(PNGEncoder.compactWriter)"
  }
}
