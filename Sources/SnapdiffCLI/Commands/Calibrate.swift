import ArgumentParser
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Snapdiff {
  /// `snapdiff calibrate PAIRS` or `snapdiff calibrate --history …`: the confusion table of every
  /// match level and setting on labelled pairs, so that a team picks its level from its own
  /// screenshots.
  struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Measure every match level and setting on pairs whose verdict is known.",
      discussion: """
        Each pair is one screenshot before and after. A noise pair was only re-rendered (an OS, \
        simulator or Xcode update): a good setting passes it. A change pair was changed on \
        purpose: a good setting fails it. For each setting the table counts noise passed and \
        failed (failures are false alarms a reviewer must clear, split by noise class), and \
        changes caught and missed (a missed change is a regression that would pass).

        Pairs come from a folder holding PNGs and a cases.json: a list of \
        {"id", "kind": "noise"|"change"|"unknown", "a", "b"} with optional "noise_class" and \
        "repo" (the group of --by-group); a and b are paths relative to the folder and must stay \
        inside it. Unknown pairs are compared but not scored.

        Or from the project's approval history (--history): every approval that replaced a \
        baseline is a pair (the old and new baseline, from the blob store). Approvals made \
        during an OS or Xcode update, given as periods (--os-update 2026-09-15..2026-09-19, UTC) \
        or as the runs they came from (--os-update-run ID), are noise; all others are changes. \
        Undone approvals are left out; groups are runs.

        Settings: every match level that compares pixels alone (layout and text-aware need \
        element trees) at its defaults; --threshold 0.05 and 0.2 at strict and ignore-colors; \
        --delta-e 1, 3 and 5 at perceptual; and each level's default with --max-diff-ratio \
        0.001 and 0.01 (0.1 % and 1 % of the pixels may differ).

        A second table sorts the pairs strict fails by the kind of difference a check reports \
        (rendering, shifted, moved, hairline, color, element, size): how much noise the rendering \
        group gathers, and how many real changes it would hold (approve --difference \
        rendering approves that group).

        Exit status: 0 when the table was made, 2 on bad input (a missing or undecodable \
        image, a malformed cases.json, a path that leads outside the folder: the message names \
        the pair), 64 on a usage error.
        """
    )

    @Argument(
      help: ArgumentHelp(
        "A folder of labelled pairs with its cases.json (or the cases.json itself).", valueName: "pairs"))
    var pairs: String?

    @Flag(help: "Take the pairs from the project's approval history instead of a folder.")
    var history = false

    @Option(
      name: .customLong("os-update"),
      help: ArgumentHelp(
        "With --history: approvals made in this period (UTC, both ends included) were OS or Xcode update re-records (repeatable).",
        valueName: "from..to"))
    var osUpdatePeriods: [String] = []

    @Option(
      name: .customLong("os-update-run"),
      help: ArgumentHelp(
        "With --history: approvals from this run were OS or Xcode update re-records (repeatable).",
        valueName: "run-id"))
    var osUpdateRuns: [String] = []

    @OptionGroup(title: "With --history")
    var project: ProjectOptions

    @Option(
      name: .customLong("level"),
      help: ArgumentHelp(
        "Measure only this match level (repeatable; default: every level that compares pixels alone).",
        valueName: "level"))
    var levels: [MatchLevel] = []

    @Flag(help: "Also print the table of each group (cases.json's repo; the run, with --history).")
    var byGroup = false

    @Flag(help: "Print one JSON object: the tables and each pair's counts at each setting.")
    var json = false

    @Option(help: ArgumentHelp("Pairs compared at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
      if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
      switch (pairs, history) {
      case (nil, false):
        throw ValidationError("Give a folder of labelled pairs, or --history to take them from the approval log.")
      case (.some, true):
        throw ValidationError("Give a folder of labelled pairs or --history, not both.")
      case (nil, true):
        if osUpdatePeriods.isEmpty && osUpdateRuns.isEmpty {
          throw ValidationError(
            "--history needs --os-update FROM..TO or --os-update-run ID: which approvals were OS or Xcode update re-records (noise); the others are changes."
          )
        }
      case (.some, false):
        if !osUpdatePeriods.isEmpty || !osUpdateRuns.isEmpty {
          throw ValidationError("--os-update and --os-update-run mark approvals: they go with --history.")
        }
      }
      for period in osUpdatePeriods {
        do {
          _ = try OSUpdateApprovals.Period(period)
        } catch {
          throw ValidationError("--os-update \(error)")
        }
      }
      let measurable = CalibrationSetting.pixelLevels
      for level in levels where !measurable.contains(level) {
        throw ValidationError(
          "--level \(level.rawValue) decides from element trees, which calibration pairs do not have; measurable: "
            + measurable.map(\.rawValue).joined(separator: ", "))
      }
    }

    func run() throws {
      let result = try reportingErrors { () throws -> CalibrationResult in
        let labelled = try labelledPairs()
        // In MatchLevel's order, each once however often it was given.
        let levels = CalibrationSetting.pixelLevels.filter { self.levels.isEmpty || self.levels.contains($0) }
        let calibration = Calibration(
          pairs: labelled, settings: CalibrationSetting.standard(levels: levels),
          jobs: jobs ?? ProcessorCount.active)
        let progress = ProgressLine(enabled: !quiet, onTerminal: isatty(STDERR_FILENO) != 0)
        let result = try calibration.run(progress: progress.report)
        progress.finish()
        return result
      }
      if json {
        print(result.json(byGroup: byGroup).serialized(pretty: true))
        return
      }
      var text = [result.summary(), "", result.markdownTable(), "", result.markdownDifferenceTable()]
      if byGroup {
        for group in result.groups {
          text += ["", result.summary(group: group), "", result.markdownTable(group: group)]
        }
      }
      print(text.joined(separator: "\n"))
    }

    /// The pairs: the folder's, or the approval history's.
    private func labelledPairs() throws -> [LabelledPair] {
      guard history else { return try LabelledPairs.load(pairs ?? ".") }
      let marks = OSUpdateApprovals(
        periods: try osUpdatePeriods.map { try OSUpdateApprovals.Period($0) }, runs: Set(osUpdateRuns))
      let history = try project.project().history
      let (found, pruned) = try marks.pairs(in: history)
      if pruned > 0 {
        Console.warning(
          "\(pruned) approval\(pruned == 1 ? "" : "s") left out: \(pruned == 1 ? "its images are" : "their images are") no longer in \(history.blobs.root) (pruned)"
        )
      }
      guard !found.isEmpty else {
        throw ConfigurationError("\(history.log.path): no approval replaced a baseline: there are no pairs to measure")
      }
      return found
    }
  }
}
