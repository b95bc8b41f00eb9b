import GRDB
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The service's run list and the figures it filters on, kept in step with the run folders:
/// in SQLite by default (`SQLiteRunIndex`), in PostgreSQL when several instances share the
/// folders (`PostgresRunIndex`). Every call blocks: call it through `Blocking.run`.
protocol RunIndex: Sendable {
  /// Brings the index in step with every run folder.
  @discardableResult
  func synchronize() throws -> (indexed: Int, dropped: Int)
  /// Brings one run up to date after the service changed it.
  func refresh(_ folder: RunFolder) throws
  /// The runs, newest first.
  func runs(_ query: RunQuery) throws -> (runs: [IndexedRun], total: Int)
  /// How many runs are open.
  func openRunCount() throws -> Int
  /// Why the index cannot serve now, or `nil` when it can (`GET /api/v1/ready`).
  func unreadiness() -> String?
}

/// Identifies one version of a file: inode, size and modification time in nanoseconds.
enum RecordFingerprint {
  static func of(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let modified = info.modificationTime
    return "\(info.st_ino):\(info.st_size):\(modified.tv_sec).\(modified.tv_nsec)"
  }
}

/// Filters and paging for the run list.
struct RunQuery: Sendable {
  var limit = 50
  var offset = 0
  var branch: String?
  var name: String?
  var verdict: RunVerdict?
  /// Only runs still open (`true`) or closed (`false`).
  var open: Bool?
}

/// A row of the `run` table.
struct IndexedRun: Codable, Sendable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "run"

  var id: String
  var createdAt: String
  var closedAt: String?
  var name: String?
  var branch: String?
  var environment: String?
  var recordMode: String
  var complete: Bool
  var snapshotCount: Int
  var passedCount: Int
  var failedCount: Int
  var newCount: Int
  var missingCount: Int
  var approvedCount: Int
  var rejectedCount: Int
  var skippedCount: Int
  var errorCount: Int
  var verdict: String
  var fingerprint: String
  /// How much of the run's log (`SnapshotLog`) the rows hold.
  var logPosition: Int
  /// Snapshots that fail the run (`RunVerdict.fails(with:recordMode:)`).
  var failingCount: Int

  static func countColumn(_ status: SnapshotStatus) -> String { status.rawValue + "Count" }

  init(_ record: RunRecord, fingerprint: String) {
    let counts = record.counts
    id = record.id
    createdAt = record.createdAt
    closedAt = record.closedAt
    name = record.name
    branch = record.branch
    environment = record.environment
    recordMode = record.recordMode.rawValue
    complete = record.complete
    snapshotCount = record.snapshots.count
    passedCount = counts[.passed, default: 0]
    failedCount = counts[.failed, default: 0]
    newCount = counts[.new, default: 0]
    missingCount = counts[.missing, default: 0]
    approvedCount = counts[.approved, default: 0]
    rejectedCount = counts[.rejected, default: 0]
    skippedCount = counts[.skipped, default: 0]
    errorCount = record.snapshots.count { $0.error != nil }
    verdict = RunVerdict(record).rawValue
    self.fingerprint = fingerprint
    logPosition = record.logPosition ?? 0
    failingCount = record.snapshots.count { RunVerdict.fails(with: $0, recordMode: record.recordMode) }
  }

  /// Counts `snapshot` in (`delta` 1) or out (-1) of the run's figures.
  mutating func count(_ snapshot: IndexedSnapshot, _ delta: Int) {
    snapshotCount += delta
    if snapshot.error != nil { errorCount += delta }
    if snapshot.failing { failingCount += delta }
    switch SnapshotStatus(rawValue: snapshot.status) {
    case .passed: passedCount += delta
    case .failed: failedCount += delta
    case .new: newCount += delta
    case .missing: missingCount += delta
    case .approved: approvedCount += delta
    case .rejected: rejectedCount += delta
    case .skipped: skippedCount += delta
    case nil: break
    }
  }

  /// The counts by status name, statuses with none left out.
  var counts: [String: Int] {
    let all: [(SnapshotStatus, Int)] = [
      (.passed, passedCount), (.failed, failedCount), (.new, newCount), (.missing, missingCount),
      (.approved, approvedCount), (.rejected, rejectedCount), (.skipped, skippedCount),
    ]
    return Dictionary(uniqueKeysWithValues: all.filter { $0.1 > 0 }.map { ($0.0.rawValue, $0.1) })
  }
}

/// A row of the `snapshot` table.
struct IndexedSnapshot: Codable, Sendable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "snapshot"

  var runId: String
  var key: String
  var status: String
  var differentPixels: Int
  var differentRatio: Double
  var changeHash: String?
  var error: String?
  var failing: Bool

  init(_ snapshot: SnapshotRecord, runID: String, recordMode: RecordMode) {
    runId = runID
    failing = RunVerdict.fails(with: snapshot, recordMode: recordMode)
    key = snapshot.key
    status = snapshot.status.rawValue
    differentPixels = snapshot.differentPixels
    differentRatio = snapshot.differentRatio
    changeHash = snapshot.changeHash
    error = snapshot.error
  }
}
