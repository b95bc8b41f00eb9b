import Dispatch

/// `snapdiff check`: pairs every PNG under a folder of current frames with its baseline by key,
/// compares them on several threads, records new baselines as the record mode says, and writes
/// the run folder.
///
/// ```swift
/// let store = try BaselineStore(root: "baselines")
/// let checker = RunChecker(currentDirectory: "frames", store: store, runsDirectory: ".snapdiff/runs")
/// let outcome = try checker.run()
/// print(outcome.record.counts)
/// ```
public struct RunChecker: Sendable {
  public var currentDirectory: String
  public var store: BaselineStore
  public var runsDirectory: String
  /// The comparison defaults (flags and config); per-snapshot settings files refine them.
  public var options: DiffOptions
  /// Ignore rules by key glob, from the config.
  public var config: ProjectConfig
  public var recordMode: RecordMode
  /// How many snapshots are compared at once. Default: one per core.
  public var jobs: Int
  public var decoder: PNGDecoder
  /// Only keys matching one of these globs; the run is then incomplete (no `missing`).
  public var only: [String]

  public init(
    currentDirectory: String, store: BaselineStore, runsDirectory: String,
    options: DiffOptions = DiffOptions(), config: ProjectConfig = ProjectConfig(),
    recordMode: RecordMode = .missing, jobs: Int = ProcessorCount.active,
    decoder: PNGDecoder = PNGDecoder(), only: [String] = []
  ) {
    self.currentDirectory = FileSystem.absolute(currentDirectory)
    self.store = store
    self.runsDirectory = FileSystem.absolute(runsDirectory)
    self.options = options
    self.config = config
    self.recordMode = recordMode
    self.jobs = max(1, jobs)
    self.decoder = decoder
    self.only = only
  }

  /// What a check produced.
  public struct Outcome: Sendable {
    public var record: RunRecord
    public var folder: RunFolder
  }

  /// Runs the check. `progress(done, total, key)` is called as snapshots finish (from worker
  /// threads, one call at a time).
  ///
  /// - Throws: `FileError` when the current folder cannot be read, `KeyError` for a frame whose
  ///   name cannot be a key or for two keys that differ only by case. Problems with one
  ///   snapshot (a corrupt PNG) do not throw: the snapshot fails with its `error` set.
  public func run(progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws -> Outcome {
    guard FileSystem.isDirectory(currentDirectory) else {
      throw FileError(path: currentDirectory, message: "is not a folder of current frames")
    }
    let currentKeys = try FileSystem.files(under: currentDirectory)
      .filter { $0.lowercased().hasSuffix(".png") }
      .map { relative throws(KeyError) in try SnapshotKey(relativeImagePath: relative) }
      .filter(isSelected)
    if let (first, second) = SnapshotKey.caseCollisions(currentKeys).first {
      throw KeyError(
        key: second.rawValue,
        problem: "differs from '\(first)' only by letter case: the two would collide on case-insensitive file systems")
    }
    let currentSet = Set(currentKeys)
    var baselineKeys = try store.keys()
    if let environment = store.environment { baselineKeys += try store.keys(inEnvironment: environment) }
    let missingKeys = only.isEmpty ? Set(baselineKeys).subtracting(currentSet).sorted() : []

    let (folder, createdAt) = try RunFolder.create(in: runsDirectory)
    let work: [(key: SnapshotKey, hasCurrent: Bool)] =
      currentKeys.map { ($0, true) } + missingKeys.map { ($0, false) }
    let results = ResultSlots<SnapshotRecord>(count: work.count)
    let next = Counter()
    let done = Counter()
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(work.count, 1))) { _ in
      while let index = next.take(below: work.count) {
        let item = work[index]
        let record = check(item.key, hasCurrent: item.hasCurrent, folder: folder)
        results.set(index, record)
        let finished = done.increment()
        progress?(finished, work.count, item.key.rawValue)
      }
    }

