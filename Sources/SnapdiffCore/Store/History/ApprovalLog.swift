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
/// reads it for `snapdiff history` and `approve --undo`). A line cut short (a crash, a full
/// disk) is skipped by readers with a warning, and the next append starts a line of its own.
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
    try confinement.appendLine(line, to: path)
  }

  /// Appends `entries` in one write (one operation's lines: an undo of a group is one append,
  /// not one a snapshot).
  public func append(contentsOf entries: [ApprovalEntry]) throws {
    guard !entries.isEmpty else { return }
    var lines: [UInt8] = []
    for entry in entries { lines += try entry.jsonLine() }
    try confinement.createFolders(containing: path)
    try confinement.appendLine(lines, to: path)
  }

  /// Every entry, oldest first; damaged lines are left out (`read` says which).
  public func entries() throws -> [ApprovalEntry] {
    try read().entries
  }

  /// A line of the log that is not an entry: cut short by a crash or a full disk, or edited.
  public struct DamagedLine: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// From 1.
    public var line: Int
    public var problem: String
    /// Every 64-digit hexadecimal word in the line: blobs it may have named, which `prune`
    /// keeps rather than guess.
    public var hashes: [String]

    public var description: String {
      "\(path):\(line): not a valid approval entry, skipped (\(problem))"
    }
  }

  /// The log's entries, oldest first, and its damaged lines. A line that does not decode, or
  /// that names a run that cannot be a run id (`RunFolder.isValidID`) or a blob that cannot be a
  /// hash, is skipped, never taken in part: one torn line (the tail a crash or a full disk
  /// leaves) costs that line, not the history and undo of every key.
  ///
  /// - Throws: `FileError` when the log cannot be read.
  public func read() throws -> (entries: [ApprovalEntry], damaged: [DamagedLine]) {
    guard FileSystem.isFile(path) else { return ([], []) }
    let bytes = try FileIO.readRegularFile(path, limit: 1 << 30)
    var entries: [ApprovalEntry] = []
    var damaged: [DamagedLine] = []
    let decoder = JSONDecoder()
    for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      func skip(_ problem: String) {
        damaged.append(
          DamagedLine(path: path, line: number + 1, problem: problem, hashes: Self.hashWords(in: Array(line))))
      }
      let entry: ApprovalEntry
      do {
        entry = try decoder.decode(ApprovalEntry.self, from: Data(line))
      } catch {
        skip(JSONProblem.describe(error))
        continue
      }
      if let run = entry.run, !RunFolder.isValidID(run) {
        skip("'\(run)' is not a run id")
        continue
      }
      if let bad = [entry.old, entry.new, entry.oldTree, entry.newTree].compactMap({ $0 }).first(where: {
        !BlobStore.isHash($0)
      }) {
        skip("'\(bad)' is not a blob hash")
        continue
      }
      entries.append(entry)
    }
    return (entries, damaged)
  }

  /// The 64-digit lowercase hexadecimal words in `line`.
  static func hashWords(in line: [UInt8]) -> [String] {
    func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
    var words: [String] = []
    var start = 0
    while start < line.count {
      guard isHex(line[start]) else {
        start += 1
        continue
      }
      var end = start
      while end < line.count && isHex(line[end]) { end += 1 }
      if end - start == 64 { words.append(String(decoding: line[start..<end], as: UTF8.self)) }
      start = end
    }
    return words
  }

  /// The user the CLI logs: `SNAPDIFF_USER`, else `USER`, else `unknown`.
  public static var processUser: String {
    let variables = ProcessEnvironment.variables
    return [variables["SNAPDIFF_USER"], variables["USER"]].compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
  }
}
