#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One line of the approval log: a baseline replaced (or deleted) by an approval, or an undo
/// that put the one before back.
public struct ApprovalEntry: Sendable, Codable, Equatable {
  /// Names this entry (an undo names the approval it undid).
  public var id: String
  /// When, ISO 8601 in UTC.
  public var time: String
  /// Who: `SNAPDIFF_USER` or `USER` for the CLI; the service names its caller.
  public var user: String
  /// `approve` or `undo`.
  public var action: Action
  public var key: String
  /// The environment folder written, or absent for the store's root.
  public var environment: String?
  /// The branch overlay written (`.branches/<branch>`, relative to the store), or absent for
  /// the store itself.
  public var overlay: String?
  /// The baseline store, relative to the data folder.
  public var baselines: String
  /// The run the approval came from, and its branch.
  public var run: String?
  public var branch: String?
  /// The snapshot's status in that run before the approval (what an undo gives it back).
  public var previousStatus: SnapshotStatus?
  /// The SHA-256 of the baseline before and after (absent: there was none, or it was deleted);
  /// both are blobs in the blob store.
  public var old: String?
  public var new: String?
  /// The element tree beside the baseline, before and after, as blobs.
  public var oldTree: String?
  public var newTree: String?
  /// For an undo: the approval undone.
  public var undoes: String?

  public enum Action: String, Sendable, Codable { case approve, undo }

  /// The entry as the log holds it: one line of JSON, keys sorted, ending with a line feed.
  public func jsonLine() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(self)) + [0x0A]
  }
}

/// The approval log, `<data>/history/approvals.jsonl`: one JSON object a line, only ever
/// appended to, so what was approved, by whom and when stays on record (`BaselineHistory`
/// reads it for `snapdiff history` and `approve --undo`).
public struct ApprovalLog: Sendable {
  /// The file, absolute.
  public let path: String
  /// The data folder: every append goes through its confinement.
  public let confinement: Confinement

  public init(dataDirectory: String) {
    let data = FileSystem.absolute(dataDirectory)
    path = data + "/history/approvals.jsonl"
    confinement = Confinement(root: data, place: "data folder")
  }

  /// Appends one entry as one line.
  public func append(_ entry: ApprovalEntry) throws {
    let line = try entry.jsonLine()
    try confinement.createFolders(containing: path)
    try confinement.append(line, to: path)
  }

  /// Every entry, oldest first.
  ///
  /// - Throws: `ConfigurationError` naming the file and line of an entry that does not decode.
  public func entries() throws -> [ApprovalEntry] {
    guard FileSystem.isFile(path) else { return [] }
    let bytes = try FileIO.read(path, limit: 1 << 30)
    var entries: [ApprovalEntry] = []
    for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      do {
        entries.append(try JSONDecoder().decode(ApprovalEntry.self, from: Data(line)))
      } catch {
        throw ConfigurationError("\(path):\(number + 1): not a valid approval entry: \(JSONProblem.describe(error))")
      }
    }
    return entries
  }

  /// The user the CLI logs: `SNAPDIFF_USER`, else `USER`, else `unknown`.
  public static var processUser: String {
    let variables = ProcessEnvironment.variables
    return [variables["SNAPDIFF_USER"], variables["USER"]].compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
  }
}
