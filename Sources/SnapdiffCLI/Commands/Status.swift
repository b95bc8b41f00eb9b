import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff status [RUN]`: what a run found.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the failed, new and missing snapshots of the last run (or of RUN), or the flaky snapshots.",
      discussion: """
        Exit status: 0 when the run has nothing left to review, 1 otherwise, 2 on errors. \
        --flaky reads the newest runs instead (--runs N, default 50) and lists the snapshots whose \
        verdict flipped between runs on the same baseline and the same commit, with their flip \
        counts (exit status 0; 2 on errors).
        """
    )

    @Argument(help: ArgumentHelp("A run id (default: the last run).", valueName: "run"))
    var runID: String?

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    @Flag(help: "Print the run record (run.json) instead (with --flaky: the flaky snapshots as JSON).")
    var json = false

    @Flag(help: "List the flaky snapshots of the newest runs: verdicts that flipped on the same baseline and commit.")
    var flaky = false

    @Option(help: "With --flaky: how many of the newest runs to read.")
    var runs = 50

    func validate() throws {
      if flaky, runID != nil { throw ValidationError("--flaky reads the newest runs, not one run: drop RUN") }
      if runs < 2 { throw ValidationError("--runs must be 2 or more: a flip takes two runs") }
    }

    func run() throws {
      if flaky { return try listFlaky() }
      let (record, folder) = try reportingErrors {
        let folder = try RunFolder.open(in: project.project().runsDirectory, id: runID)
        return (try folder.load(), folder)
      }
      if json {
        print(String(decoding: try record.encoded(), as: UTF8.self), terminator: "")
      } else {
        print(RunSummary.lines(record, folder: folder, recordMode: record.recordMode).joined(separator: "\n"))
        print("Report: \(RunSummary.display(folder.path + "/index.html"))")
      }
      if !record.awaitingReview.isEmpty { throw ExitCode.failure }
    }

    /// `--flaky`: the flaky snapshots of the newest runs (`FlakySnapshots`).
    private func listFlaky() throws {
      try reportingErrors {
        let records = try FlakySnapshots.newestRuns(in: project.project().runsDirectory, limit: runs)
        let found = FlakySnapshots.find(in: records)
        if json {
          print(String(decoding: try JSONEncoderBox.encode(found), as: UTF8.self), terminator: "")
          return
        }
        let read = "\(records.count) run\(records.count == 1 ? "" : "s")"
        guard !found.isEmpty else {
          print("No flaky snapshot in the newest \(read): no verdict flipped on the same baseline and commit.")
          return
        }
        print(
          "\(found.count) flaky snapshot\(found.count == 1 ? "" : "s") in the newest \(read) (verdict flipped on the same baseline and commit):"
        )
        for finding in found {
          var line = "  FLAKY    \(finding.key)  \(finding.flips) flip\(finding.flips == 1 ? "" : "s")"
          line += " in \(finding.runs.count) runs (\(finding.passed) passed, \(finding.failed) failed)"
          line += "  baseline \(finding.baselineHash.prefix(12))"
          line += finding.commit.map { ", commit \($0.prefix(12))" } ?? ", commit unknown"
          if let environment = finding.environment { line += ", environment \(environment)" }
          line += "  runs \(finding.runs.first ?? "")…\(finding.runs.last ?? "")"
          print(line)
        }
      }
    }
  }
}
