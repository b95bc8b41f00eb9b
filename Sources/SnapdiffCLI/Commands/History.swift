import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff history KEY`: a snapshot's baselines over time, from the approval log.
  struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List a snapshot's baselines over time: every approval and undo, who, when, from which run.",
      discussion: """
        Read from the approval log (.snapdiff/history/approvals.jsonl). Each line shows the \
        baseline's SHA-256 before and after (the first 12 digits; the blobs keep both images). \
        Undo the newest approval with: snapdiff approve --undo KEY
        """
    )

    @Argument(help: ArgumentHelp("The snapshot key.", valueName: "key"))
    var key: String

    @Flag(help: "Print the log's entries as JSON lines.")
    var json = false

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    func run() throws {
      try reportingErrors {
        let resolved = try project.project()
        let key = try SnapshotKey(self.key)
        let history = resolved.history
        try HistoryLines.warnAboutDamagedLines(in: history.log)
        let entries = try history.entries(for: key)
        if json {
          for entry in entries { print(String(decoding: try entry.jsonLine().dropLast(), as: UTF8.self)) }
          return
        }
        print(HistoryLines.lines(key: key, entries: entries, history: history).joined(separator: "\n"))
      }
    }
  }
}

/// The lines `snapdiff history` prints.
enum HistoryLines {
  static func lines(key: SnapshotKey, entries: [ApprovalEntry], history: BaselineHistory) -> [String] {
    let store = history.store
    var lines = ["History of '\(key)' in \(RunSummary.display(store.root)):"]
    if entries.isEmpty { lines.append("  no approval recorded") }
    // Entries in a branch's overlay (approved through the service on that branch) apart from the
    // store's own line, each under its branch: a branch's first approval of a key is not the
    // store's baseline changing.
    let overlays = entries.compactMap(\.overlay).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    for overlay in [nil] + overlays.map(Optional.some) {
      let shown = entries.filter { $0.overlay == overlay }
      if !overlays.isEmpty {
        if let overlay {
          let branch = shown.first?.branch ?? overlay
          lines.append(
            "  On branch \(branch) (its overlay \(overlay): runs on the branch read it before the store, until it is merged):"
          )
        } else {
          lines.append("  The store's own line (what runs off a branch compare against):")
          if shown.isEmpty { lines.append("    no approval recorded") }
        }
      }
      for entry in shown { lines.append((overlays.isEmpty ? "" : "  ") + line(for: entry)) }
    }
    let now = try? history.currentHash(of: key, environment: store.environment)
    lines.append("Now: \(short(now ?? nil))")
    // The accepted variants beside the baseline (`approve KEY --variant NAME`).
    for variant in (try? store.writtenVariants(of: key)) ?? [] {
      let hash = try? history.currentHash(of: key, environment: store.environment, variant: variant.name)
      lines.append("Variant \(variant.name): \(short(hash ?? nil))")
    }
    if let undoable = try? history.undoable(key) {
      // The command is offered only when the undo would go through; otherwise, why not.
      if let refusal = try? history.undoRefusal(of: undoable) {
        lines.append("No undo offered: \(refusal).")
      } else {
        lines.append(
          "Undo the approval of \(undoable.time)\(undoable.variant.map { " of variant \($0)" } ?? "") (back to \(short(undoable.old))): snapdiff approve --undo \(ApproveCommand.shellQuoted(key.rawValue))"
        )
      }
    }
    return lines
  }

  /// One entry: when, what, who, the baseline before and after, and where it came from. On the
  /// store's line, an approval that names a branch but no run is that branch's merge.
  static func line(for entry: ApprovalEntry) -> String {
    var line = "  \(entry.time)  \(entry.action.rawValue.padding(toLength: 7)) \(entry.user)"
    let old = entry.old == nil && entry.overlay != nil ? "none in the overlay" : short(entry.old)
    line += "  \(old) → \(short(entry.new))"
    if let run = entry.run { line += "  run \(run)" }
    if let branch = entry.branch {
      line += entry.overlay == nil && entry.run == nil ? "  merged from branch \(branch)" : "  branch \(branch)"
    }
    if let environment = entry.environment { line += "  environment \(environment)" }
    if let variant = entry.variant { line += "  variant \(variant)" }
    if let status = entry.previousStatus { line += "  (was \(status.rawValue))" }
    return line
  }

  static func short(_ hash: String?) -> String { hash.map { String($0.prefix(12)) } ?? "none" }

  /// A warning on standard error for each line of the approval log that is skipped.
  static func warnAboutDamagedLines(in log: ApprovalLog) throws {
    for line in try log.read().damaged { Console.warning(line.description) }
  }
}
