import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff approve`: current frames become baselines.
  struct Approve: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Promote the current frames of a run to baselines.",
      usage: """
        snapdiff approve 'Home - test_search/Home'
        snapdiff approve 'Onboarding*' --run 20261122-034512-123
        snapdiff approve --same-as 'Home - test_search/Home' --dry-run
        snapdiff approve --failed
        snapdiff approve --difference rendering
        snapdiff approve 'Home - test_search/Home' --variant intel
        snapdiff approve --undo 'Home - test_search/Home'
        snapdiff approve 'Home - test_search/Home' --as-noise
        snapdiff approve --undo --same-as 'Home - test_search/Home' --run 20261122-034512-123
        snapdiff approve --undo --all
        snapdiff approve --undo --operation 3f9a1c0b2e4d5a6f
        """,
      discussion: """
        Select snapshots by key or glob, --failed, --new, --all, or --same-as KEY (every \
        snapshot whose change is the same as KEY's: one step for a header or font change that \
        touched dozens of screens), or --difference KIND (every failed snapshot whose \
        difference is of that kind: rendering after an OS or Xcode update). Approving a missing snapshot deletes its baseline. Each \
        baseline is replaced atomically; run.json and the reports are updated. A rejected \
        snapshot is approved only when its key is named, or with --include-rejected. Every \
        approval is logged (snapdiff history KEY) as one operation (one snapshot, a group, a \
        run). --undo takes the same selectors and undoes, as one operation, the run's approvals \
        of what they pick (keys alone, without --run: each key's newest approval, whatever run \
        it came from); --undo --operation ID undoes one operation whole (a group, a run, a \
        branch merge). The previous baselines come back from the blob store, the snapshots can \
        be reviewed again, and the undo is logged too. An undo is refused, naming the newer \
        entry, when a later approval replaced one of the baselines. \
        --as-noise keeps the baseline and \
        records the difference as known noise instead: a later run that finds the same \
        difference on the same baseline passes (snapdiff noise list|remove). --variant NAME keeps the \
        baseline and adds the current frame as another accepted baseline named NAME (the same \
        screen rendered another way on another kind of CI machine): a frame then passes when \
        it matches the baseline or any of its variants, and the verdict names the variant.
        """
    )

    @OptionGroup var selectors: ReviewSelectionOptions

    @Flag(help: "Every failed snapshot (rejected ones only with --include-rejected).")
    var failed = false

    @Flag(help: "Every new snapshot.")
    var new = false

    @Flag(
      help:
        "Every snapshot with something to review (failed, new, missing; rejected ones only with --include-rejected).")
    var all = false

    @Flag(help: "Let --failed, --all, globs and --same-as approve rejected snapshots too (undoing the rejection).")
    var includeRejected = false

    @Flag(help: "Show what would change, change nothing.")
    var dryRun = false

    @Option(
      help: ArgumentHelp(
        "Keep the baseline and add the frame as another accepted baseline named NAME (intel, ios17, …).",
        valueName: "name"))
    var variant: String?

    @Flag(
      help:
        "Undo approvals instead: the run's approvals of the snapshots the selectors pick (keys, globs, --same-as, --difference, --all), as one operation; the previous baselines come back (see snapdiff history KEY)."
    )
    var undo = false

    @Option(
      help: ArgumentHelp(
        "With --undo: undo this approval operation whole (its id from snapdiff history, the service or the approve output).",
        valueName: "id"))
    var operation: String?

    @Flag(
      help:
        "Keep the baseline: record the difference as known noise, so that the same difference on the same baseline passes in later runs (snapdiff noise list)."
    )
    var asNoise = false

    @OptionGroup var runSelection: RunSelectionOptions

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    var selection: Review.Selection {
      var selection = selectors.selection
      selection.failed = failed
      selection.new = new
      selection.all = all
      selection.includeRejected = includeRejected
      return selection
    }

    func validate() throws {
      if operation != nil && !undo { throw ValidationError("--operation goes with --undo") }
      if undo {
        if asNoise || variant != nil {
          throw ValidationError("--undo does not take --as-noise or --variant: it undoes what the approval wrote")
        }
        if failed || new || includeRejected || dryRun {
          throw ValidationError(
            "--undo takes keys, globs, --same-as, --difference, --all or --operation ID (not --failed, --new, --include-rejected or --dry-run)"
          )
        }
        let selected = !selectors.selection.isEmpty || all
        if operation != nil && selected {
          throw ValidationError("--operation ID undoes one operation: no selectors with it")
        }
        if operation == nil && !selected {
          throw ValidationError(
            "Say what to undo: keys or globs, --same-as KEY, --difference KIND, --all (of the run), or --operation ID.")
        }
        return
      }
      if asNoise, new || all {
        throw ValidationError(
          "--as-noise takes keys or globs, --failed, --same-as KEY or --difference KIND: only a difference from a baseline can be noise."
        )
      }
      if selection.isEmpty {
        throw ValidationError(
          "Say what to approve: keys or globs, --failed, --new, --all, --same-as KEY or --difference KIND.")
      }
      if asNoise, variant != nil {
        throw ValidationError("--as-noise and --variant exclude each other: noise keeps the baseline as it is.")
      }
      if let variant {
        do {
          try BaselineStore.checkVariantName(variant)
        } catch {
          throw ValidationError("--variant: \(error)")
        }
      }
    }

    func run() throws {
      if undo { return try undoApprovals() }
      if asNoise { return try approveAsNoise() }
      try reportingErrors {
        let resolved = try project.project()
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let review = try Review(folder: folder, storeRoot: resolved.store.root, config: resolved.config)
        let progress = ProgressLine(enabled: !dryRun)
        let approval = try review.approveAsOperation(selection, dryRun: dryRun, asVariant: variant) {
          progress.report($0, $1, "approving")
        }
        progress.finish()
        let chosen = approval.approved
        let verb = dryRun ? "would approve" : "approved"
        print("\(verb) \(chosen.count) snapshot\(chosen.count == 1 ? "" : "s") of run \(folder.id):")
        for snapshot in chosen {
          let action =
            variant.map { "add variant '\($0)'" }
            ?? (snapshot.status == .missing ? "delete baseline" : "update baseline")
          print("  \(snapshot.status.rawValue.padding(toLength: 8)) \(snapshot.key)  (\(action))")
        }
        if let operation = approval.operation {
          print("operation \(operation): undo it whole with snapdiff approve --undo --operation \(operation)")
        }
        if !approval.runsSeeingIt.isEmpty {
          print(
            "approved in run \(folder.id) for the same frames (or frames that pass against them) in run "
              + approval.runsSeeingIt.joined(separator: ", "))
        }
      }
    }

    /// `--as-noise`: the differences recorded as known noise, the baselines kept.
    private func approveAsNoise() throws {
      try reportingErrors {
        let resolved = try project.project()
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let chosen = try Review(folder: folder, storeRoot: resolved.store.root).approveAsNoise(
          selection, dryRun: dryRun)
        let verb = dryRun ? "would approve" : "approved"
        print(
          "\(verb) \(chosen.count) difference\(chosen.count == 1 ? "" : "s") of run \(folder.id) as known noise (baselines kept):"
        )
        for (snapshot, fingerprint) in chosen {
          let areas = fingerprint.regions.count
          print(
            "  \(snapshot.key)  fingerprint \(fingerprint.shortID): \(ReportFormat.count(fingerprint.differentPixels)) px in \(areas) area\(areas == 1 ? "" : "s")"
          )
        }
      }
    }

    /// `--undo`: one operation that undoes what the selectors pick (the run's approvals), each
    /// literal key's newest approval (keys alone, without `--run`), or `--operation ID`.
    private func undoApprovals() throws {
      try reportingErrors {
        let resolved = try project.project()
        let history = resolved.history
        try HistoryLines.warnAboutDamagedLines(in: history.log)
        let progress = ProgressLine(enabled: true)
        let report: (Int, Int) -> Void = { progress.report($0, $1, "undoing") }
        let entries: [ApprovalEntry]
        let literalKeys =
          runSelection.runID == nil && !all && selectors.sameAs == nil && selectors.difference == nil
          && !selectors.patterns.contains { $0.contains(where: { "*?[".contains($0) }) }
        if let operation {
          entries = try history.undo(operation: operation, user: ApprovalLog.processUser, progress: report)
        } else if literalKeys {
          entries = try history.undo(
            keys: try selectors.patterns.map { try SnapshotKey($0) }, user: ApprovalLog.processUser, progress: report)
        } else {
          let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
          entries = try Review(folder: folder, storeRoot: resolved.store.root).undo(selectionForUndo, progress: report)
        }
        progress.finish()
        for entry in entries {
          let what = entry.variant.map { "variant '\($0)'" } ?? "baseline"
          let restored =
            entry.new.map { "\(what) \($0.prefix(12)) restored" } ?? "\(what) deleted (the approval had created it)"
          print(
            "undid the approval of \(entry.key) (\(HistoryLines.short(entry.old)) → \(HistoryLines.short(entry.new))): \(restored)"
          )
        }
        let runs = Set(entries.compactMap(\.run)).sorted()
        for run in runs { print("  run \(run): the snapshots can be reviewed again") }
        if entries.count > 1, let operation = entries.first?.operation {
          print("undid \(entries.count) approvals as operation \(operation)")
        }
      }
    }

    /// The selection `--undo` picks from the run's approved snapshots.
    private var selectionForUndo: Review.Selection {
      var selection = selectors.selection
      selection.all = all
      return selection
    }
  }

  /// `snapdiff reject`: a change that must not come back.
  struct Reject: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Mark changes rejected: the same change in a later run stays failed and says so."
    )

    @OptionGroup var selectors: ReviewSelectionOptions

    @OptionGroup var runSelection: RunSelectionOptions

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func validate() throws {
      if selectors.selection.isEmpty {
        throw ValidationError("Say what to reject: keys or globs, --same-as KEY or --difference KIND.")
      }
    }

    func run() throws {
      try reportingErrors {
        let resolved = try project.project()
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let chosen = try Review(folder: folder, storeRoot: resolved.store.root).reject(selectors.selection)
        print("rejected \(chosen.count) snapshot\(chosen.count == 1 ? "" : "s") of run \(folder.id):")
        for snapshot in chosen { print("  \(snapshot.key)") }
      }
    }
  }
}
