import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff status [RUN]`: what a run found.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the failed, new and missing snapshots of the last run (or of RUN).",
      discussion: "Exit status: 0 when the run has nothing left to review, 1 otherwise, 2 on errors."
    )

    @Argument(help: ArgumentHelp("A run id (default: the last run).", valueName: "run"))
    var runID: String?

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    @Flag(help: "Print the run record (run.json) instead.")
    var json = false

    func run() throws {
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
  }
}
