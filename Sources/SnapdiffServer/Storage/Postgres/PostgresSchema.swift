import Logging
import PostgresNIO

/// The service's tables in PostgreSQL, by numbered migrations recorded in `schema_version`: at
/// start-up each instance applies those the database has not had, in one transaction under an
/// advisory lock, so instances starting together apply each once. A database whose schema is
/// newer than this build knows is refused (an older instance must not write to it).
enum PostgresSchema {
  struct Migration {
    var version: Int
    var name: String
    var statements: [PostgresQuery]
  }

  /// Every migration, oldest first. Never edit one that has shipped: add the next.
  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "runs, snapshots and snapshot records",
      statements: [
        // The run index (the same figures as the SQLite index's `run` table): one row per run
        // folder, brought up to date after every change any instance makes.
        """
        CREATE TABLE runs (
          id text PRIMARY KEY,
          created_at text NOT NULL,
          closed_at text,
          name text,
          branch text,
          environment text,
          record_mode text NOT NULL,
          complete boolean NOT NULL,
          snapshot_count integer NOT NULL,
          passed_count integer NOT NULL,
          failed_count integer NOT NULL,
          new_count integer NOT NULL,
          missing_count integer NOT NULL,
          approved_count integer NOT NULL,
          rejected_count integer NOT NULL,
          skipped_count integer NOT NULL,
          error_count integer NOT NULL,
          failing_count integer NOT NULL,
          verdict text NOT NULL,
          fingerprint text NOT NULL,
          log_position bigint NOT NULL
        )
        """,
        """
        CREATE TABLE run_snapshots (
          run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
          key text NOT NULL,
          status text NOT NULL,
          different_pixels bigint NOT NULL,
          different_ratio double precision NOT NULL,
          change_hash text,
          error text,
          failing boolean NOT NULL,
          PRIMARY KEY (run_id, key)
        )
        """,
        // An open run's verdicts as they arrive (`SnapshotRecordStore`): the position is the
        // sequence number, increasing within a run because appends hold the run's lock.
        """
        CREATE TABLE snapshot_records (
          run_id text NOT NULL,
          position bigserial NOT NULL,
          record text NOT NULL,
          PRIMARY KEY (run_id, position)
        )
        """,
      ])
  ]

  /// The advisory lock key migrations hold (any fixed number; the locks of runs are hashes).
  static let migrationLock: Int64 = 0x736E_6170_6469_6666  // "snapdiff"

  /// Applies the migrations `connection`'s database lacks.
  ///
  /// - Throws: `ServerConfigurationError` naming the migration that failed and why.
  static func migrate(_ connection: PostgresConnection, logger: Logger, shown: String) async throws {
    var current = 0
    do {
      try await connection.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS schema_version (
            version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
          """, logger: logger)
        for try await version in try await connection.query(
          "SELECT coalesce(max(version), 0) FROM schema_version", logger: logger
        ).decode(Int.self) {
          current = version
        }
      }
    } catch {
      throw ServerConfigurationError(
        "cannot read the schema version of \(shown): \(PostgresDatabase.describe(error))")
    }
    let newest = migrations.last?.version ?? 0
    if current > newest {
      throw ServerConfigurationError(
        "the database \(shown) has schema version \(current), newer than this snapdiff knows (\(newest)): upgrade snapdiff"
      )
    }
    for migration in migrations where migration.version > current {
      do {
        try await connection.withTransaction(logger: logger) { connection in
          try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
          // Another instance may have applied it while this one waited for the lock.
          var applied = false
          for try await _ in try await connection.query(
            "SELECT 1 FROM schema_version WHERE version = \(migration.version)", logger: logger
          ) {
            applied = true
          }
          guard !applied else { return }
          for statement in migration.statements { try await connection.query(statement, logger: logger) }
          try await connection.query(
            "INSERT INTO schema_version (version, name) VALUES (\(migration.version), \(migration.name))",
            logger: logger)
        }
      } catch {
        throw ServerConfigurationError(
          "migration \(migration.version) (\(migration.name)) of \(shown) failed, nothing of it was applied: \(PostgresDatabase.describe(error))"
        )
      }
    }
  }
}
