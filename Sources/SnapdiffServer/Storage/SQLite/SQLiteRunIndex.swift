import GRDB
import NIOConcurrencyHelpers
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The service's run history and review state: an SQLite index (through GRDB) of the run
/// folders under `<data>/runs`, one row per run and one per snapshot.
///
/// `run.json` and an open run's log (`snapshots.jsonl`) are the source of truth, shared with the
/// CLI (`check`, `approve`, `status`). The index is synchronised from the folders when the server
/// starts and whenever runs are listed (a run whose `run.json` changed since it was indexed is read
/// again, an open run's records appended since are added, one whose folder is gone is dropped),
/// and refreshed right after every change the service makes: a frame costs the index one row,
/// whatever the size of its run. It is read and
/// written in the same transaction, so the last refresh always reads the newest file: the index
/// never holds an older review state than a `run.json` it has seen. Deleting the database file
/// loses nothing: the next start rebuilds it.
final class SQLiteRunIndex: RunIndex {
  let database: DatabaseQueue
  let runsDirectory: String
  /// Rebuilt from the run folders since the server started (`synchronize` went through once).
  private let rebuilt = NIOLockedValueBox(false)
  /// The database file, and its inode when it was opened.
  private let path: String
  private let inode: UInt64?

  /// Opens (or creates) the index at `path` for the run folders in `runsDirectory`.
  init(path: String, runsDirectory: String) throws {
    var configuration = Configuration()
    // Another `snapdiff serve` on the same data folder waits for the lock instead of failing.
    configuration.busyMode = .timeout(10)
    configuration.label = "snapdiff.index"
    // Write-ahead logging, flushed at checkpoints: a frame's row costs no fsync. The index can
    // always be rebuilt from the run folders, whose records are flushed before a verdict is sent.
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    database = try DatabaseQueue(path: path, configuration: configuration)
    self.runsDirectory = runsDirectory
    self.path = path
    inode = Self.inode(of: path)
    try Self.migrator.migrate(database)
  }

