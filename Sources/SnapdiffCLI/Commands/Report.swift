import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff report [RUN]`: the reports again, from `run.json`.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Re-render a run's reports (junit.xml, index.html) from its run.json."
    )

    @Argument(help: ArgumentHelp("A run id (default: the last run).", valueName: "run"))
    var runID: String?

    @Option(help: ArgumentHelp("Also write reg-cli's reg.json here.", valueName: "path"))
    var regJSON: String?

    @Option(
      help: ArgumentHelp(
        "Export the report to this folder, a CI artifact that works wherever it is copied: run.json, junit.xml, index.html, thumbnails/ of every image, and images/ at full size for the snapshots that need review (failed, new, missing, rejected).",
        valueName: "dir"))
    var out: String?

    @Flag(help: "With --out: one self-contained index.html, its images inlined.")
    var singleFile = false

    @Flag(help: "With --out: every image at full size, passed and approved snapshots' too.")
    var allImages = false

    func validate() throws {
      if singleFile && out == nil { throw ValidationError("--single-file goes with --out DIR.") }
      if allImages && out == nil { throw ValidationError("--all-images goes with --out DIR.") }
    }

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func run() throws {
      try reportingErrors {
        let folder = try RunFolder.open(in: project.project().runsDirectory, id: runID)
        let record = try folder.load()
        if let out {
          let progress = ProgressLine(enabled: true)
          let written = try ReportExport.write(
            folder: folder, to: out, singleFile: singleFile, allImages: allImages,
            progress: { progress.report($0, $1, "thumbnails") })
          progress.finish()
          print(
            "Exported run \(record.id): \(written.files.count) files, \(written.bytes) bytes in \(RunSummary.display(FileSystem.absolute(out)))"
          )
          print("Report: \(RunSummary.display(FileSystem.absolute(out) + "/index.html"))")
          return
        }
        try RunReports.write(record, to: folder)
        if let regJSON { try RunReports.writeRegJSON(record, folder: folder, to: regJSON) }
        print("Report: \(RunSummary.display(folder.path + "/index.html"))")
      }
    }
  }
}
