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
        service run, or a run in progress), which lets their images go. --stale-variants N lists (with --delete, deletes) the \
        accepted variants (approve KEY --variant NAME) that no run matched in the last N runs \
        that checked their snapshot, read from the run folders' run.json (a run on a branch: \
        its overlay's variants).
        """
    )

    @Flag(help: "Delete them.")
    var delete = false

    @Option(help: ArgumentHelp("Keep the N newest runs and remove older run folders (with --delete).", valueName: "n"))
    var keepRuns: Int?

    @Option(
      help: ArgumentHelp(
        "Variants no run matched in the last N runs that checked their snapshot (with --delete, deleted).",
        valueName: "n"))
    var staleVariants: Int?

    @OptionGroup var runSelection: RunSelectionOptions

    func validate() throws {
      if let staleVariants, staleVariants < 1 {
        throw ValidationError("--stale-variants takes a number of runs, 1 or more")
      }
    }

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
          let listed = unused.map { location in (try? store.bytes(at: location)).map(SHA256.hex) }
          for (location, hash) in zip(unused, listed) {
            if delete, try hash.map({ try store.remove(location, ifHash: $0) }) ?? nil == nil {
              print("  \(RunSummary.display(location.path))  (kept: replaced since it was listed)")
              continue
            }
            print("  \(RunSummary.display(location.path))")
          }
        }
        if let staleVariants {
          var variantStore = store
          variantStore.overlays = record.overlays ?? []
          try Self.pruneVariants(
            in: variantStore, runsDirectory: resolved.runsDirectory, unmatchedFor: staleVariants, delete: delete)
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
        if !delete
          && (staleVariants != nil || !unused.isEmpty || !blobs.hashes.isEmpty || !blobs.damaged.isEmpty
            || keepRuns != nil)
        {
          print("Delete them with: snapdiff prune --delete")
        }
      }
    }

    /// `--stale-variants N`: the variants no run matched in the last N runs that checked their
    /// snapshot, deleted with `--delete` (only as listed: one approved again since stays).
    static func pruneVariants(in store: BaselineStore, runsDirectory: String, unmatchedFor runs: Int, delete: Bool)
      throws
    {
      let stale = try Pruning.staleVariants(in: store, runsDirectory: runsDirectory, unmatchedFor: runs)
      let inRuns = "\(runs) run\(runs == 1 ? "" : "s")"
      guard !stale.isEmpty else {
        print("every variant was matched in the last \(inRuns) that checked its snapshot")
        return
      }
      print(
        "\(delete ? "deleted" : "stale") \(stale.count) variant\(stale.count == 1 ? "" : "s") (no match in \(inRuns)):")
      let listed = stale.map { (try? store.bytes(at: $0.variant.location)).map(SHA256.hex) }
      for (found, hash) in zip(stale, listed) {
        let since = found.lastMatched.map { "last matched by run \($0)" } ?? "not matched since it was approved"
        let line = "  \(found.key)  variant \(found.variant.name)  (\(since); \(found.runsSince) runs since)"
        if delete, try hash.map({ try store.removeVariant(found.variant, ifHash: $0) }) ?? nil == nil {
          print(line + "  (kept: replaced since it was listed)")
          continue
        }
        print(line)
      }
    }
  }
}
