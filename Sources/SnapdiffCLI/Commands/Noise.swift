import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff noise list|remove`: the differences approved as noise (`approve --as-noise`).
  struct Noise: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List or remove known noise: differences approved with snapdiff approve KEY --as-noise.",
      discussion: """
        A fingerprint is where a difference is and what changed there (the change hash of every \
        differing pixel, both colours), on one baseline (its SHA-256). A run that finds the same \
        difference on the same baseline passes as known noise; any other difference still fails. \
        When the baseline changes, its fingerprints are stale: they match nothing, and \
        `snapdiff noise remove --stale` clears them.
        """,
      subcommands: [List.self, Remove.self]
    )

    struct List: ParsableCommand {
      static let configuration = CommandConfiguration(
        abstract: "List the fingerprints of known noise, by snapshot (stale ones marked).")

      @Argument(help: ArgumentHelp("Only these snapshot keys (default: every snapshot).", valueName: "key"))
      var keys: [String] = []

      @OptionGroup(title: "Project")
      var project: ProjectOptions

      func run() throws {
        try reportingErrors {
          let store = try project.project().store
          let entries = try store.noiseEntries(keys: keys.isEmpty ? nil : keys.map { try SnapshotKey($0) })
          if entries.isEmpty {
            print("No known noise in \(RunSummary.display(store.root)).")
            return
          }
          print("Known noise in \(RunSummary.display(store.root)):")
          for entry in entries {
            let fingerprint = entry.fingerprint
            let areas = fingerprint.regions.count
            var line =
              "  \(entry.key)  \(fingerprint.shortID)  \(ReportFormat.count(fingerprint.differentPixels)) px in \(areas) area"
            line += areas == 1 ? "" : "s"
            line += "  approved by \(fingerprint.approvedBy) at \(fingerprint.approvedAt)"
            if let run = fingerprint.run { line += " (run \(run))" }
            if entry.isStale { line += "  STALE: the baseline changed since" }
            print(line)
          }
        }
      }
    }

    struct Remove: ParsableCommand {
      static let configuration = CommandConfiguration(
        abstract: "Remove fingerprints: the differences they let through fail again.",
        usage: """
          snapdiff noise remove 'Home - test_search/Home' 1a2b3c4d5e6f
          snapdiff noise remove 'Home - test_search/Home' --all
          snapdiff noise remove --stale
          """
      )

      @Argument(help: ArgumentHelp("The snapshot key (with --stale: optional).", valueName: "key"))
      var key: String?

      @Argument(help: ArgumentHelp("Fingerprints to remove (their first 6 characters or more).", valueName: "id"))
      var ids: [String] = []

      @Flag(help: "Every fingerprint of KEY.")
      var all = false

      @Flag(help: "Every stale fingerprint (its baseline changed), of KEY or of every snapshot.")
      var stale = false

      @OptionGroup(title: "Project")
      var project: ProjectOptions

      func validate() throws {
        if stale {
          guard ids.isEmpty, !all else { throw ValidationError("--stale takes no fingerprint ids and no --all.") }
          return
        }
        guard key != nil else { throw ValidationError("Name the snapshot: snapdiff noise remove KEY ID… (or --all).") }
        if all == !ids.isEmpty {
          throw ValidationError("Say which fingerprints: their ids, or --all (not both).")
        }
      }

      func run() throws {
        try reportingErrors {
          let store = try project.project().store
          let removed = try store.removeNoise(
            key: try key.map { try SnapshotKey($0) }, ids: ids, all: all, stale: stale)
          for entry in removed {
            print("removed \(entry.key)  \(entry.fingerprint.shortID)\(entry.isStale ? " (stale)" : "")")
          }
          print("\(removed.count) fingerprint\(removed.count == 1 ? "" : "s") removed")
        }
      }
    }
  }
}
