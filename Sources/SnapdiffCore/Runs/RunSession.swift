/// A run that receives its snapshots one at a time, as `snapdiff serve` does for remote test
/// runners: open it, submit frames (each compared at once, exactly as `check` compares), close it.
/// The run folder is the same as `check`'s, so `status`, `approve` and the reports work on it.
///
/// ```swift
/// let session = try RunSession.open(runsDirectory: ".snapdiff/runs", store: store, name: "nightly")
/// let record = try session.submit(key: "Home - test_search/Home", png: bytes)
/// let run = try session.close()
/// ```
public struct RunSession: Sendable {
  public let folder: RunFolder
  public let store: BaselineStore
  public var options: DiffOptions
  public var recordMode: RecordMode
  public var decoder: PNGDecoder
  /// The project config's ignore rules (regions by key glob), applied as `check` applies them.
  public var config: ProjectConfig
  /// Told how long decoding and comparing each frame took (the service's `/metrics`).
  public var observer: (any CheckObserver)?

  /// The folder frames are received in: `<run>/incoming/<key>.png` (and `.tree.json`,
  /// `.snapdiff.json`).
  public var incoming: String { folder.path + "/" + Self.incomingDirectory }

  /// The current folder of every session run, relative to its run folder (what tells a service
  /// run from a `check` run in `run.json`).
  public static let incomingDirectory = "incoming"

  /// What checks each frame received, and the missing ones at the close: the run's options and
  /// `snapdiff.json`, one frame at a time.
  var checker: RunChecker {
    RunChecker(
      currentDirectory: incoming, store: store, runsDirectory: runsDirectory, options: options, config: config,
      recordMode: recordMode, jobs: 1, decoder: decoder)
  }

  /// Opens a new run in `runsDirectory`.
  /// A run on a branch reads and writes the branch overlays `store` carries (`BranchOverlay`).
  public static func open(
    runsDirectory: String, store: BaselineStore, name: String? = nil, branch: String? = nil, baseBranch: String? = nil,
    options: DiffOptions = DiffOptions(), recordMode: RecordMode = .never, decoder: PNGDecoder = PNGDecoder(),
    config: ProjectConfig = ProjectConfig(), commit: String? = nil, mergeBase: String? = nil
  ) throws -> RunSession {
    // An environment folder that is a link out of the store is refused before the run exists.
    try store.checkConfined()
    let (folder, createdAt) = try RunFolder.create(in: FileSystem.absolute(runsDirectory))
    let session = RunSession(
      folder: folder, store: store, options: options, recordMode: recordMode, decoder: decoder, config: config)
    try folder.confinement.createFolders(session.incoming)
    var record = RunRecord(
      id: folder.id, createdAt: createdAt, currentDirectory: Self.incomingDirectory,
      baselinesDirectory: folder.relative(store.root), environment: store.environment,
      recordMode: recordMode, complete: false, snapshots: [])
    record.name = name
    record.branch = branch
    record.baseBranch = baseBranch
    record.commit = commit
    record.mergeBase = mergeBase
    record.overlays = store.overlays.isEmpty ? nil : store.overlays
    record.comparison = session.checker.rule.recordedSettings
    try folder.save(record)
    try RunReports.write(record, to: folder)
    try folder.markAsLast()
    return session
  }

  /// Reopens the run in `folder` on the store at `storeRoot` (the service's): its environment,
  /// overlays and record mode come from `run.json`, which must name that same store
  /// (`RunFolder.store(at:for:)`).
  public static func reopen(
    _ folder: RunFolder, storeRoot: String, options: DiffOptions = DiffOptions(), decoder: PNGDecoder = PNGDecoder(),
    config: ProjectConfig = ProjectConfig()
  ) throws -> RunSession {
    let record = try folder.loadStored()
    let store = try folder.store(at: storeRoot, for: record)
    return RunSession(
      folder: folder, store: store, options: options, recordMode: record.recordMode, decoder: decoder, config: config)
  }

  private init(
    folder: RunFolder, store: BaselineStore, options: DiffOptions, recordMode: RecordMode, decoder: PNGDecoder,
    config: ProjectConfig
  ) {
    self.folder = folder
    self.store = store
    self.options = options
    self.recordMode = recordMode
    self.decoder = decoder
    self.config = config
  }

