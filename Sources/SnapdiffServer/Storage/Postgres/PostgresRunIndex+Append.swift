import Logging
import PostgresNIO
import SnapdiffCore

/// A frame's record appended and indexed in one statement: the path every frame posted to an
/// instance on PostgreSQL takes (`PostgresSnapshotRecords.append`).
@available(macOS 14, iOS 17, tvOS 17, *)
extension PostgresRunIndex {
  /// Appends `text` (`snapshot`, encoded) to run `runID`'s records and, when the run's row holds
  /// every record before it and `run.json` version `fingerprint`, indexes it in the same
  /// statement, as a refresh would (the key's row replaced, the counts moved by
  /// `IndexedRun.count`); otherwise appends it alone, and the next refresh follows it. Takes the
  /// index's transaction lock, as every write of the index does: call it in a transaction.
  ///
  /// - Returns: the record's position.
  static func append(
    _ text: String, of snapshot: SnapshotRecord, runID: String, fingerprint: String?,
    on connection: PostgresConnection
  ) async throws -> Int64 {
    try await connection.query("SELECT pg_advisory_xact_lock(\(indexLock))", logger: log)
    // The run's figures, its last record's position and the key's row, in one query.
    var run: (snapshots: Int, failing: Int, recordMode: String, caughtUp: Bool)?
    var previous: IndexedSnapshot?
    for try await (snapshots, failing, recordMode, indexed, open, position, last, status, error, wasFailing)
      in try await connection.query(
        """
        SELECT r.snapshot_count, r.failing_count, r.record_mode, r.fingerprint, r.closed_at IS NULL, r.log_position,
          (SELECT coalesce(max(position), 0) FROM snapshot_records WHERE run_id = r.id), s.status, s.error, s.failing
        FROM runs r LEFT JOIN run_snapshots s ON s.run_id = r.id AND s.key = \(snapshot.key)
        WHERE r.id = \(runID)
        """, logger: log
      ).decode((Int, Int, String, String, Bool, Int64, Int64, String?, String?, Bool?).self)
    {
      run = (snapshots, failing, recordMode, open && indexed == fingerprint && position == last)
      if let status, let wasFailing {
        var old = IndexedSnapshot(
          SnapshotRecord(key: snapshot.key, status: .passed), runID: runID,
          recordMode: RecordMode(rawValue: recordMode) ?? .never)
        old.status = status
        old.error = error
        old.failing = wasFailing
        previous = old
      }
    }
    var appended: Int64?
    guard let run, run.caughtUp else {
      for try await position in try await connection.query(
        "INSERT INTO snapshot_records (run_id, record) VALUES (\(runID), \(text)) RETURNING position", logger: log
      ).decode(Int64.self) {
        appended = position
      }
      guard let appended else { throw RunError("run \(runID): the database did not answer the record's position") }
      return appended
    }
    let row = IndexedSnapshot(snapshot, runID: runID, recordMode: RecordMode(rawValue: run.recordMode) ?? .never)
    // What the record changes in the run's figures: the key's previous row out, its new one in.
    var change = IndexedRun(
      RunRecord(
        id: runID, createdAt: "", currentDirectory: "", baselinesDirectory: "", environment: nil, recordMode: .never,
        complete: false, snapshots: []),
      fingerprint: "")
    if let previous { change.count(previous, -1) }
    change.count(row, 1)
    let verdict = RunVerdict(
      snapshots: run.snapshots + change.snapshotCount, failing: run.failing + change.failingCount
    ).rawValue
    // The same row as `save(_ snapshot:)` writes.
    for try await position in try await connection.query(
      """
      WITH appended AS (
        INSERT INTO snapshot_records (run_id, record) VALUES (\(runID), \(text)) RETURNING position
      ), counted AS (
        UPDATE runs SET snapshot_count = snapshot_count + \(change.snapshotCount),
          passed_count = passed_count + \(change.passedCount), failed_count = failed_count + \(change.failedCount),
          new_count = new_count + \(change.newCount), missing_count = missing_count + \(change.missingCount),
          approved_count = approved_count + \(change.approvedCount),
          rejected_count = rejected_count + \(change.rejectedCount),
          skipped_count = skipped_count + \(change.skippedCount), error_count = error_count + \(change.errorCount),
          failing_count = failing_count + \(change.failingCount), verdict = \(verdict),
          log_position = (SELECT position FROM appended)
        WHERE id = \(runID)
      ), stored AS (
        INSERT INTO run_snapshots (run_id, key, status, different_pixels, different_ratio, change_hash, error, failing)
        VALUES (\(row.runId), \(row.key), \(row.status), \(row.differentPixels), \(row.differentRatio),
          \(row.changeHash), \(row.error), \(row.failing))
        ON CONFLICT (run_id, key) DO UPDATE SET status = excluded.status,
          different_pixels = excluded.different_pixels, different_ratio = excluded.different_ratio,
          change_hash = excluded.change_hash, error = excluded.error, failing = excluded.failing
      )
      SELECT position FROM appended
      """, logger: log
    ).decode(Int64.self) {
      appended = position
    }
    guard let appended else { throw RunError("run \(runID): the database did not answer the record's position") }
    return appended
  }
}
