#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A run folder's `snapshots.jsonl`: the `SnapshotRecordStore` of a run that takes frames one at
/// a time (`RunSession`), one compact JSON record per line, appended and flushed to disk
/// (`fdatasync`) before the verdict is answered. Positions are byte offsets.
///
/// Appends happen under the run's lock (`RunFolder.withLock`), so lines never interleave. A line
/// cut short by a crash in the middle of an append (never answered) is left behind a newline by
/// the next append and skipped by readers, which only take whole lines that decode.
public struct SnapshotLog: SnapshotRecordStore {
  public let path: String

  public init(path: String) {
    self.path = path
  }

  public static let fileName = "snapshots.jsonl"

  @discardableResult
  public func append(_ record: SnapshotRecord) throws -> Range<Int> {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var line = Array(try encoder.encode(record))
    line.append(0x0A)
    // A line a crash cut short: ours starts on a line of its own (`FileIO.appendLine`).
    return try FileIO.appendLine(line, to: path)
  }

  public func records(after position: Int) throws -> (records: [SnapshotRecord], end: Int) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return ([], position) }
      throw FileError.system(path: path, action: "open the snapshot log")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileError.system(path: path, action: "read the size of") }
    let size = Int(status.st_size)
    guard size > position else { return ([], position) }
    var bytes = [UInt8](repeating: 0, count: size - position)
    var read = 0
    while read < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress! + read, buffer.count - read, off_t(position + read))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError.system(path: path, action: "read")
      }
      if count == 0 { break }
      read += count
    }
    // Whole lines only: one being appended now is taken next time.
    guard let lastNewline = bytes[..<read].lastIndex(of: 0x0A) else { return ([], position) }
    let decoder = JSONDecoder()
    var records: [SnapshotRecord] = []
    var lineStart = 0
    for index in 0...lastNewline where bytes[index] == 0x0A {
      if index > lineStart,
        let record = try? decoder.decode(SnapshotRecord.self, from: Data(bytes[lineStart..<index]))
      {
        records.append(record)
      }
      lineStart = index + 1
    }
    return (records, position + lastNewline + 1)
  }

  public func end() throws -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else {
      if errno == ENOENT { return 0 }
      throw FileError.system(path: path, action: "read the size of")
    }
    let size = Int(status.st_size)
    guard size > 0 else { return 0 }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileError.system(path: path, action: "open the snapshot log") }
    defer { close(descriptor) }
    var last: UInt8 = 0
    // Ends with a whole line (as always but after a crash in an append): no need to read it.
    if pread(descriptor, &last, 1, off_t(size - 1)) == 1, last == 0x0A { return size }
    return try records(after: 0).end
  }
}
