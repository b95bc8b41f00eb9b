import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff prune`: baselines nothing uses any more.
  struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List (or delete) baselines that no snapshot of the last complete run used."
    )

    @Flag(help: "Delete them.")
    var delete = false

    @OptionGroup var runSelection: RunSelectionOptions

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func run() throws {
      try reportingErrors {
        let resolved = try project.project()
        LeftoverCleaning.run(store: resolved.store, runsDirectory: resolved.runsDirectory)
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let record = try folder.load()
        let store = try BaselineStore(root: folder.resolve(record.baselinesDirectory), environment: record.environment)
        let unused = try Pruning.unusedBaselines(in: store, by: record, folder: folder)
        if unused.isEmpty {
          print("every baseline was used by run \(record.id)")
          return
        }
        print("\(delete ? "deleted" : "unused") \(unused.count) baseline\(unused.count == 1 ? "" : "s") (run \(record.id)):")
        for location in unused {
          if delete { try store.remove(location) }
          print("  \(RunSummary.display(location.path))")
        }
        if !delete { print("Delete them with: snapdiff prune --delete") }
      }
    }
  }

  /// `snapdiff report [RUN]`: the reports again, from `run.json`.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Re-render a run's reports (junit.xml, index.html) from its run.json."
    )

    @Argument(help: ArgumentHelp("A run id (default: the last run).", valueName: "run"))
    var runID: String?

    @Option(help: ArgumentHelp("Also write reg-cli's reg.json here.", valueName: "path"))
    var regJSON: String?

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func run() throws {
      try reportingErrors {
        let folder = try RunFolder.open(in: project.project().runsDirectory, id: runID)
        let record = try folder.load()
        try RunReports.write(record, to: folder)
        if let regJSON { try RunReports.writeRegJSON(record, folder: folder, to: regJSON) }
        print("Report: \(RunSummary.display(folder.path + "/index.html"))")
      }
    }
  }
}
