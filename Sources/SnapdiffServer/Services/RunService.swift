import SnapdiffCore

/// What the controllers do to runs, over the same run folders and baseline store as the CLI:
/// sessions (`RunSession`) take frames, `Review` approves and rejects, and every change is
/// followed by a refresh of the index, so the list never disagrees with `run.json`.
///
/// Everything here blocks (files, PNG decoding, comparisons, SQLite); controllers call it
/// through `Blocking.run`.
@available(macOS 14, iOS 17, tvOS 17, *)
final class RunService: Sendable {
  let configuration: ServerConfiguration
  let index: any RunIndex
  /// The PostgreSQL database, when the service runs on one (`--database`).
  let postgres: PostgresDatabase?
  /// The threads for heavy work (`--workers`).
  let work: WorkPool
  /// The decoded bytes requests in flight may hold (`--max-decoded-mb`).
  let decodeBudget: DecodeBudget
  /// How the server's folders are named in what clients see.
  let shownPaths: ShownPaths
  /// What `/metrics` serves.
  let metrics = ServiceMetrics()

  /// Where runs' verdicts go as they arrive and whom the locks are shared with, attached to
  /// this service's data folder and store while it lives (`StorageBackend`).
  let backend: StorageBackend
  private let attachment: StorageBackend.Attachment

  /// A service on `configuration`'s folders with the storage it names (`ServiceStorage.make`).
  convenience init(configuration: ServerConfiguration) throws {
    try self.init(configuration: configuration, storage: ServiceStorage.make(for: configuration))
  }

  /// A service on `configuration`'s folders with the `storage` it is handed: its run index, its
  /// PostgreSQL database if any, and the backend attached to its data folder and store (so two
  /// services of one process, on other folders, each keep their own).
  ///
  /// - Throws: `StorageBackendError` when another service of this process has another backend
  ///   on one of the folders.
  init(configuration: ServerConfiguration, storage: ServiceStorage) throws {
    self.configuration = configuration
    work = WorkPool.shared(threads: configuration.workers)
    decodeBudget = DecodeBudget(capacity: configuration.maxDecodedBytes)
    shownPaths = ShownPaths(dataDirectory: configuration.dataDirectory, baselines: configuration.store.root)
    try FileSystem.createDirectories(configuration.runsDirectory)
    index = storage.index
    postgres = storage.postgres
    backend = storage.backend
    attachment = try storage.backend.attach(to: [configuration.dataDirectory, configuration.store.root])
  }

  /// The folder of run `id`.
  ///
  /// - Throws: `APIError.notFound` when there is no such run.
  func folder(_ id: String) throws -> RunFolder {
    guard RunFolder.isValidID(id), FileSystem.isFile(configuration.runsDirectory + "/" + id + "/run.json"),
      let folder = try? RunFolder.inside(configuration.runsDirectory, id: id)
    else {
      throw APIError.notFound("no run '\(id)'")
    }
    return folder
  }

  /// Run `id`'s record: `run.json`, with an open run's snapshots from its log.
  func record(_ id: String) throws -> (RunFolder, RunRecord) {
    let folder = try folder(id)
    return (folder, try folder.load())
  }

  /// Run `id`'s `run.json` as stored, without an open run's log: whether it is open, at the cost
  /// of a `stat` (what every frame checks first).
  func storedRecord(_ id: String) throws -> (RunFolder, RunRecord) {
    let folder = try folder(id)
    return (folder, try folder.loadStored())
  }

  /// The runs, newest first, after bringing the index in step with the folders.
  func list(_ query: RunQuery) throws -> RunList {
    try index.synchronize()
    let (runs, total) = try index.runs(query)
    return RunList(
      runs: runs.map { RunSummary($0, page: configuration.pageLink(run: $0.id)) }, total: total, limit: query.limit,
      offset: query.offset)
  }