  private static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: runs and snapshots") { db in
      try db.create(table: IndexedRun.databaseTableName) { table in
        table.primaryKey("id", .text)
        table.column("createdAt", .text).notNull()
        table.column("closedAt", .text)
        table.column("name", .text)
        table.column("branch", .text)
        table.column("environment", .text)
        table.column("recordMode", .text).notNull()
        table.column("complete", .boolean).notNull()
        table.column("snapshotCount", .integer).notNull()
        for status in SnapshotStatus.allCases {
          table.column(IndexedRun.countColumn(status), .integer).notNull().defaults(to: 0)
        }
        table.column("errorCount", .integer).notNull()
        table.column("verdict", .text).notNull()
        table.column("fingerprint", .text).notNull()
      }
      try db.create(table: IndexedSnapshot.databaseTableName) { table in
        table.column("runId", .text).notNull().references(IndexedRun.databaseTableName, onDelete: .cascade)
        table.column("key", .text).notNull()
        table.column("status", .text).notNull()
        table.column("differentPixels", .integer).notNull()
        table.column("differentRatio", .double).notNull()
        table.column("changeHash", .text)
        table.column("error", .text)
        table.primaryKey(["runId", "key"])
      }
      try db.create(index: "snapshot_on_key", on: IndexedSnapshot.databaseTableName, columns: ["key"])
    }
    // A run without snapshots has the verdict `empty`; indexes made before this migration hold `passed`.
    migrator.registerMigration("v2: empty runs") { db in
      try db.execute(sql: "UPDATE run SET verdict = 'empty' WHERE snapshotCount = 0")
    }
    // Open runs' logs, followed record by record: how far, and what the verdict needs.
    migrator.registerMigration("v3: snapshot logs") { db in
      try db.alter(table: IndexedRun.databaseTableName) { table in
        table.add(column: "logPosition", .integer).notNull().defaults(to: 0)
        table.add(column: "failingCount", .integer).notNull().defaults(to: 0)
      }
      try db.alter(table: IndexedSnapshot.databaseTableName) { table in
        table.add(column: "failing", .boolean).notNull().defaults(to: false)
      }
      // Every run read again, to fill them.
      try db.execute(sql: "UPDATE run SET fingerprint = ''")
    }
    return migrator
  }

  /// Brings the index in step with every run folder.
  ///
  /// - Returns: how many runs were (re)indexed and how many dropped.
  @discardableResult
  func synchronize() throws -> (indexed: Int, dropped: Int) {
    try database.write { db in
      let known = try Dictionary(
        Row.fetchAll(db, sql: "SELECT id, fingerprint, logPosition, closedAt FROM run").map { row in
          (row["id"] as String, (row["fingerprint"] as String, row["logPosition"] as Int, row["closedAt"] as String?))
        },
        uniquingKeysWith: { first, _ in first })
      var present = Set<String>()
      var indexed = 0
      for id in runFolderIDs() {
        let folder = RunFolder(path: runsDirectory + "/" + id)
        // The fingerprint first, then the file: what is indexed is never older than it.
        guard let fingerprint = Self.fingerprint(of: folder.recordPath) else { continue }
        if let (indexedPrint, position, closedAt) = known[id], indexedPrint == fingerprint {
          present.insert(id)
          // An open run: the records appended to its log since.
          if closedAt == nil, try Self.follow(folder, from: position, in: db) { indexed += 1 }
          continue
        }
        // A folder being created, or a damaged record, is left out until it can be read.
        guard let record = try? folder.load(), record.id == id else { continue }
        present.insert(id)
        try Self.store(record, fingerprint: fingerprint, in: db)
        indexed += 1
      }
      let gone = known.keys.filter { !present.contains($0) }
      for id in gone {
        try IndexedRun.deleteOne(db, key: id)
      }
      rebuilt.withLockedValue { $0 = true }
      return (indexed, gone.count)
    }
  }

  /// Why the index cannot serve now, or `nil` when it can: it must have been rebuilt from the
  /// run folders since the start, and answer a query (what `GET /api/v1/ready` asks).
  func unreadiness() -> String? {
    guard rebuilt.withLockedValue({ $0 }) else { return "the run index is being rebuilt from the run folders" }
    guard let inode, Self.inode(of: path) == inode else {
      // Removed or replaced while open: what the server writes no longer reaches the file.
      return "the run index database is gone from <data>/serve.sqlite (restart the server to rebuild it)"
    }
    do {
      _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM run") }
      return nil
    } catch {
      return "the run index cannot be read: \(error)"
    }
  }

  private static func inode(of path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
  }

  /// How many runs are open (not closed), as indexed.
  func openRunCount() throws -> Int {
    try database.read { db in try IndexedRun.filter(Column("closedAt") == nil).fetchCount(db) }
  }

  /// Brings one run up to date (after the service changed it): the records its log took since
  /// it was indexed, or, when its `run.json` changed, the whole run again.
  func refresh(_ folder: RunFolder) throws {
    try database.write { db in
      guard let fingerprint = Self.fingerprint(of: folder.recordPath) else {
        try IndexedRun.deleteOne(db, key: folder.id)
        return
      }
      if let run = try IndexedRun.fetchOne(db, key: folder.id), run.fingerprint == fingerprint {
        if run.closedAt == nil { try Self.follow(folder, from: run.logPosition, in: db) }
        return
      }
      guard let record = try? folder.load() else {
        try IndexedRun.deleteOne(db, key: folder.id)
        return
      }
      try Self.store(record, fingerprint: fingerprint, in: db)
    }
  }

  /// Adds the records of `folder`'s log after `position` to its indexed run, one row each.
  ///
  /// - Returns: whether there were any.
  @discardableResult
  private static func follow(_ folder: RunFolder, from position: Int, in db: Database) throws -> Bool {
    let (records, end) = try folder.snapshotRecords.records(after: position)
    guard end != position, var run = try IndexedRun.fetchOne(db, key: folder.id) else { return false }
    let recordMode = RecordMode(rawValue: run.recordMode) ?? .never
    for snapshot in records {
      if let old = try IndexedSnapshot.fetchOne(db, key: ["runId": run.id, "key": snapshot.key]) {
        run.count(old, -1)
      }
      let row = IndexedSnapshot(snapshot, runID: run.id, recordMode: recordMode)
      run.count(row, 1)
      try row.save(db)
    }
    run.logPosition = end
    run.verdict = RunVerdict(snapshots: run.snapshotCount, failing: run.failingCount).rawValue
    try run.update(db)
    return true
  }

  /// The runs, newest first.
  func runs(_ query: RunQuery) throws -> (runs: [IndexedRun], total: Int) {
    try database.read { db in
      var request = IndexedRun.all()
      if let branch = query.branch { request = request.filter(Column("branch") == branch) }
      if let name = query.name { request = request.filter(Column("name") == name) }
      if let verdict = query.verdict { request = request.filter(Column("verdict") == verdict.rawValue) }
      if let open = query.open {
        request = request.filter(open ? Column("closedAt") == nil : Column("closedAt") != nil)
      }
      let total = try request.fetchCount(db)
      let runs = try request.order(Column("id").desc).limit(query.limit, offset: query.offset).fetchAll(db)
      return (runs, total)
    }
  }

  /// One run as indexed, or `nil`.
  func run(_ id: String) throws -> IndexedRun? {
    try database.read { db in try IndexedRun.fetchOne(db, key: id) }
  }

  /// One run's snapshots as indexed, in key order.
  func snapshots(ofRun id: String) throws -> [IndexedSnapshot] {
    try database.read { db in
      try IndexedSnapshot.filter(Column("runId") == id).order(Column("key")).fetchAll(db)
    }
  }

  private static func store(_ record: RunRecord, fingerprint: String, in db: Database) throws {
    try IndexedSnapshot.filter(Column("runId") == record.id).deleteAll(db)
    try IndexedRun(record, fingerprint: fingerprint).save(db)
    for snapshot in record.snapshots {
      try IndexedSnapshot(snapshot, runID: record.id, recordMode: record.recordMode).insert(db)
    }
  }

  /// The run folders' names: every folder but `last` (a link) and hidden ones.
  private func runFolderIDs() -> [String] {
    ((try? FileSystem.entries(of: runsDirectory)) ?? []).filter { name in
      name != "last" && name.utf8.first != UInt8(ascii: ".")
        && FileSystem.kind(of: runsDirectory + "/" + name) == .directory
    }
  }

  /// Identifies one version of a file: inode, size and modification time in nanoseconds. Every
  /// write of `run.json` is a rename of a new file, so its inode changes each time. (An open run's
  /// log grows in place: how far it is indexed is `logPosition`.)
  static func fingerprint(of path: String) -> String? {
    RecordFingerprint.of(path)
  }
}
