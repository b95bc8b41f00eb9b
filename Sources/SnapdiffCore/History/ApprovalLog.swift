#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ApprovalEntry {
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
