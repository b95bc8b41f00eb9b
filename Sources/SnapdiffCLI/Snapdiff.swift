import ArgumentParser

/// The `snapdiff` command: visual snapshot comparison for UI test suites.
public struct Snapdiff: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "snapdiff",
    abstract: "Compare UI screenshots against baselines, pixel by pixel.",
    discussion: """
      Exit status: 0 when the comparison passes, 1 when images differ beyond tolerance, \
      2 on bad input or an I/O error (the message names the file), 64 on a usage error.
      """,
    version: SnapdiffVersion.current,
    subcommands: [
      Compare.self, Check.self, Status.self, Approve.self, Reject.self, Prune.self, Report.self,
      Render.self,
    ]
  )

  public init() {}
}

enum SnapdiffVersion {
  static let current = "0.1.0"
}
