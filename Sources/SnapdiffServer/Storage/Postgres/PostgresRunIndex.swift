import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import SnapdiffCore

/// The run index in PostgreSQL (`runs`, `run_snapshots`), shared by every instance on the
/// database: the same rows and figures as `SQLiteRunIndex`, kept in step with the shared run
/// folders the same way (a run whose `run.json` changed is stored again; an open run's records
/// appended since, read from `snapshot_records`, are added one row each).
///
/// Writes run in one transaction under an advisory transaction lock (`pg_advisory_xact_lock`),
/// so two instances refreshing the same run never count a record twice. A run's `run.json` is
/// read outside the transaction and stored only if the file is still that version when the
/// transaction holds the lock (else read again): the index never goes back to an older review
/// state.
@available(macOS 14, iOS 17, tvOS 17, *)
final class PostgresRunIndex: RunIndex {
  let database: PostgresDatabase
  let runsDirectory: String
  private let rebuilt = NIOLockedValueBox(false)
  /// The key of the index's transaction lock.
  static let indexLock = AdvisoryLocks.key("index:runs")

  init(database: PostgresDatabase, runsDirectory: String) {
    self.database = database
    self.runsDirectory = runsDirectory
  }

  @discardableResult
  func synchronize() throws -> (indexed: Int, dropped: Int) {
    let logger = database.logger
    let known = try database.wait { client in
      var rows: [String: (fingerprint: String, open: Bool)] = [:]
      for try await (id, fingerprint, closedAt) in try await client.query(
        "SELECT id, fingerprint, closed_at FROM runs", logger: logger
      ).decode((String, String, String?).self) {
        rows[id] = (fingerprint, closedAt == nil)
      }
      return rows
    }
    var present = Set<String>()
    var indexed = 0
    for id in runFolderIDs(in: runsDirectory) {
      let folder = RunFolder(path: runsDirectory + "/" + id)
      guard let fingerprint = RecordFingerprint.of(folder.recordPath) else { continue }
      present.insert(id)
      if let row = known[id], row.fingerprint == fingerprint, !row.open { continue }
      if try refresh(folder, forget: false) { indexed += 1 }
    }
    let gone = known.keys.filter { !present.contains($0) }
    if !gone.isEmpty {
      let ids = Array(gone)
      try database.wait { client in
        try await client.query("DELETE FROM runs WHERE id = ANY(\(ids))", logger: logger)
      }
    }
    rebuilt.withLockedValue { $0 = true }
    return (indexed, gone.count)
  }

  func refresh(_ folder: RunFolder) throws {
    try refresh(folder, forget: true)
  }

  /// Brings one run up to date; with `forget`, a folder that cannot be read leaves the index.
  ///
  /// - Returns: whether anything changed.
  @discardableResult
  private func refresh(_ folder: RunFolder, forget: Bool) throws -> Bool {
    let id = folder.id
    // Up to date (after a frame, whose append indexed it): one query, no transaction.
    if let fingerprint = RecordFingerprint.of(folder.recordPath), try isUpToDate(id, fingerprint: fingerprint) {
      return false
    }
    // Optimistic tries; the last holds the run's lock, so no approval, undo or frame changes
    // `run.json` under it (approvals of one run from several instances at once changed it under
    // five tries in a row, and an approval done was answered 409).
    for attempt in 0..<6 {
      let indexed =
        try attempt < 5 ? index(folder, forget: forget) : folder.withLock { try index(folder, forget: forget) }
      if let indexed { return indexed }
    }
    throw RunError("run \(id): its run.json kept changing while it was indexed")
  }

