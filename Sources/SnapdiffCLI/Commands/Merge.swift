import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff merge RUN…`: the runs of a run's parts joined into one.
  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Join the runs of a split check (--shard i/n or --partial) into one run.",
      usage: """
        snapdiff merge RUN…
        snapdiff merge shard-1/.snapdiff/runs/last shard-2/.snapdiff/runs/last --fail-on-missing
        """,
      discussion: """
        Each RUN is a run id in .snapdiff/runs or the path of a run folder (as a CI job's \
        artifact brings it). The parts must be closed, partial runs of one environment and \
        record mode; runs made with --shard must be every part 1/n … n/n once. A key may be in \
        one part only. The merged run is complete: a baseline is missing only when no part \
        received its frame. Its reports are written as check writes them, and \
        .snapdiff/runs/last points at it.

        A part is untrusted input (a CI artifact): only regular files inside its folder are \
        read, images are taken by the hash run.json names, the merged run's paths are its own, \
        and a verdict its images contradict (passed with a frame that is not its baseline's \
        bytes) or a shard that is not i/n is refused. Limits per part: run.json 32 MiB, 50,000 \
        snapshots, 64 KiB of text per snapshot, 256 MiB per image, 16 MiB per element tree.

        A passed verdict is checked by its frame, which must be the bytes of the store's \
        baseline. A part keeps no frame of a snapshot that passed within the tolerances: such \
        a verdict is taken on the part's word, marked "unverified" in run.json and counted in \
        a warning; --verified-only refuses the merge instead.

        Exit status: as check's, from the merged run: 0 when nothing failed (and, in record \
        mode never, nothing is new), 1 otherwise, 2 when the runs cannot be merged.
        """
    )

    @Argument(help: ArgumentHelp("The parts' runs: run ids or run folder paths.", valueName: "run"))
    var runs: [String]

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    @Flag(help: "Fail when a baseline has no current frame in any part.")
    var failOnMissing = false

    @Flag(help: "Print only the summary line and problems.")
    var quiet = false

    @Flag(help: "Refuse passed verdicts that no kept frame shows (instead of marking them unverified).")
    var verifiedOnly = false

    func validate() throws {
      if runs.isEmpty { throw ValidationError("Say which runs to merge: run ids or run folder paths.") }
    }

    func run() throws {
      let outcome = try reportingErrors { () throws -> RunChecker.Outcome in
        let resolved = try project.project()
        let parts = try runs.map { run throws -> RunFolder in
          PathText.containsSeparator(run) || run == "." || run == ".."
            ? try Self.folder(at: run) : try RunFolder.open(in: resolved.runsDirectory, id: run)
        }
        var merger = RunMerger(store: resolved.store, runsDirectory: resolved.runsDirectory)
        merger.verifiedOnly = verifiedOnly
        return try merger.merge(parts)
      }
      if !quiet { print("Merged \(runs.count) run\(runs.count == 1 ? "" : "s") into \(outcome.record.id)") }
      let unverified = outcome.record.snapshots.filter { $0.unverified == true }
      if let first = unverified.first {
        Console.warning(
          "\(unverified.count) passed snapshot\(unverified.count == 1 ? "" : "s") (first '\(first.key)') kept no frame that is the store's baseline: passed on the parts' word, marked \"unverified\" in run.json (--verified-only refuses them)"
        )
      }
      try RunSummary.conclude(
        outcome, recordMode: outcome.record.recordMode, failOnMissing: failOnMissing, quiet: quiet)
    }

    /// A run folder given by its path (`last` links followed).
    static func folder(at path: String) throws -> RunFolder {
      let absolute = FileSystem.absolute(path)
      guard FileSystem.isFile(absolute + "/run.json") else {
        throw RunError("\(absolute): not a run folder (no run.json)")
      }
      return RunFolder(path: FileSystem.resolved(absolute) ?? absolute)
    }
  }
}