  /// Receives the frame of `key` (a PNG, a tree, or both; settings with masks, match level and
  /// tolerances), compares it against the store, and records the verdict in the run's log
  /// (`SnapshotLog`; `run.json` takes it at `close`), replacing an earlier submission of the same
  /// key. What it costs does not grow with the run: nothing here reads or writes all of the
  /// run's snapshots.
  ///
  /// - Throws: `KeyError` for a key that could leave the store (`StoreEscapeError` through a
  ///   symbolic link), `RunError` when the run is
  ///   closed or neither a PNG nor a tree is given, `PNGError`/`ConfigurationError` for input
  ///   that is not valid (nothing is recorded then).
  @discardableResult
  public func submit(
    key rawKey: String, png: [UInt8]? = nil, tree: ElementTree? = nil, settings: SnapshotSettings? = nil
  )
    throws -> SnapshotRecord
  {
    let key = try SnapshotKey(rawKey)
    // A key whose baseline would be written through a link out of the store is refused first.
    try store.checkConfined(key)
    // Refused before anything is written or compared: the run's copies of a closed run's frames
    // must not change.
    try checkOpen()
    // An early refusal of a colliding key, before anything is written: without the run's lock
    // (a lock and an unlock more per frame on PostgreSQL); `record` checks again under it.
    try OpenRunKeys.shared.check(key, in: folder)
    guard png != nil || tree != nil else { throw RunError("'\(rawKey)': send a PNG frame, an element tree, or both") }
    var received: RunChecker.Received?
    if let png {
      // A frame that cannot be decoded is refused before anything is recorded. One equal to its
      // baseline byte for byte (most frames of most runs) is compared without decoding, so its
      // header is enough here; another is decoded here once, and compared from that image.
      let baseline = try store.locate(key).flatMap { try? store.stampedFile(at: $0) }
      var image: RGBAImage?
      let isBaselineBytes = baseline?.bytes == png
      if isBaselineBytes {
        _ = try decoder.header(of: png, path: rawKey)
      } else {
        image = try measured(.decode, by: observer) { try decoder.decode(png, path: rawKey) }
      }
      received = RunChecker.Received(png: png, image: image, baseline: baseline, isBaselineBytes: isBaselineBytes)
    }
    let base = incoming + "/" + key.relativePath(suffix: "")
    let confinement = folder.confinement
    try confinement.createFolders(containing: base)
    try confinement.remove(base + ".skipped.json")
    let framePath: String
    if let png {
      framePath = base + ".png"
      // Written atomically but not flushed to the disk (the `fsync` was 2–6 ms of a worker's
      // time per frame, waiting): what must survive a crash of the machine is flushed before the
      // answer, the verdict (the log) and the frame's bytes when the run keeps them (a failed or
      // new frame's blob, by hash); an approval decodes this copy before it promotes it.
      try confinement.write(png, to: framePath, synced: false)
      if let tree { try confinement.write(try tree.encoded(), to: base + ".tree.json") }
    } else {
      framePath = base + ".tree.json"
      try confinement.write(try tree!.encoded(), to: framePath)
    }
    if let settings {
      let encoded = try JSONEncoderBox.encode(settings)
      try confinement.write(encoded, to: base + ".snapdiff.json")
    } else {
      try confinement.remove(base + ".snapdiff.json")
    }
    var checker = self.checker
    checker.observer = observer
    // The blobs the comparison keeps stay uncollected until the run references them.
    return try checker.blobs.whileAdding {
      let snapshot = checker.check(key, currentPath: framePath, folder: folder, received: received)
      try record(snapshot, key: key)
      // The reports (index.html, JUnit) are written at `close`: rendering them for every frame
      // made a run of n frames cost n² (the service's page shows an open run live).
      return snapshot
    }
  }

  /// Refuses a closed run (`RunError`).
  private func checkOpen() throws {
    guard try folder.loadStored().closedAt == nil else {
      throw RunError("run \(folder.id) is closed: open a new run")
    }
  }