  /// One try of `refresh`: whether anything changed, or `nil` when `run.json` changed while it
  /// was read.
  private func index(_ folder: RunFolder, forget: Bool) throws -> Bool? {
    let logger = database.logger
    let id = folder.id
    guard let fingerprint = RecordFingerprint.of(folder.recordPath) else {
      if forget { try database.wait { try await $0.query("DELETE FROM runs WHERE id = \(id)", logger: logger) } }
      return false
    }
    // Only the records appended since, when `run.json` is the version indexed.
    let outcome = try database.wait { client in
      try await client.withTransaction(logger: logger) { connection -> Bool? in
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.indexLock))", logger: logger)
        guard let run = try await Self.run(id, on: connection), run.fingerprint == fingerprint else { return nil }
        guard run.closedAt == nil else { return false }
        return try await Self.follow(run, on: connection)
      }
    }
    if let outcome { return outcome }
    // A new version of `run.json`: the whole run, read here (a file, and an open run's records).
    guard let record = try? folder.load(), record.id == id else {
      if forget { try database.wait { try await $0.query("DELETE FROM runs WHERE id = \(id)", logger: logger) } }
      return false
    }
    let path = folder.recordPath
    let stored = try database.wait { client in
      try await client.withTransaction(logger: logger) { connection -> Bool in
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.indexLock))", logger: logger)
        // Changed while it was read: read again.
        guard RecordFingerprint.of(path) == fingerprint else { return false }
        try await Self.store(record, fingerprint: fingerprint, on: connection)
        return true
      }
    }
    return stored ? true : nil
  }

  /// Whether run `id`'s row holds `run.json` version `fingerprint` and, while the run is open,
  /// every record of its log.
  private func isUpToDate(_ id: String, fingerprint: String) throws -> Bool {
    let logger = database.logger
    return try database.wait { client in
      var upToDate = false
      for try await value in try await client.query(
        """
        SELECT r.fingerprint = \(fingerprint) AND (r.closed_at IS NOT NULL
          OR r.log_position = (SELECT coalesce(max(position), 0) FROM snapshot_records WHERE run_id = r.id))
        FROM runs r WHERE r.id = \(id)
        """, logger: logger
      ).decode(Bool.self) {
        upToDate = value
      }
      return upToDate
    }
  }

  func runs(_ query: RunQuery) throws -> (runs: [IndexedRun], total: Int) {
    var conditions: [String] = []
    var binds = PostgresBindings()
    if let branch = query.branch {
      binds.append(branch)
      conditions.append("branch = $\(binds.count)")
    }
    if let name = query.name {
      binds.append(name)
      conditions.append("name = $\(binds.count)")
    }
    if let verdict = query.verdict {
      binds.append(verdict.rawValue)
      conditions.append("verdict = $\(binds.count)")
    }
    if let open = query.open { conditions.append(open ? "closed_at IS NULL" : "closed_at IS NOT NULL") }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let countQuery = PostgresQuery(unsafeSQL: "SELECT count(*) FROM runs" + filter, binds: binds)
    var pageBinds = binds
    pageBinds.append(query.limit)
    pageBinds.append(query.offset)
    let pageQuery = PostgresQuery(
      unsafeSQL:
        "SELECT \(Self.columns) FROM runs\(filter) ORDER BY id DESC LIMIT $\(pageBinds.count - 1) OFFSET $\(pageBinds.count)",
      binds: pageBinds)
    let logger = database.logger
    return try database.wait { client in
      var total = 0
      for try await count in try await client.query(countQuery, logger: logger).decode(Int.self) { total = count }
      var runs: [IndexedRun] = []
      for try await row in try await client.query(pageQuery, logger: logger) { runs.append(try Self.indexedRun(row)) }
      return (runs, total)
    }
  }

  func openRunCount() throws -> Int {
    let logger = database.logger
    return try database.wait { client in
      var count = 0
      for try await value in try await client.query("SELECT count(*) FROM runs WHERE closed_at IS NULL", logger: logger)
        .decode(Int.self)
      {
        count = value
      }
      return count
    }
  }

  func unreadiness() -> String? {
    do {
      if let problem = try database.wait({ [database] _ in await database.unreachability() }) { return problem }
    } catch let unavailable as DatabaseUnavailable {
      // Known at once, without waiting for `SELECT 1`'s 2 s.
      return unavailable.reason
    } catch {
      return "the PostgreSQL database \(database.location.shown) does not answer: \(error)"
    }
    guard rebuilt.withLockedValue({ $0 }) else {
      // The rebuild at start-up failed (the database went away then): once more, now it answers.
      do {
        try synchronize()
        return nil
      } catch {
        return "the run index is being rebuilt from the run folders (\(PostgresDatabase.describe(error)))"
      }
    }
    return nil
  }

  /// Marks run `id` closed in the index if it is open: `true` for the one caller that closed it.
  func claimClose(_ id: String, at time: String) throws -> Bool {
    let logger = database.logger
    return try database.wait { client in
      var claimed = false
      for try await _ in try await client.query(
        "UPDATE runs SET closed_at = \(time) WHERE id = \(id) AND closed_at IS NULL RETURNING id", logger: logger)
      {
        claimed = true
      }
      return claimed
    }
  }

  /// Undoes `claimClose` when the close itself failed.
  func unclaimClose(_ id: String, at time: String) throws {
    let logger = database.logger
    try database.wait { client in
      try await client.query(
        "UPDATE runs SET closed_at = NULL WHERE id = \(id) AND closed_at = \(time)", logger: logger)
    }
  }

  // MARK: - Rows

  static let log = Logger(label: "snapdiff.postgres")

  private static let columns =
    "id, created_at, closed_at, name, branch, environment, record_mode, complete, snapshot_count, passed_count, "
    + "failed_count, new_count, missing_count, approved_count, rejected_count, skipped_count, error_count, "
    + "failing_count, verdict, fingerprint, log_position"

  private static func indexedRun(_ row: PostgresRow) throws -> IndexedRun {
    let all = try row.decode(
      (
        String, String, String?, String?, String?, String?, String, Bool, Int, Int, Int, Int, Int, Int, Int, Int, Int,
        Int, String, String, Int64
      ).self)
    let empty = RunRecord(
      id: all.0, createdAt: all.1, currentDirectory: "", baselinesDirectory: "", environment: nil, recordMode: .never,
      complete: false, snapshots: [])
    var run = IndexedRun(empty, fingerprint: all.19)
    run.closedAt = all.2
    run.name = all.3
    run.branch = all.4
    run.environment = all.5
    run.recordMode = all.6
    run.complete = all.7
    run.snapshotCount = all.8
    run.passedCount = all.9
    run.failedCount = all.10
    run.newCount = all.11
    run.missingCount = all.12
    run.approvedCount = all.13
    run.rejectedCount = all.14
    run.skippedCount = all.15
    run.errorCount = all.16
    run.failingCount = all.17
    run.verdict = all.18
    run.logPosition = Int(all.20)
    return run
  }

  private static func run(_ id: String, on connection: PostgresConnection) async throws -> IndexedRun? {
    for try await row in try await connection.query(
      "SELECT \(unescaped: columns) FROM runs WHERE id = \(id)", logger: log)
    {
      return try indexedRun(row)
    }
    return nil
  }

  private static func save(_ run: IndexedRun, on connection: PostgresConnection) async throws {
    try await connection.query(
      """
      INSERT INTO runs (\(unescaped: columns)) VALUES (\(run.id), \(run.createdAt), \(run.closedAt), \(run.name),
        \(run.branch), \(run.environment), \(run.recordMode), \(run.complete), \(run.snapshotCount), \(run.passedCount),
        \(run.failedCount), \(run.newCount), \(run.missingCount), \(run.approvedCount), \(run.rejectedCount),
        \(run.skippedCount), \(run.errorCount), \(run.failingCount), \(run.verdict), \(run.fingerprint),
        \(Int64(run.logPosition)))
      ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, closed_at = excluded.closed_at,
        name = excluded.name, branch = excluded.branch, environment = excluded.environment,
        record_mode = excluded.record_mode, complete = excluded.complete, snapshot_count = excluded.snapshot_count,
        passed_count = excluded.passed_count, failed_count = excluded.failed_count, new_count = excluded.new_count,
        missing_count = excluded.missing_count, approved_count = excluded.approved_count,
        rejected_count = excluded.rejected_count, skipped_count = excluded.skipped_count,
        error_count = excluded.error_count, failing_count = excluded.failing_count, verdict = excluded.verdict,
        fingerprint = excluded.fingerprint, log_position = excluded.log_position
      """, logger: log)
  }

  private static func save(_ snapshot: IndexedSnapshot, on connection: PostgresConnection) async throws {
    try await connection.query(
      """
      INSERT INTO run_snapshots (run_id, key, status, different_pixels, different_ratio, change_hash, error, failing)
      VALUES (\(snapshot.runId), \(snapshot.key), \(snapshot.status), \(snapshot.differentPixels),
        \(snapshot.differentRatio), \(snapshot.changeHash), \(snapshot.error), \(snapshot.failing))
      ON CONFLICT (run_id, key) DO UPDATE SET status = excluded.status, different_pixels = excluded.different_pixels,
        different_ratio = excluded.different_ratio, change_hash = excluded.change_hash, error = excluded.error,
        failing = excluded.failing
      """, logger: log)
  }

  private static func store(_ record: RunRecord, fingerprint: String, on connection: PostgresConnection) async throws {
    try await connection.query("DELETE FROM run_snapshots WHERE run_id = \(record.id)", logger: log)
    try await save(IndexedRun(record, fingerprint: fingerprint), on: connection)
    for snapshot in record.snapshots {
      try await save(IndexedSnapshot(snapshot, runID: record.id, recordMode: record.recordMode), on: connection)
    }
  }

  /// Adds the run's records after its `logPosition`, one row each, and moves it on.
  private static func follow(_ run: IndexedRun, on connection: PostgresConnection) async throws -> Bool {
    var run = run
    let decoder = JSONDecoder()
    var records: [(Int64, SnapshotRecord)] = []
    for try await (position, text) in try await connection.query(
      "SELECT position, record FROM snapshot_records WHERE run_id = \(run.id) AND position > \(Int64(run.logPosition)) ORDER BY position",
      logger: log
    ).decode((Int64, String).self) {
      if let record = try? decoder.decode(SnapshotRecord.self, from: Data(text.utf8)) {
        records.append((position, record))
      }
    }
    guard let last = records.last?.0 else { return false }
    let recordMode = RecordMode(rawValue: run.recordMode) ?? .never
    for (_, snapshot) in records {
      for try await (status, error, failing) in try await connection.query(
        "SELECT status, error, failing FROM run_snapshots WHERE run_id = \(run.id) AND key = \(snapshot.key)",
        logger: log
      ).decode((String, String?, Bool).self) {
        var old = IndexedSnapshot(
          SnapshotRecord(key: snapshot.key, status: .passed), runID: run.id, recordMode: recordMode)
        old.status = status
        old.error = error
        old.failing = failing
        run.count(old, -1)
      }
      let row = IndexedSnapshot(snapshot, runID: run.id, recordMode: recordMode)
      run.count(row, 1)
      try await save(row, on: connection)
    }
    run.logPosition = Int(last)
    run.verdict = RunVerdict(snapshots: run.snapshotCount, failing: run.failingCount).rawValue
    try await save(run, on: connection)
    return true
  }
}

/// The run folders' names in `runsDirectory`: every folder but `last` (a link) and hidden ones.
func runFolderIDs(in runsDirectory: String) -> [String] {
  ((try? FileSystem.entries(of: runsDirectory)) ?? []).filter { name in
    name != "last" && name.utf8.first != UInt8(ascii: ".")
      && FileSystem.kind(of: runsDirectory + "/" + name) == .directory
  }
}
