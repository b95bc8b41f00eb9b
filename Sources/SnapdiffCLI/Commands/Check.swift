import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff check CURRENT_DIR`: a whole run against the baseline store.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare every PNG in a folder with its baseline and record a run.",
      discussion: """
        Each CURRENT_DIR/<key>.png (or <key>.tree.json alone, rendered) is compared with \
        <baselines>/<key>.png (keys like 'Home - test_search/Home - search action'); element \
        trees and <key>.snapdiff.json settings beside them take part. The run goes to .snapdiff/runs/<id>/ \
        (run.json, the differing and new frames, diff images, junit.xml, index.html); \
        .snapdiff/runs/last points at it.

        Record modes (--record or SNAPDIFF_RECORD): missing (default: a new snapshot becomes \
        its baseline), all, failed, never (default when CI is set: a new snapshot fails).

        A large suite can be checked in parts by several CI jobs (--shard i/n, or --partial \
        for jobs that each ran some of the tests) and joined by `snapdiff merge`.

        CURRENT_DIR may also be the attachments exported from an Xcode result bundle \
        (xcrun xcresulttool export attachments --path Run.xcresult --output-path DIR): the \
        frames the test API attached there (a device's) are written to DIR/snapdiff-frames and \
        checked from there.

        Branches (recorded in run.json and the approval log): --branch NAME, --branch auto (the \
        CI's variables, else git: the branch, its base and merge-base; printed), or by default \
        the CI's variables, else git's HEAD.

        On GitHub Actions (GITHUB_STEP_SUMMARY set), the run's summary is appended to the job \
        summary and each failing snapshot is printed as an ::error annotation.

        Exit status: 0 when nothing failed (and, in record mode never, nothing is new), 1 \
        otherwise, 2 on bad input or an I/O error.
        """
    )

    @Argument(help: ArgumentHelp("The folder of current frames (PNG).", valueName: "current-dir"))
    var currentDirectory: String

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    @Option(
      help: ArgumentHelp(
        "When to write baselines: missing, all, failed or never (default: SNAPDIFF_RECORD, else never in CI, else missing).",
        valueName: "mode"))
    var record: RecordMode?

    @Flag(help: "Fail the run when a baseline has no current frame.")
    var failOnMissing = false

    @Option(
      help: ArgumentHelp(
        "Only the snapshots whose keys match this glob (repeatable); the run is then partial.",
        valueName: "glob"))
    var only: [String] = []

    @Option(
      help: ArgumentHelp(
        "Only the keys of this part of the run (2/4: the second of four; each key's part depends on its name alone); join the parts' runs with `snapdiff merge`.",
        valueName: "i/n"),
      transform: { text in try Shard(text) })
    var shard: Shard?

    @Flag(
      help:
        "The frames are one part of the run (a CI job that ran some of the tests): no baseline is reported missing; join the parts' runs with `snapdiff merge`."
    )
    var partial = false

    @OptionGroup(title: "Branch")
    var branchOptions: BranchOptions

    @Option(help: ArgumentHelp("Snapshots compared at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Also write reg-cli's reg.json here.", valueName: "path"))
    var regJSON: String?

    @Option(
      help: ArgumentHelp(
        "Also write GitLab's code-quality report here (artifacts: reports: codequality): one issue per snapshot that fails the run.",
        valueName: "path"))
    var gitlabCodequality: String?

    @Flag(help: "Print only the summary line and problems.")
    var quiet = false

    @Flag(help: "Do not use the cache of decoded baselines (.snapdiff/cache, safe to delete, at most 2 GiB).")
    var noCache = false

    @Flag(
      help:
        "Print where the time went on standard error (reading, decoding, comparing, diff images, keeping images, run record, reports: wall and CPU time, share of the process's CPU); also SNAPDIFF_TIMINGS=1."
    )
    var timings = false

    @OptionGroup(title: "Comparison")
    var diffOptions: DiffOptionGroup

    @OptionGroup(title: "Element trees")
    var frameOptions: FrameOptionGroup

    @OptionGroup(title: "Regions (every snapshot)")
    var regionOptions: RegionOptionGroup
    @OptionGroup(title: "Accessibility")
    var contrastOptions: ContrastOptionGroup

    func validate() throws {
      if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
    }

    func run() throws {
      let environment = ProcessEnvironment.variables
      let timings = timings || environment["SNAPDIFF_TIMINGS"] == "1" ? CheckTimings() : nil
      let (outcome, mode) = try reportingErrors { () throws -> (RunChecker.Outcome, RecordMode) in
        let resolved = try project.project()
        LeftoverCleaning.run(store: resolved.store, runsDirectory: resolved.runsDirectory)
        let recordMode = try record ?? RecordMode.fromEnvironment(environment)
        var checker = RunChecker(
          currentDirectory: try framesFolder(), store: resolved.store,
          runsDirectory: resolved.runsDirectory,
          options: diffOptions.diffOptions(defaults: resolved.config.settings),
          selectors: try frameOptions.selectors(), matchLevel: frameOptions.matchLevel,
          layoutTolerance: frameOptions.layoutTolerance ?? 1, config: resolved.config,
          recordMode: recordMode, jobs: jobs ?? ProcessorCount.active, decoder: diffOptions.decoder,
          only: only)
        checker.contrast = try contrastOptions.contrastCheck(defaults: resolved.config.settings)
        // The flags' regions apply to every snapshot, after snapdiff.json's.
        checker.regions = try regionOptions.regions()
        checker.shard = shard
        checker.partial = partial
        checker.observer = timings
        (checker.branch, checker.baseBranch, checker.mergeBase) = try branchOptions.resolved(
          environment: environment, quiet: quiet
        ) {
          RunBranch.detect(environment: environment, directory: FileSystem.currentDirectory())
        }
        checker.commit = RunBranch.commit(environment: environment, directory: FileSystem.currentDirectory())
        let progress = ProgressLine(enabled: !quiet)
        if !noCache {
          let runs = resolved.runsDirectory
          checker.cache = BaselineCache(directory: PathText.parent(of: runs) + "/cache")
        }
        let outcome = try checker.run(progress: progress.report)
        progress.finish()
        if let regJSON { try RunReports.writeRegJSON(outcome.record, folder: outcome.folder, to: regJSON) }
        return (outcome, recordMode)
      }
      if let timings {
        Console.status(
          timings.table(snapshots: outcome.record.snapshots.count, jobs: max(1, jobs ?? ProcessorCount.active)) + "\n")
      }
      try RunSummary.conclude(
        outcome, recordMode: mode, failOnMissing: failOnMissing, quiet: quiet, gitLabCodeQuality: gitlabCodequality)
    }

    /// CURRENT_DIR, or for the attachments exported from a result bundle, the frames folder
    /// written from them (`CURRENT_DIR/snapdiff-frames`, remade on each check).
    private func framesFolder() throws -> String {
      guard XCResultAttachments.isExport(currentDirectory) else { return currentDirectory }
      let frames = currentDirectory + "/snapdiff-frames"
      try FileSystem.removeTree(frames)
      let keys = try XCResultAttachments.writeFrames(from: currentDirectory, into: frames)
      guard !keys.isEmpty else {
        throw ConfigurationError(
          "\(currentDirectory) holds a result bundle's exported attachments, but none is a snapdiff frame "
            + "(the test API attaches them from .snapdiff(test:) on Apple platforms)")
      }
      if !quiet {
        Console.status("snapdiff: \(keys.count) snapshots from the result bundle's attachments, in \(frames)\n")
      }
      return frames
    }
  }
}

extension RecordMode: ExpressibleByArgument {}