  /// Appends `snapshot` to the run's log under the run's lock, after checking again, under it,
  /// that the run is open and that no colliding key arrived meanwhile.
  private func record(_ snapshot: SnapshotRecord, key: SnapshotKey) throws {
    try folder.withLock {
      // Closed since it was read: the verdict is not recorded.
      try checkOpen()
      try OpenRunKeys.shared.check(key, in: folder)
      let range = try folder.snapshotRecords.append(snapshot)
      OpenRunKeys.shared.appended(key, at: range, in: folder)
    }
  }

  /// Records that the test skipped `key` (a page that may not take snapshots, or has no shooter),
  /// with the reason: the run lists it as `skipped`, as `check` lists a frames folder's
  /// `<key>.skipped.json`. A frame received earlier for the key is dropped.
  ///
  /// - Throws: `KeyError` for a key that could leave the store (`StoreEscapeError` through a
  ///   symbolic link), `RunError` when the run is closed
  ///   or the reason is empty, longer than 1000 bytes or holds control characters.
  @discardableResult
  public func skip(key rawKey: String, reason: String) throws -> SnapshotRecord {
    let key = try SnapshotKey(rawKey)
    try store.checkConfined(key)
    guard !reason.isEmpty, reason.utf8.count <= 1000,
      !reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      throw RunError("'\(rawKey)': a skip needs a reason of 1 to 1000 bytes, on one line")
    }
    try checkOpen()
    try OpenRunKeys.shared.check(key, in: folder)
    var snapshot = SnapshotRecord(key: key.rawValue, status: .skipped)
    snapshot.skipReason = reason
    let blobs = BlobStore.beside(runsDirectory: runsDirectory)
    try blobs.whileAdding {
      if let baseline = try store.locate(key) {
        // run.json names the baseline by its path, relative to the run folder: the record format.
        snapshot.baseline = folder.relative(baseline.path)
        snapshot.baselineHash = try RunImages(folder: folder, blobs: blobs).keep(store.stampedFile(at: baseline))
      }
      try record(snapshot, key: key)
    }
    let base = incoming + "/" + key.relativePath(suffix: "")
    for suffix in [".png", ".tree.json", ".snapdiff.json"] { try folder.confinement.remove(base + suffix) }
    try folder.confinement.createFolders(containing: base)
    let note = JSONValue.object([("key", .string(key.rawValue)), ("reason", .string(reason))]).serialized(pretty: true)
    try folder.confinement.write(Array((note + "\n").utf8), to: base + ".skipped.json")
    return snapshot
  }

  /// The folder that holds this run's folder.
  var runsDirectory: String { PathText.parent(of: folder.path) }

  /// Closes the run: no more snapshots; `run.json` takes the verdicts of the run's log, the
  /// reports are written and the run becomes `last`.
  ///
  /// With `complete`, the client says the run received every frame it will ever have (within
  /// `expected` keys or a key `prefix`, when given): every baseline it did not receive is then
  /// `missing`, by `check`'s rule (`MissingBaselines`), and the run is complete. Closing a
  /// closed run changes nothing.
  ///
  /// - Throws: `KeyError` for an expected key that is not a valid key.
  @discardableResult
  public func close(complete: Bool = false, expected: [String]? = nil, prefix: String? = nil) throws -> RunRecord {
    let (_, iso) = RunFolder.timestamp()
    let expectedKeys = try expected.map { Set(try $0.map { try SnapshotKey($0) }) }
    let checker = self.checker
    let record = try checker.blobs.whileAdding {
      try folder.update { record in
        guard record.closedAt == nil else { return }
        record.closedAt = iso
        guard complete else { return }
        let received = Set(record.snapshots.compactMap { try? SnapshotKey($0.key) })
        let missing = try MissingBaselines.keys(in: store, received: received, expected: expectedKeys, prefix: prefix)
        record.snapshots += missing.map { checker.check($0, currentPath: nil, folder: folder) }
        record.snapshots.sort { SnapshotKey.Ordering.precedes($0.key, $1.key) }
        record.complete = true
      }
    }
    FileHashes.shared(for: checker.blobs).save()
    try RunReports.write(record, to: folder)
    try folder.markAsLast()
    return record
  }
}
