import Foundation
import PostgresNIO
import SnapdiffCore

/// A run's verdicts as they arrive, in the `snapshot_records` table that every instance reads:
/// the `SnapshotRecordStore` of runs taken by `snapdiff serve --database postgres://…` (what
/// `snapshots.jsonl` is without it). Positions are the table's sequence numbers. An append is
/// committed before it returns, so an answered frame survives the instance that took it.
///
/// Appends hold the run's lock (`RunFolder.withLock`: `flock` and an advisory lock), so a run's
/// positions are committed in order and a reader that saw position n has every record before it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct PostgresSnapshotRecords: SnapshotRecordStore {
  let database: PostgresDatabase
  let runID: String

  @discardableResult
  func append(_ record: SnapshotRecord) throws -> Range<Int> {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let text = String(decoding: try encoder.encode(record), as: UTF8.self)
    let runID = runID
    let logger = database.logger
    let position = try database.wait { client in
      var position: Int64 = 0
      for try await value in try await client.query(
        "INSERT INTO snapshot_records (run_id, record) VALUES (\(runID), \(text)) RETURNING position", logger: logger
      ).decode(Int64.self) {
        position = value
      }
      return Int(position)
    }
    return (position - 1)..<position
  }

  func records(after position: Int) throws -> (records: [SnapshotRecord], end: Int) {
    let runID = runID
    let logger = database.logger
    let rows = try database.wait { client in
      var rows: [(Int, String)] = []
      for try await (position, record) in try await client.query(
        "SELECT position, record FROM snapshot_records WHERE run_id = \(runID) AND position > \(Int64(position)) ORDER BY position",
        logger: logger
      ).decode((Int64, String).self) {
        rows.append((Int(position), record))
      }
      return rows
    }
    let decoder = JSONDecoder()
    let records = rows.compactMap { try? decoder.decode(SnapshotRecord.self, from: Data($0.1.utf8)) }
    return (records, rows.last?.0 ?? position)
  }

  func end() throws -> Int {
    let runID = runID
    let logger = database.logger
    return try database.wait { client in
      var end: Int64 = 0
      for try await value in try await client.query(
        "SELECT coalesce(max(position), 0) FROM snapshot_records WHERE run_id = \(runID)", logger: logger
      ).decode(Int64.self) {
        end = value
      }
      return Int(end)
    }
  }
}
