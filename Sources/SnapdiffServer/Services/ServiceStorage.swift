import SnapdiffCore

/// What a `RunService` is handed to keep its runs with: the run index, the PostgreSQL database
/// when there is one, and the `StorageBackend` its folders' run records and locks go through.
/// Built from a configuration by ``make(for:)``; a test hands its own.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ServiceStorage: Sendable {
  var index: any RunIndex
  var postgres: PostgresDatabase?
  var backend: StorageBackend

  /// The storage `configuration` names: with `--database postgres://…`, the run index, the run
  /// records and advisory locks in that database; otherwise the SQLite index in the data folder,
  /// each run's log and `flock` alone.
  static func make(for configuration: ServerConfiguration) throws -> ServiceStorage {
    guard let location = configuration.database else {
      try FileSystem.createDirectories(configuration.runsDirectory)
      let index = try SQLiteRunIndex(path: configuration.databasePath, runsDirectory: configuration.runsDirectory)
      return ServiceStorage(index: index, postgres: nil, backend: StorageBackend())
    }
    // Every lock held at once by a thread that blocks (workers, `Blocking`'s four), a few deep,
    // and the queries beside them.
    let database = PostgresDatabase(location, maximumConnections: 3 * (configuration.workers + 4) + 8)
    let runsDirectory = configuration.runsDirectory
    let backend = StorageBackend(
      records: { runID in PostgresSnapshotRecords(database: database, runID: runID, runsDirectory: runsDirectory) },
      locks: AdvisoryLocks(
        database: database, dataDirectory: configuration.dataDirectory, baselines: configuration.store.root))
    return ServiceStorage(
      index: PostgresRunIndex(database: database, runsDirectory: runsDirectory), postgres: database, backend: backend)
  }
}
