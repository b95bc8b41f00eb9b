import ArgumentParser
import SnapdiffCore

/// The lines `check` and `status` print about a run: counts, then what needs attention, with
/// the paths to open.
enum RunSummary {
  /// `1 failed, 3 passed`: the counts in the order that needs attention first.
  static func statusCounts(_ counts: [SnapshotStatus: Int]) -> String { ReportFormat.statusCounts(counts) }

  static func lines(_ record: RunRecord, folder: RunFolder, recordMode: RecordMode) -> [String] {
    // An empty run says so, in the word the service uses for it (`RunVerdict.empty`).
    let found =
      RunVerdict(record) == .empty ? "\(RunVerdict.empty.rawValue): no snapshots yet" : statusCounts(record.counts)
    var lines = [
      "Run \(record.id): \(found) (\(record.snapshots.count) snapshot\(record.snapshots.count == 1 ? "" : "s"))"
    ]
    let attention = record.snapshots.filter {
      ($0.status != .passed && $0.status != .approved) || $0.contrast?.failures.isEmpty == false
        // A pass by an accepted variant says which one.
        || $0.variant != nil
    }
    .sorted { ($0.status, $0.key) < ($1.status, $1.key) }
    for snapshot in attention {
      lines.append(line(for: snapshot, folder: folder, recordMode: recordMode))
    }
    lines += knownNoiseLines(record, folder: folder)
    for group in record.reviewGroups {
      lines.append(contentsOf: Self.lines(for: group, run: record.id))
    }
    let differences = record.differenceGroups
    // One kind for every failure says nothing the lines above do not; two or more sort them.
    if differences.count > 1 || differences.first?.group == "rendering" {
      for group in differences {
        lines.append(contentsOf: Self.lines(for: group, run: record.id))
      }
    }
    return lines
  }

  /// Prints what a new run (`check`, `merge`) found and where to look, then ends with the exit
  /// status CI acts on: 2 when a snapshot could not be compared, 1 when one failed (or is new
  /// in record mode `never`, or is missing with `failOnMissing`), else 0.
  static func conclude(
    _ outcome: RunChecker.Outcome, recordMode mode: RecordMode, failOnMissing: Bool, quiet: Bool,
    gitLabCodeQuality: String? = nil
  ) throws {
    let run = outcome.record
    let lines = lines(run, folder: outcome.folder, recordMode: mode)
    print(quiet ? lines[0] : lines.joined(separator: "\n"))
    let failed = run.snapshots.contains { $0.status == .failed }
    let newFails = mode == .never && run.snapshots.contains { $0.status == .new }
    let missingFails = failOnMissing && run.snapshots.contains { $0.status == .missing }
    let errors = run.snapshots.filter { $0.error != nil }
    let report = display(outcome.folder.path + "/index.html")
    if !quiet || failed || newFails {
      print("Report: \(report)")
    }
    let fails = { (snapshot: SnapshotRecord) in
      RunVerdict.fails(with: snapshot, recordMode: mode) || (failOnMissing && snapshot.status == .missing)
    }
    try GitHubOutput.write(run, report: report, failing: fails)
    if let gitLabCodeQuality {
      try reportingErrors {
        let bytes = try GitLabCodeQuality.render(
          run,
          path: { snapshot in
            let file = snapshot.baseline ?? snapshot.current
            return file.map { display(outcome.folder.resolve($0)) } ?? snapshot.key
          }, fails: fails)
        let path = FileSystem.absolute(gitLabCodeQuality)
        try FileSystem.createDirectories(PathText.parent(of: path))
        try FileIO.writeAtomically(bytes, to: path)
      }
    }
    if failed || run.snapshots.contains(where: { $0.status == .new && !$0.recorded }) {
      print("Approve: snapdiff approve --failed  (or: approve KEY…, --same-as KEY, --new, --all)")
    }
    if !errors.isEmpty {
      Console.error("\(errors.count) snapshot\(errors.count == 1 ? "" : "s") could not be compared (see above)")
      throw ExitCode(2)
    }
    if failed || newFails || missingFails { throw ExitCode.failure }
  }

  /// `10 snapshots share one change: a, b, c and 7 more` (or `12 snapshots share one kind of
  /// edit, colour #1E88E5 → #E53935: …`), then the command that approves them.
  static func lines(for group: ReviewGroup, run: String, named shown: Int = 3) -> [String] {
    var names = group.keys.prefix(shown).joined(separator: ", ")
    if group.keys.count > shown { names += " and \(group.keys.count - shown) more" }
    let shared =
      switch group.tier {
      case .exact: "share one change"
      case .similar: "share one kind of edit, \(group.edit ?? "")"
      }
    return [
      "\(group.keys.count) snapshots \(shared): \(names)",
      "  approve them together: \(ApproveCommand.approveSameAs(group.keys[0], run: run))",
    ]
  }

