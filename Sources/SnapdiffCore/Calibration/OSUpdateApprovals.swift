/// Which approvals of a team's history were re-records for an OS, simulator or Xcode update
/// (noise), so that the rest are changes: approvals made within given periods, or from given
/// runs. `snapdiff calibrate --history --os-update 2026-09-15..2026-09-19 --os-update-run RUN`.
///
/// An approval that an undo reverted is left out; so is one that created or deleted a baseline
/// (there is no pair), and one whose images the blob store no longer holds (`snapdiff prune`).
public struct OSUpdateApprovals: Sendable, Equatable {
  /// A period, both ends included: dates (`2026-09-15`) or times (`2026-09-15T08:00:00Z`),
  /// compared with the approval's UTC time to the precision written.
  public struct Period: Sendable, Equatable, CustomStringConvertible {
    public var from: String
    public var to: String

    /// Parses `FROM..TO`.
    ///
    /// - Throws: `ConfigurationError` when it is not two ISO 8601 dates or times, the first not
    ///   after the second.
    public init(_ text: String) throws(ConfigurationError) {
      let ends = text.split(separator: "..", omittingEmptySubsequences: false).map(String.init)
      guard ends.count == 2, ends.allSatisfy(Self.isTimestamp) else {
        throw ConfigurationError(
          "'\(text)' is not a period: write FROM..TO with UTC dates or times, as 2026-09-15..2026-09-19")
      }
      guard ends[0] <= ends[1] else { throw ConfigurationError("'\(text)' ends before it starts") }
      from = ends[0]
      to = ends[1]
    }

    /// Whether the ISO 8601 UTC `time` lies within the period (to each end's precision).
    public func contains(_ time: String) -> Bool {
      String(time.prefix(from.count)) >= from && String(time.prefix(to.count)) <= to
    }

    public var description: String { "\(from)..\(to)" }

    /// `YYYY-MM-DD`, optionally followed by `T` and a time (`HH`, `HH:MM`, `HH:MM:SS`, `Z`).
    private static func isTimestamp(_ text: String) -> Bool {
      let bytes = Array(text.utf8)
      guard bytes.count >= 10 else { return false }
      let digit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
      for (index, byte) in bytes.prefix(10).enumerated() {
        guard index == 4 || index == 7 ? byte == 0x2D : digit(byte) else { return false }
      }
      guard bytes.count > 10 else { return true }
      return bytes[10] == 0x54 && bytes.dropFirst(11).allSatisfy { digit($0) || $0 == 0x3A || $0 == 0x5A }
    }
  }

  public var periods: [Period]
  /// Run ids whose approvals were OS-update re-records.
  public var runs: Set<String>

  public init(periods: [Period] = [], runs: Set<String> = []) {
    self.periods = periods
    self.runs = runs
  }

  /// Whether nothing is marked (every approval would count as a change).
  public var isEmpty: Bool { periods.isEmpty && runs.isEmpty }

  /// Whether `approval` was an OS-update re-record.
  public func contains(_ approval: ApprovalEntry) -> Bool {
    (approval.run.map(runs.contains) ?? false) || periods.contains { $0.contains(approval.time) }
  }

  /// The labelled pairs of `history`: each approval that replaced a baseline, its old and new
  /// images from the blob store, noise when this marks it, else a change; grouped by run.
  ///
  /// - Returns: the pairs, and how many approvals were left out because their images were pruned.
  public func pairs(in history: BaselineHistory) throws -> (pairs: [LabelledPair], pruned: Int) {
    let entries = try history.entries()
    let undone = Set(entries.compactMap(\.undoes))
    var pairs: [LabelledPair] = []
    var pruned = 0
    for entry in entries where entry.action == .approve && !undone.contains(entry.id) {
      guard let old = entry.old, let new = entry.new, old != new else { continue }
      guard history.blobs.contains(old), history.blobs.contains(new) else {
        pruned += 1
        continue
      }
      let place = entry.environment.map { "\($0)/" } ?? ""
      pairs.append(
        LabelledPair(
          id: "\(place)\(entry.key) @ \(entry.time)", kind: contains(entry) ? .noise : .change,
          baseline: history.blobs.path(of: old), current: history.blobs.path(of: new),
          group: entry.run ?? "(no run)"))
    }
    return (pairs, pruned)
  }
}
