import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff prune`: baselines nothing uses any more.
  struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "List (or delete) baselines that no snapshot of the last complete run used, and blobs nothing refers to.",
      discussion: """
        Blobs (.snapdiff/blobs: the images runs compared, the baselines approvals replaced) stay \
        while a run's run.json, the approval log or a baseline file refers to them; --keep-runs N \
        first removes the run folders older than the N newest (never the last run, an open \
        service run, or a run in progress), which lets their images go.
        """
    )

    @Flag(help: "Delete them.")
    var delete = false

    @Option(help: ArgumentHelp("Keep the N newest runs and remove older run folders (with --delete).", valueName: "n"))
    var keepRuns: Int?

    @OptionGroup var runSelection: RunSelectionOptions

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func run() throws {
      try reportingErrors {
        let resolved = try project.project()
        LeftoverCleaning.run(store: resolved.store, runsDirectory: resolved.runsDirectory)
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let record = try folder.load()
        let store = try folder.store(at: resolved.store.root, for: record)
        let unused = try Pruning.unusedBaselines(in: store, by: record, folder: folder)
        if unused.isEmpty {
          print("every baseline was used by run \(record.id)")
        } else {
          print(
            "\(delete ? "deleted" : "unused") \(unused.count) baseline\(unused.count == 1 ? "" : "s") (run \(record.id)):"
          )
          // Each baseline's bytes as listed: one an approval replaced since stays.
          let listed = unused.map { location in (try? FileIO.read(location.path)).map(SHA256.hex) }
          for (location, hash) in zip(unused, listed) {
            if delete, try hash.map({ try store.remove(location, ifHash: $0) }) ?? nil == nil {
              print("  \(RunSummary.display(location.path))  (kept: replaced since it was listed)")
              continue
            }
            print("  \(RunSummary.display(location.path))")
          }
        }
        if let keepRuns {
          let old = try Pruning.runsBeyond(keepRuns, in: resolved.runsDirectory, delete: delete)
          let runs = old.isEmpty ? "no run folder" : "\(old.count) run folder\(old.count == 1 ? "" : "s")"
          print(
            "\(delete ? "removed" : "would remove") \(runs) older than the \(keepRuns) newest\(old.isEmpty ? "" : ": " + old.joined(separator: ", "))"
          )
        }
        try HistoryLines.warnAboutDamagedLines(
          in: ApprovalLog(dataDirectory: PathText.parent(of: resolved.runsDirectory)))
        let blobs = try BlobCollection.collect(
          blobs: .beside(runsDirectory: resolved.runsDirectory), runsDirectory: resolved.runsDirectory, store: store,
          delete: delete)
        let count = "\(blobs.hashes.count) blob\(blobs.hashes.count == 1 ? "" : "s")"
        print("\(delete ? "deleted" : "unreferenced") \(count) (\(blobs.bytes) bytes); \(blobs.kept) kept")
        for hash in blobs.repaired { print("  repaired damaged blob \(hash) from a good copy") }
        for hash in blobs.damaged {
          Console.warning(
            "blob \(hash) is damaged (not a regular file whose bytes hash to its name)"
              + (delete ? " and no good copy was found" : ": snapdiff prune --delete repairs it from a good copy"))
        }
        if !delete && (!unused.isEmpty || !blobs.hashes.isEmpty || !blobs.damaged.isEmpty || keepRuns != nil) {
          print("Delete them with: snapdiff prune --delete")
        }
      }
    }
  }
}
