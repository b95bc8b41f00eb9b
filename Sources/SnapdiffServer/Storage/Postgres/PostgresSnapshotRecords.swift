import Foundation
import PostgresNIO
import SnapdiffCore

/// A run's verdicts as they arrive, in the `snapshot_records` table that every instance reads:
/// the `SnapshotRecordStore` of runs taken by `snapdiff serve --database postgres://…` (what
/// `snapshots.jsonl` is without it). Positions are the table's sequence numbers. An append is
/// committed before it returns, so an answered frame survives the instance that took it; it
/// indexes the record in the same transaction (`PostgresRunIndex.append`), so that the index's
/// refresh after a frame finds it up to date in one query.
///
/// Appends hold the run's lock (`RunFolder.withLock`), so a run's positions are committed in
/// order and a reader that saw position n has every record before it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct PostgresSnapshotRecords: SnapshotRecordStore {
  let database: PostgresDatabase
  let runID: String
  /// The service's runs folder: where the run's `run.json` is, whose version the index row holds.
  let runsDirectory: String

  @discardableResult
  func append(_ record: SnapshotRecord) throws -> Range<Int> {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let text = String(decoding: try encoder.encode(record), as: UTF8.self)
    let runID = runID
    let logger = database.logger
    // Appends hold the run's lock, as every write of `run.json` does: the file is this version
    // until the append is committed.
    let fingerprint = RecordFingerprint.of(runsDirectory + "/" + runID + "/run.json")
    let position = try database.wait { client in
      try await client.withTransaction(logger: logger) { connection in
        try await PostgresRunIndex.append(text, of: record, runID: runID, fingerprint: fingerprint, on: connection)
      }
    }
    return Int(position - 1)..<Int(position)
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

  /// One query: the records after `position` and the run's last position.
  func recordsFollowing(_ position: Int) throws -> (records: [SnapshotRecord], end: Int)? {
    let runID = runID
    let logger = database.logger
    let (last, rows) = try database.wait { client in
      var last: Int64 = 0
      var rows: [(Int64, String)] = []
      for try await (end, position, record) in try await client.query(
        """
        SELECT m.last, s.position, s.record
        FROM (SELECT coalesce(max(position), 0) AS last FROM snapshot_records WHERE run_id = \(runID)) m
        LEFT JOIN snapshot_records s ON s.run_id = \(runID) AND s.position > \(Int64(position))
        ORDER BY s.position
        """, logger: logger
      ).decode((Int64, Int64?, String?).self) {
        last = end
        if let position, let record { rows.append((position, record)) }
      }
      return (last, rows)
    }
    guard last >= position else { return nil }
    let decoder = JSONDecoder()
    let records = rows.compactMap { try? decoder.decode(SnapshotRecord.self, from: Data($0.1.utf8)) }
    return (records, Int(rows.last?.0 ?? Int64(position)))
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