  /// Opens a run for a remote test runner.
  func open(_ request: OpenRunRequest) throws -> RunRecord {
    let request = try request.resolvingAutoBranch()
    let name = request.name
    guard !name.isEmpty, name.utf8.count <= 200, !name.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
      throw APIError.badRequest("'name' must be 1 to 200 bytes, without control characters")
    }
    // Branch names are refused here, when the run opens, rather than by the first approval or
    // recorded frame whose overlay folder cannot be made.
    for (prefix, value) in [("", request.branch), ("base ", request.baseBranch)] {
      guard let value, !value.isEmpty else { continue }
      do {
        _ = try BranchOverlay.folder(of: value)
      } catch {
        throw APIError.badRequest(prefix + error.description)
      }
    }
    var store = try BaselineStore(
      root: configuration.store.root, environment: request.environment ?? configuration.store.environment)
    do {
      store.overlays = try BranchOverlay.chain(branch: request.branch, base: request.baseBranch, in: store)
    } catch {
      throw APIError.badRequest(error.description)
    }
    let session = try RunSession.open(
      runsDirectory: configuration.runsDirectory, store: store, name: name, branch: request.branch,
      baseBranch: request.baseBranch,
      options: configuration.options, recordMode: request.recordMode ?? configuration.recordMode,
      decoder: configuration.decoder, config: configuration.config, commit: request.commit,
      mergeBase: request.mergeBase)
    try index.refresh(session.folder)
    return try session.folder.load()
  }

  /// Compares one frame in run `id` and records the verdict.
  ///
  /// - Throws: `APIError` 404 (no run), 409 (closed), 422 (a key, PNG, tree or settings that
  ///   cannot be used).
  func submit(run id: String, key: SnapshotKey, frame: IncomingFrame) throws -> SnapshotRecord {
    metrics.frameReceived()
    _ = try decodeCost(of: frame, key: key)
    let snapshot = try inOpenSession(id) { session in
      var session = session
      session.observer = metrics
      return try session.submit(key: key.rawValue, png: frame.png, tree: frame.tree, settings: frame.settings)
    }
    metrics.verdict(snapshot.status)
    return snapshot
  }

  /// The decoded bytes comparing `frame` will hold, read from the PNG's header (or the tree's
  /// screen) without decoding: three images of the frame's size (the frame, its baseline, the
  /// diff image).
  ///
  /// - Throws: `APIError` 422 for a frame that is not a PNG, or whose header is bad or over
  ///   `--max-megapixels`.
  func decodeCost(of frame: IncomingFrame, key: SnapshotKey) throws -> Int {
    var pixels = 0
    if let png = frame.png {
      guard png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
        throw APIError.unprocessable("the frame of '\(key)' is not a PNG (no PNG signature)")
      }
      let header = try configuration.decoder.header(of: png, path: key.rawValue)
      pixels = header.width.multipliedReportingOverflow(by: header.height).partialValue
    }
    if let tree = frame.tree {
      let size = tree.pixelSize
      let (treePixels, overflow) = max(0, size.width).multipliedReportingOverflow(by: max(0, size.height))
      pixels = max(pixels, overflow ? Int.max / 12 : treePixels)
    }
    return min(pixels, Int.max / 12) * 12
  }

  /// Records that the test skipped `key` in run `id`.
  ///
  /// - Throws: `APIError` 404 (no run), 409 (closed), 422 (a key or reason that cannot be used).
  func skip(run id: String, key: SnapshotKey, reason: String) throws -> SnapshotRecord {
    let snapshot = try inOpenSession(id) { session in try session.skip(key: key.rawValue, reason: reason) }
    metrics.verdict(snapshot.status)
    return snapshot
  }

  /// Runs `change` on the session of run `id`, which must be open, then brings the index up to
  /// date. A `RunError` becomes 409 when the run was closed meanwhile, else 422.
  private func inOpenSession(_ id: String, _ change: (RunSession) throws -> SnapshotRecord) throws
    -> SnapshotRecord
  {
    let (folder, record) = try storedRecord(id)
    guard record.closedAt == nil else {
      throw APIError.conflict("run \(id) is closed: open a new run (POST /api/v1/runs)")
    }
    let session = try RunSession.reopen(
      folder, storeRoot: configuration.store.root, options: configuration.options, decoder: configuration.decoder,
      config: configuration.config)
    let snapshot: SnapshotRecord
    do {
      snapshot = try change(session)
    } catch let error as RunError {
      throw try folder.loadStored().closedAt != nil
        ? APIError.conflict(error.message) : APIError.unprocessable(error.message)
    }
    try index.refresh(folder)
    return snapshot
  }

  /// Closes run `id` (closing a closed run changes nothing); with `complete`, the baselines it
  /// did not receive become `missing` (`RunSession.close`).
  ///
  /// - Throws: `APIError` 404 (no run), 422 (an expected key that is not a valid key).
  func close(run id: String, request: CloseRunRequest = CloseRunRequest()) throws -> RunRecord {
    let folder = try folder(id)
    guard request.complete == true || (request.keys == nil && request.prefix == nil) else {
      throw APIError.badRequest("'keys' and 'prefix' go with \"complete\": true")
    }
    // On PostgreSQL the run is marked closed in the shared index first, by a conditional UPDATE
    // (other instances' lists and filters see it at once); `run.json`, changed under the run's
    // lock, closes it once whoever asks, so a second close answers the closed run as before.
    let claim = try (index as? PostgresRunIndex).flatMap { index in
      let time = RunFolder.timestamp().iso
      return try index.claimClose(id, at: time) ? (index, time) : nil
    }
    let record: RunRecord
    do {
      record = try RunSession.reopen(folder, storeRoot: configuration.store.root, options: configuration.options).close(
        complete: request.complete ?? false, expected: request.keys, prefix: request.prefix)
    } catch {
      if let (index, time) = claim { try? index.unclaimClose(id, at: time) }
      if let error = error as? KeyError { throw APIError.unprocessable(error.description) }
      throw error
    }
    try index.refresh(folder)
    return record
  }

  /// Who the approval log names for an approval through the service: the caller as the
  /// service knows it (its token, or this machine when there is none).
  var caller: String { configuration.token == nil ? "service (local)" : "service (token)" }

  /// Approves (or, with `dryRun`, lists) the selected snapshots of run `id`.
  /// With `variant`, each frame is added as another accepted baseline of that name.
  func approve(run id: String, selection: Review.Selection, dryRun: Bool, asVariant variant: String? = nil) throws
    -> ReviewResult
  {
    let (folder, record) = try record(id)
    try check(selection, in: record)
    let review = try Review(
      folder: folder, storeRoot: configuration.store.root, user: caller, config: configuration.config)
    let approval = try review.approveAsOperation(
      selection, dryRun: dryRun, asVariant: variant)
    let chosen = approval.approved
    if !dryRun { try index.refresh(folder) }
    // The other runs that took the approval over (`SeenApprovals`): their counts in the index.
    for other in approval.runsSeeingIt { if let folder = try? self.folder(other) { try index.refresh(folder) } }
    return ReviewResult(
      run: id, action: dryRun ? "wouldApprove" : "approved", dryRun: dryRun,
      snapshots: chosen.map {
        .init(
          key: $0.key, previousStatus: $0.status,
          baseline: variant != nil ? "variant" : $0.status == .missing ? "delete" : "update", variant: variant)
      },
      summary: RunSummary(try folder.load(), page: configuration.pageLink(run: id)), operation: approval.operation,
      seenIn: approval.runsSeeingIt.isEmpty ? nil : approval.runsSeeingIt)
  }

  /// Rejects the selected changes of run `id`.
  func reject(run id: String, selection: Review.Selection) throws -> ReviewResult {
    let (folder, record) = try record(id)
    try check(selection, in: record)
    let chosen = try Review(folder: folder, storeRoot: configuration.store.root).reject(selection)
    try index.refresh(folder)
    return ReviewResult(
      run: id, action: "rejected", dryRun: false,
      snapshots: chosen.map { .init(key: $0.key, previousStatus: $0.status, baseline: nil) },
      summary: RunSummary(try folder.load(), page: configuration.pageLink(run: id)))
  }

  /// 404 for a key, glob or `sameAs` that names no snapshot; 409 when a named snapshot
  /// has nothing to review (`all`, `failed`, `new` may pick none: that is no error). `Review`
  /// then does the work.
  func check(_ selection: Review.Selection, in record: RunRecord) throws {
    guard !selection.isEmpty else {
      throw APIError.badRequest("say what to review: \"all\", \"failed\", \"new\", \"sameAs\" or \"keys\"")
    }
    let keys = Set(record.snapshots.map(\.key))
    for key in selection.patterns where !keys.contains(key) {
      let glob: Glob
      do { glob = try Glob(key) } catch { throw APIError.badRequest(error.description) }
      let matches = record.snapshots.contains { (try? SnapshotKey($0.key)).map(glob.matches) ?? false }
      if !matches { throw APIError.notFound("no snapshot in run \(record.id) matches '\(key)'") }
    }
    if let key = selection.sameAs, !keys.contains(key) {
      throw APIError.notFound("no snapshot '\(key)' in run \(record.id)")
    }
    do {
      _ = try Review.select(selection, in: record)
    } catch let error as RunError {
      throw APIError.conflict(error.message)
    }
  }

  /// The file of one of a snapshot's images: the image the run compared, by the hash `run.json`
  /// records (the run folder's `images/<hash>.png`, or the blob); for runs recorded before
  /// hashes, the record's path, checked to lie inside the baseline store (for the baseline) or
  /// inside the run folder (current frame copies and diff images).
  func image(run id: String, key: String, kind: ImageKind) throws -> String {
    let (folder, record) = try record(id)
    guard let snapshot = record.snapshots.first(where: { $0.key == key }) else {
      throw APIError.notFound("no snapshot '\(key)' in run \(id)")
    }
    // The image as the run compared it, kept by hash: the run folder's link, else the blob.
    let hash: String? =
      switch kind {
      case .baseline: snapshot.baselineHash
      case .current: snapshot.currentHash
      case .diff: snapshot.diffHash
      }
    if let hash {
      guard BlobStore.isHash(hash) else {
        throw APIError.notFound("the \(kind.rawValue) image of '\(key)' has no valid hash in run \(id)")
      }
      // Served only when its bytes are the image the hash names (`RunImages.wholeFile`).
      let images = RunImages(folder: folder, blobs: BlobStore.beside(runsDirectory: configuration.runsDirectory))
      guard let file = images.wholeFile(of: hash) else {
        throw APIError.notFound("the \(kind.rawValue) image of '\(key)' is no longer kept whole (run \(id))")
      }
      return file
    }
    let relative: String?
    let allowedRoots: [String]
    switch kind {
    case .baseline:
      relative = snapshot.baseline
      // The service's store, never the one the run's record names.
      allowedRoots = [configuration.store.root]
    case .current:
      relative = snapshot.current
      allowedRoots = [folder.path]
    case .diff:
      relative = snapshot.diff
      allowedRoots = [folder.path]
    }
    guard let relative, relative.hasSuffix(".png") else {
      throw APIError.notFound("snapshot '\(key)' has no \(kind.rawValue) image in run \(id)")
    }
    let path = folder.resolve(relative)
    guard let real = FileSystem.resolved(path), FileSystem.isFile(real),
      allowedRoots.contains(where: { root in FileSystem.resolved(root).map { real.hasPrefix($0 + "/") } ?? false })
    else {
      throw APIError.notFound(
        "the \(kind.rawValue) image of '\(key)' is not kept in run \(id) or the baseline store")
    }
    return real
  }

  enum ImageKind: String, Sendable, CaseIterable {
    case baseline
    case current
    case diff
  }
}

/// A frame as a client sent it: a PNG, an element tree, or both, and its settings.
struct IncomingFrame: Sendable {
  var png: [UInt8]?
  var tree: ElementTree?
  var settings: SnapshotSettings?
}