    let record = RunRecord(
      id: folder.id, createdAt: createdAt, currentDirectory: folder.relative(currentDirectory),
      baselinesDirectory: folder.relative(store.root), environment: store.environment,
      recordMode: recordMode, complete: only.isEmpty,
      snapshots: results.values().sorted { SnapshotKey.Ordering.precedes($0.key, $1.key) })
    try folder.save(record)
    try RunReports.write(record, to: folder)
    try folder.markAsLast()
    return Outcome(record: record, folder: folder)
  }

  private func isSelected(_ key: SnapshotKey) -> Bool {
    only.isEmpty || only.contains { key.matches(glob: $0) }
  }

  /// Compares one snapshot; never throws: a problem becomes the snapshot's `error`.
  private func check(_ key: SnapshotKey, hasCurrent: Bool, folder: RunFolder) -> SnapshotRecord {
    var record = SnapshotRecord(key: key.rawValue, status: .failed)
    do {
      let baseline = try store.locate(key)
      record.baseline = baseline.map { folder.relative($0.path) }
      record.baselineEnvironment = baseline?.environment
      guard hasCurrent else {
        record.status = .missing
        return record
      }
      let currentPath = currentDirectory + "/" + key.relativePath()
      let currentBytes = try FileIO.read(currentPath)
      guard let baseline else {
        return try recordNew(key, currentBytes, currentPath: currentPath, folder: folder, into: record)
      }
      return try compare(
        key, baseline: baseline, currentBytes: currentBytes, currentPath: currentPath, folder: folder,
        into: record)
    } catch {
      record.status = .failed
      record.error = String(describing: error)
      return record
    }
  }

  private func recordNew(
    _ key: SnapshotKey, _ currentBytes: [UInt8], currentPath: String, folder: RunFolder,
    into record: SnapshotRecord
  ) throws -> SnapshotRecord {
    var record = record
    record.status = .new
    // Decode it whole: a broken frame must never become a baseline.
    let image = try decoder.decode(currentBytes, path: currentPath)
    record.currentSize = SnapshotRecord.Size(width: image.width, height: image.height)
    let copy = folder.currentCopyPath(for: key)
    try FileSystem.createDirectories(String(copy[..<copy.lastIndex(of: "/")!]))
    try FileIO.writeAtomically(currentBytes, to: copy)
    record.current = folder.relative(copy)
    if recordMode.records(.new) {
      try store.write(currentBytes, for: key)
      record.recorded = true
      record.baseline = folder.relative(store.writePath(for: key))
    }
    return record
  }

  private func compare(
    _ key: SnapshotKey, baseline: BaselineStore.Location, currentBytes: [UInt8], currentPath: String,
    folder: RunFolder, into record: SnapshotRecord
  ) throws -> SnapshotRecord {
    var record = record
    let options = try snapshotOptions(for: key, baseline: baseline)
    let baselineBytes = try FileIO.read(baseline.path)
    let result: DiffResult
    let baselineImage: RGBAImage
    let currentImage: RGBAImage
    if baselineBytes == currentBytes {
      // Byte-identical files: check the header (a broken file is still an error), skip decoding.
      let header = try decoder.header(of: currentBytes, path: currentPath)
      record.status = .passed
      record.totalPixels = header.width * header.height
      record.baselineSize = SnapshotRecord.Size(width: header.width, height: header.height)
      record.currentSize = record.baselineSize
      record.current = folder.relative(currentPath)
      return record
    }
    baselineImage = try decoder.decode(baselineBytes, path: baseline.path)
    currentImage = try decoder.decode(currentBytes, path: currentPath)
    let engine = PixelDiff(options: options)
    result = engine.compare(baselineImage, currentImage)
    record.fill(from: result)
    record.current = folder.relative(currentPath)
    if result.passed {
      record.status = .passed
      if recordMode == .all && !result.identical {
        try store.write(currentBytes, for: key)
        record.recorded = true
      }
      return record
    }
    record.status = .failed
    let copy = folder.currentCopyPath(for: key)
    try FileSystem.createDirectories(String(copy[..<copy.lastIndex(of: "/")!]))
    try FileIO.writeAtomically(currentBytes, to: copy)
    record.current = folder.relative(copy)
    let diffPath = folder.diffPath(for: key)
    try FileSystem.createDirectories(String(diffPath[..<diffPath.lastIndex(of: "/")!]))
    try PNGEncoder(speed: .fast).write(engine.compareDrawingDiff(baselineImage, currentImage).diffImage, to: diffPath)
    record.diff = folder.relative(diffPath)
    if let hash = result.changeHash, try store.rejectedChanges(at: baseline).contains(hash) {
      record.previouslyRejected = true
    }
    if recordMode.records(.failed) {
      try store.write(currentBytes, for: key)
      record.recorded = true
    }
    return record
  }

  /// The run's options refined by the config's ignore rules and the settings files beside the
  /// baseline and beside the current frame.
  func snapshotOptions(for key: SnapshotKey, baseline: BaselineStore.Location?) throws -> DiffOptions {
    var options = self.options
    options.ignoreRegions += config.ignoreRegions(for: key)
    if let baseline, let settings = try store.settings(at: baseline) {
      options = settings.applied(to: options)
    }
    let currentSettings = currentDirectory + "/" + key.relativePath(suffix: ".snapdiff.json")
    if let settings = try SnapshotSettings.load(currentSettings) {
      options = settings.applied(to: options)
    }
    return options
  }
}

extension SnapshotRecord {
  /// Copies a comparison's figures.
  mutating func fill(from result: DiffResult) {
    differentPixels = result.differentPixels
    antialiasedPixels = result.antialiasedPixels
    ignoredPixels = result.ignoredPixels
    totalPixels = result.totalPixels
    differentRatio = result.differentRatio
    regions = result.regions.map { Region(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    baselineSize = Size(width: result.baselineSize.width, height: result.baselineSize.height)
    currentSize = Size(width: result.currentSize.width, height: result.currentSize.height)
    changeHash = result.changeHash
  }
}

extension SnapshotKey {
  /// Key order on raw strings, for records that hold keys as strings.
  enum Ordering {
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
      lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
  }
}
