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
        """,
      discussion: """
        Select snapshots by key or glob, --failed, --new, --all, or --same-as KEY (every \
        snapshot whose change is the same as KEY's: one step for a header or font change that \
        touched dozens of screens), or --difference KIND (every failed snapshot whose \
        difference is of that kind: rendering after an OS or Xcode update). Approving a missing snapshot deletes its baseline. Each \
        baseline is replaced atomically; run.json and the reports are updated. A rejected \
        snapshot is approved only when its key is named, or with --include-rejected. Every \
        approval is logged (snapdiff history KEY); --undo KEY puts back the baseline its newest \
        approval replaced, from the blob store, and logs that too. --as-noise keeps the baseline and \
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

    @Flag(help: "Undo the newest approval of each KEY: its previous baseline comes back (see snapdiff history KEY).")
    var undo = false

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
      if undo {
        if selectors.patterns.isEmpty || selectors.sameAs != nil || selectors.difference != nil || failed || new || all
          || includeRejected || dryRun || asNoise || variant != nil
        {
          throw ValidationError("--undo takes snapshot keys alone: snapdiff approve --undo KEY…")
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
        let review = try Review(folder: folder, storeRoot: resolved.store.root)
        let chosen = try review.approve(selection, dryRun: dryRun, asVariant: variant)
        let verb = dryRun ? "would approve" : "approved"
        print("\(verb) \(chosen.count) snapshot\(chosen.count == 1 ? "" : "s") of run \(folder.id):")
        for snapshot in chosen {
          let action =
            variant.map { "add variant '\($0)'" }
            ?? (snapshot.status == .missing ? "delete baseline" : "update baseline")
          print("  \(snapshot.status.rawValue.padding(toLength: 8)) \(snapshot.key)  (\(action))")
        }
      }
    }

    /// `--as-noise`: the differences recorded as known noise, the baselines kept.
    private func approveAsNoise() throws {
      try reportingErrors {
        let resolved = try project.project()
        let folder = try RunFolder.open(in: resolved.runsDirectory, id: runSelection.runID)
        let chosen = try Review(folder: folder, storeRoot: resolved.store.root).approveAsNoise(selection, dryRun: dryRun)
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

    /// `--undo KEY…`: each key's newest approval undone, in the order given.
    private func undoApprovals() throws {
      try reportingErrors {
        let resolved = try project.project()
        let history = resolved.history
        try HistoryLines.warnAboutDamagedLines(in: history.log)
        for pattern in selectors.patterns {
          let key = try SnapshotKey(pattern)
          let entry = try history.undo(key, user: ApprovalLog.processUser)
          let what = entry.variant.map { "variant '\($0)'" } ?? "baseline"
          let restored =
            entry.new.map { "\(what) \($0.prefix(12)) restored" } ?? "\(what) deleted (the approval had created it)"
          print(
            "undid the approval of \(key) (\(HistoryLines.short(entry.old)) → \(HistoryLines.short(entry.new))): \(restored)"
          )
          if let run = entry.run { print("  run \(run): the snapshot can be reviewed again") }
        }
      }
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
