#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run's folder, `.snapdiff/runs/<run-id>/`: `run.json`, copies of the current frames that
/// differ or are new (`current/<key>.png`), diff images (`diff/<key>.png`) and the reports.
/// `.snapdiff/runs/last` links to the newest.
///
/// Every write into the folder goes through `confinement`, so a symbolic link placed inside it
/// cannot lead a write out of it.
public struct RunFolder: Sendable {
  /// The folder, absolute.
  public let path: String
  public let id: String
  /// The rule every write and removal in the run folder goes through.
  public let confinement: Confinement

  public var recordPath: String { path + "/run.json" }

  public init(path: String) {
    self.path = FileSystem.absolute(path)
    id = String(PathText.components(self.path).last ?? "")
    confinement = Confinement(root: self.path, place: "run folder")
  }

  /// Makes a new run folder in `runsDirectory` named by the current UTC time
  /// (`20261122-034512-123`), so that ids sort by time.
  public static func create(in runsDirectory: String) throws -> (folder: RunFolder, createdAt: String) {
    try FileSystem.createDirectories(runsDirectory)
    let stamp = timestamp()
    var id = stamp.id
    var suffix = 2
    while mkdir(runsDirectory + "/" + id, 0o755) != 0 {
      guard errno == EEXIST else {
        throw FileError.system(path: runsDirectory + "/" + id, action: "create the run folder")
      }
      id = "\(stamp.id)-\(suffix)"
      suffix += 1
    }
    return (RunFolder(path: runsDirectory + "/" + id), stamp.iso)
  }

  /// The run `id` in `runsDirectory`, or the last one when `id` is `nil`.
  ///
  /// - Throws: `RunError` when there is no such run or `id` cannot name one
  ///   (`checkID`); `StoreEscapeError` when the folder is a link that leads out of the runs folder.
  public static func open(in runsDirectory: String, id: String?) throws -> RunFolder {
    let name = id ?? "last"
    if name != "last" { try checkID(name) }
    let path = runsDirectory + "/" + name
    guard FileSystem.isDirectory(path) else {
      if id == nil {
        throw RunError("no runs yet in \(runsDirectory): run `snapdiff check CURRENT_DIR` first")
      }
      let known = (try? FileSystem.entries(of: runsDirectory))?.filter { $0 != "last" }.suffix(5) ?? []
      let hint = known.isEmpty ? "" : " (recent runs: \(known.joined(separator: ", ")))"
      throw RunError("no run '\(name)' in \(runsDirectory)\(hint)")
    }
    if name == "last", let target = FileSystem.linkTarget(path) {
      return try inside(runsDirectory, id: target)
    }
    return try inside(runsDirectory, id: name)
  }