  /// `212 snapshots differ only by rendering (…): a, b, c and 209 more`, then the command that
  /// approves them.
  static func lines(for group: DifferenceGroup, run: String, named shown: Int = 3) -> [String] {
    var names = group.keys.prefix(shown).joined(separator: ", ")
    if group.keys.count > shown { names += " and \(group.keys.count - shown) more" }
    return [
      "\(group.sentence): \(names)",
      "  approve them together: \(ApproveCommand.approveDifference(group.group, run: run))",
    ]
  }

  static func line(for snapshot: SnapshotRecord, folder: RunFolder, recordMode: RecordMode) -> String {
    let label = snapshot.status.rawValue.uppercased().padding(toLength: 8)
    var text = "  \(label) \(snapshot.key)"
    if let error = snapshot.error { return text + "  error: \(error)" }
    if let unmatched = snapshot.unmatchedSelectors {
      text += "  (masks matching nothing: \(unmatched.joined(separator: ", ")))"
    }
    if let notes = snapshot.regionNotes { text += "  (" + notes.joined(separator: "; ") + ")" }
    switch snapshot.status {
    case .failed, .rejected:
      text += "  \(ReportFormat.count(snapshot.differentPixels)) px (\(ReportFormat.percent(snapshot.differentRatio)))"
      if let baseline = snapshot.baselineSize, let current = snapshot.currentSize, baseline != current {
        text += ", size \(baseline.width)×\(baseline.height) → \(current.width)×\(current.height)"
      }
      if let difference = snapshot.difference { text += ", \(difference.sentence)" }
      if snapshot.previouslyRejected { text += ", rejected before" }
      if snapshot.recorded { text += ", re-recorded" }
      if let layout = snapshot.layout, !layout.isEmpty {
        text += "; layout: " + layout.map(\.description).joined(separator: "; ")
      }
      if let changes = snapshot.text, !changes.isEmpty {
        text += "; text: " + changes.joined(separator: "; ")
      }
      if let diff = snapshot.diff { text += "  diff: \(display(folder.resolve(diff)))" }
    case .passed, .approved:
      if let variant = snapshot.variant {
        text += snapshot.status == .approved ? "  approved as variant '\(variant)'" : "  matched variant '\(variant)'"
      }
      if snapshot.contrast?.failures.isEmpty == false { text += "  contrast reported, not failed (--contrast-fails)" }
    case .new:
      text += snapshot.recorded ? "  recorded as the baseline" : "  no baseline (record mode \(recordMode.rawValue))"
    case .skipped:
      text += "  skipped by the test: \(snapshot.skipReason ?? "no reason given")"
    case .missing:
      text += "  no current frame; baseline \(snapshot.baseline.map { display(folder.resolve($0)) } ?? "?")"
    default:
      break
    }
    if let contrast = snapshot.contrast, !contrast.failures.isEmpty {
      text += "\n      contrast under \(contrast.level.rawValue): " + contrast.failures.joined(separator: "; ")
    }
    return text
  }

  /// The snapshots that passed on a difference approved as noise (or were approved as noise in
  /// this run): never silent, since a fingerprint lets a difference through.
  static func knownNoiseLines(_ record: RunRecord, folder: RunFolder) -> [String] {
    record.snapshots.compactMap { snapshot in
      guard let noise = snapshot.knownNoise, snapshot.status.passes else { return nil }
      var text = "  NOISE    \(snapshot.key)  "
      text += snapshot.status == .approved ? "approved as known noise, baseline kept" : "passed as " + noise.sentence
      text += "; \(ReportFormat.count(snapshot.differentPixels)) px (\(ReportFormat.percent(snapshot.differentRatio)))"
      if let diff = snapshot.diff { text += "  diff: \(display(folder.resolve(diff)))" }
      return text
    }
  }

  /// A path as the user can type it: relative to the working folder when below it.
  static func display(_ absolute: String) -> String {
    let here = FileSystem.currentDirectory()
    return absolute.hasPrefix(here + "/") ? String(absolute.dropFirst(here.count + 1)) : absolute
  }
}

extension String {
  func padding(toLength length: Int) -> String {
    count >= length ? self : self + String(repeating: " ", count: length - count)
  }
}