  /// Whether `id` can name a run folder: one file name of 1 to 255 bytes, not hidden (so never
  /// `.` or `..`), without `/`, a backslash or control characters, and not `last` (the link to
  /// the newest run). The one check every run id that comes from outside (a command line, a
  /// request, the approval log, a `run.json`) goes through before it becomes a path.
  public static func isValidID(_ id: String) -> Bool {
    let bytes = id.utf8
    return !bytes.isEmpty && bytes.count <= 255 && bytes.first != UInt8(ascii: ".") && id != "last"
      && !PathText.containsSeparator(id) && !bytes.contains(UInt8(ascii: "\\"))
      && !id.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  /// `isValidID`, as an error that names the id.
  public static func checkID(_ id: String) throws(RunError) {
    guard isValidID(id) else {
      throw RunError(
        "'\(id)' is not a run id: one folder name in the runs folder (not hidden, no '/', no control characters)")
    }
  }

  /// The folder of run `id` in `runsDirectory`, after `checkID`, and checked to lie inside the
  /// runs folder (a run folder that is a link leading out of it is refused), whether or not it
  /// exists yet: what every read or write of a run named by an id goes through.
  ///
  /// - Throws: `RunError` for an id that cannot name a run; `StoreEscapeError` for a link out.
  public static func inside(_ runsDirectory: String, id: String) throws -> RunFolder {
    try checkID(id)
    let runs = FileSystem.absolute(runsDirectory)
    let path = runs + "/" + id
    try Confinement(root: runs, place: "runs folder").check(path)
    return RunFolder(path: path)
  }

  /// Points `<runsDirectory>/last` at this run.
  public func markAsLast() throws {
    let runs = PathText.parent(of: path)
    try FileSystem.replaceSymbolicLink(at: runs + "/last", pointingTo: id)
  }

  /// The run's log of verdicts as they arrive (`SnapshotLog`): an open service run's snapshots
  /// are there until it closes, rather than in `run.json`.
  public var snapshotLog: SnapshotLog { SnapshotLog(path: path + "/" + SnapshotLog.fileName) }

  /// Where the run's verdicts go as they arrive: its log (`snapshotLog`), or the records of the
  /// backend attached to the run's folder (`StorageBackend`: a service's PostgreSQL table).
  public var snapshotRecords: any SnapshotRecordStore {
    StorageBackend.serving(path)?.records.map { $0(id) } ?? snapshotLog
  }

  /// The run's record: `run.json`, and for an open run the snapshots its log holds beyond it
  /// (decoded once while both files are unchanged: see `RunRecordCache`; from a database backend,
  /// read on every call, so another instance's records are never missed).
  public func load() throws -> RunRecord {
    let stored = try loadStored()
    guard stored.closedAt == nil else { return stored }
    let records = snapshotRecords
    guard let log = records as? SnapshotLog else {
      let (appended, end) = try records.records(after: stored.logPosition ?? 0)
      return stored.applying(appended, end: end)
    }
    return try RunRecordCache.shared.record(at: log.path, after: recordPath) {
      // `run.json` is read again here, after the cache stamped both files: the record read above
      // may predate the stamp (a reviewer's `update` in between), and folding the log into it
      // would keep that older record under the newer file's stamp, losing the update.
      let stored = try loadStored()
      guard stored.closedAt == nil else { return stored }
      let (records, end) = try log.records(after: stored.logPosition ?? 0)
      return stored.applying(records, end: end)
    }
  }

  /// `run.json` as written, without the snapshots an open run's log holds beyond it: what the
  /// run is (open or closed, its store, its record mode) at the cost of a `stat` while the file is
  /// unchanged.
  public func loadStored() throws -> RunRecord {
    guard FileSystem.isFile(recordPath) else { throw RunError("\(recordPath): no run record here") }
    return try RunRecordCache.shared.record(at: recordPath) {
      try RunRecord.decode(FileIO.read(recordPath, limit: 1 << 30), path: recordPath)
    }
  }

  public func save(_ record: RunRecord) throws {
    try confinement.write(record.encoded(), to: recordPath)
  }

  /// Reads, changes and writes `run.json` under the run's lock, so concurrent reviewers never
  /// lose each other's changes. An open run's log is folded in (`logPosition` says how far).
  @discardableResult
  public func update(_ change: (inout RunRecord) throws -> Void) throws -> RunRecord {
    try withLock {
      var record = try load()
      try change(&record)
      try save(record)
      // Under the lock no other writer can replace the file between the save and this.
      RunRecordCache.shared.wrote(record, to: recordPath)
      return record
    }
  }

  /// Runs `body` holding the run's lock (`.lock` in the folder): what `update` and every
  /// append to the run's log hold.
  public func withLock<T>(_ body: () throws -> T) throws -> T {
    try confinement.check(path + "/.lock")
    return try FileLock.withLock(path + "/.lock", rank: .run, body)
  }

  /// Where this run keeps its copy of `key`'s current frame.
  public func currentCopyPath(for key: SnapshotKey) -> String { path + "/current/" + key.relativePath() }

  /// Where this run writes `key`'s diff image.
  public func diffPath(for key: SnapshotKey) -> String { path + "/diff/" + key.relativePath() }

  /// `absolutePath` relative to this folder.
  public func relative(_ absolutePath: String) -> String {
    FileSystem.relativePath(from: path, to: absolutePath)
  }

  /// A path from `run.json` made absolute again.
  public func resolve(_ relativePath: String) -> String {
    FileSystem.absolute(relativePath, relativeTo: path)
  }

  /// The UTC time as a run id and as ISO 8601.
  public static func timestamp() -> (id: String, iso: String) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int = 2) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let millis = pad(Int32(now.tv_nsec / 1_000_000), 3)
    let date = "\(pad(parts.tm_year + 1900, 4))\(pad(parts.tm_mon + 1))\(pad(parts.tm_mday))"
    let time = "\(pad(parts.tm_hour))\(pad(parts.tm_min))\(pad(parts.tm_sec))"
    let iso =
      "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
      + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(millis)Z"
    return ("\(date)-\(time)-\(millis)", iso)
  }
}
