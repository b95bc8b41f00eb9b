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
  /// Element masks, the match level and the layout tolerance for every snapshot (settings
  /// files refine them per snapshot).
  public var selectors: [ElementSelector]
  public var matchLevel: MatchLevel
  public var layoutTolerance: Double
  /// Ignore rules by key glob, from the config.
  public var config: ProjectConfig
  public var recordMode: RecordMode
  /// How many snapshots are compared at once. Default: one per core.
  public var jobs: Int
  public var decoder: PNGDecoder
  /// Only keys matching one of these globs; the run is then incomplete (no `missing`).
  public var only: [String]
  /// Decoded baselines kept between runs; `nil` decodes every baseline every time.
  public var cache: BaselineCache?
  /// Only the keys of this part (`--shard 2/4`); the run is then partial, to be joined with
  /// the other parts' runs by `RunMerger`.
  public var shard: Shard?
  /// The frames are one part of the run (`--partial`: a CI job that received some of the
  /// tests): no `missing`, to be joined by `RunMerger`.
  public var partial = false
  /// The branch the frames come from and the branch it was forked from, for the record (and
  /// the approval log); `check` reads no branch overlay.
  public var branch: String?
  public var baseBranch: String?
  /// Where the images the run compares are kept by hash (default: `blobs/` beside the runs
  /// folder).
  public var blobs: BlobStore
  /// Told how long decoding and comparing took (the service's `/metrics`).
  public var observer: (any CheckObserver)?

  /// The run sees every frame of the run (no `--only`, `--shard` or `--partial`), so a
  /// baseline with no frame is `missing`.
  var isComplete: Bool { only.isEmpty && shard == nil && !partial }

  public init(
    currentDirectory: String, store: BaselineStore, runsDirectory: String,
    options: DiffOptions = DiffOptions(), selectors: [ElementSelector] = [],
    matchLevel: MatchLevel? = nil, layoutTolerance: Double = 1, config: ProjectConfig = ProjectConfig(),
    recordMode: RecordMode = .missing, jobs: Int = ProcessorCount.active,
    decoder: PNGDecoder = PNGDecoder(), only: [String] = []
  ) {
    self.currentDirectory = FileSystem.absolute(currentDirectory)
    self.store = store
    self.runsDirectory = FileSystem.absolute(runsDirectory)
    blobs = BlobStore.beside(runsDirectory: runsDirectory)
    self.options = options
    self.selectors = selectors
    // Not given: the options' level (flags over snapdiff.json).
    self.matchLevel = matchLevel ?? options.matchLevel
    self.layoutTolerance = layoutTolerance
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
    /// How many tree-only frames were rendered: an unchanged tree whose baseline is its
    /// rendering is not (`RenderStamp`), any other tree-only frame once.
    public var renderedTrees = 0
  }

  /// Runs the check. `progress(done, total, key)` is called as snapshots finish (from worker
  /// threads, one call at a time).
  ///
  /// - Throws: `StoreEscapeError` when a baseline would be written through a link out of the
  ///   store, `FileError` when the current folder cannot be read, `KeyError` for a frame whose
  ///   name cannot be a key or for two keys that differ only by case or Unicode normalisation.
  ///   Problems with one snapshot (a corrupt PNG) do not throw: the snapshot fails with its
  ///   `error` set.
  public func run(progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws -> Outcome {
    guard FileSystem.isDirectory(currentDirectory) else {
      throw FileError(path: currentDirectory, message: "is not a folder of current frames")
    }
    let globs = try only.map { pattern throws(GlobError) in try Glob(pattern) }
    func isSelected(_ key: SnapshotKey) -> Bool {
      (globs.isEmpty || globs.contains { $0.matches(key) }) && (shard?.contains(key) ?? true)
    }
    let currentFrames = try Self.frames(in: currentDirectory).filter { isSelected($0.key) }
    let currentKeys = currentFrames.map(\.key)
    try SnapshotKey.checkNoCollisions(currentKeys)
    // Refused before the run folder exists: a key (or the environment folder) whose baseline
    // would be written through a link out of the store.
    try store.checkConfined()
    for key in currentKeys { try store.checkConfined(key) }
    let currentSet = Set(currentKeys)
    let skipped = try Self.skips(in: currentDirectory).filter { isSelected($0.key) && !currentSet.contains($0.key) }
    let missingKeys =
      isComplete ? try MissingBaselines.keys(in: store, received: currentSet.union(skipped.map(\.key))) : []

    let (folder, createdAt) = try RunFolder.create(in: runsDirectory)
    // Held until run.json is written: `Leftovers.clean` leaves a folder whose lock is held
    // (a check in progress) alone, and removes one a killed check left without run.json; and
    // the blobs it adds are not collected before run.json references them.
    return try FileLock.withLock(folder.path + "/.lock") {
      try blobs.whileAdding {
        let work: [(key: SnapshotKey, current: String?)] =
          currentFrames.map { ($0.key, $0.path) } + missingKeys.map { ($0, nil) }
        let results = ResultSlots<SnapshotRecord>(count: work.count)
        let progressCalls = DispatchQueue(label: "snapdiff.check.progress")
        let next = Counter()
        let done = Counter()
        let renders = Counter()
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(work.count, 1))) { _ in
          while let index = next.take(below: work.count) {
            let item = work[index]
            let record = check(item.key, currentPath: item.current, folder: folder, renders: renders)
            results.set(index, record)
            let finished = done.increment()
            // One call at a time, as documented: the callback may print or keep state.
            if let progress { progressCalls.sync { progress(finished, work.count, item.key.rawValue) } }
          }
        }

        let images = RunImages(folder: folder, blobs: blobs)
        let skips = try skipped.map { skip -> SnapshotRecord in
          var record = SnapshotRecord(key: skip.key.rawValue, status: .skipped)
          record.skipReason = skip.reason
          if let baseline = try store.locate(skip.key) {
            record.baseline = folder.relative(baseline.path)
            record.baselineHash = try images.keepFile(baseline.path).hash
          }
          return record
        }
        var record = RunRecord(
          id: folder.id, createdAt: createdAt, currentDirectory: folder.relative(currentDirectory),
          baselinesDirectory: folder.relative(store.root), environment: store.environment,
          recordMode: recordMode, complete: isComplete,
          snapshots: (results.values() + skips).sorted { SnapshotKey.Ordering.precedes($0.key, $1.key) })
        record.shard = shard?.description
        record.branch = branch
        record.baseBranch = baseBranch
        record.overlays = store.overlays.isEmpty ? nil : store.overlays
        record.closedAt = RunFolder.timestamp().iso
        try folder.save(record)
        FileHashes.shared(for: blobs).save()
        try RunReports.write(record, to: folder)
        try folder.markAsLast()
        cache?.trim()
        return Outcome(record: record, folder: folder, renderedTrees: renders.current)
      }
    }
  }

  /// What a caller that received a frame has read of it already (`RunSession`): the frame's bytes
  /// and, when it decoded them, its image; the baseline's bytes. Each is then read (and the frame
  /// decoded) once per frame, not again here.
  struct Received {
    var png: [UInt8]
    var image: RGBAImage?
    var baseline: (path: String, bytes: [UInt8])?
  }

  /// Compares one snapshot; never throws: a problem becomes the snapshot's `error`. `renders`
  /// counts the tree-only frames rendered.
  func check(
    _ key: SnapshotKey, currentPath: String?, folder: RunFolder, received: Received? = nil, renders: Counter? = nil
  ) -> SnapshotRecord {
    var record = SnapshotRecord(key: key.rawValue, status: .failed)
    let images = RunImages(folder: folder, blobs: blobs)
    do {
      let baseline = try store.locate(key)
      record.baseline = baseline.map { folder.relative($0.path) }
      record.baselineEnvironment = baseline?.environment
      // The bytes compared are the bytes kept: an approval replacing the file later changes
      // nothing the run recorded.
      guard let currentPath else {
        record.status = .missing
        // Kept for the report (and for an undo of its deletion); a baseline that cannot be
        // read is still just missing.
        record.baselineHash = try? baseline.map { try images.keepFile($0.path).hash }
        return record
      }
      let kept = try baseline.map { try images.keepFile($0.path) }
      let baselineBytes = kept?.bytes
      record.baselineHash = kept?.hash
      let comparison = try snapshotComparison(for: key, baseline: baseline, currentPath: currentPath)
      if comparison.matchLevel != .strict { record.matchLevel = comparison.matchLevel }
      guard let baseline, let baselineBytes else {
        return try recordNew(
          key, currentPath: currentPath, folder: folder, into: record, received: received, renders: renders)
      }
      if let unchanged = unchangedTree(currentPath, baseline: baseline, comparison: comparison) {
        return try conclude(unchanged, key, baseline: baseline, currentPath: currentPath, folder: folder, into: record)
      }
      let usesFrames =
        Frame.isTree(currentPath) || !comparison.selectors.isEmpty || comparison.matchLevel == .layout
        || Frame.treeFile(besidePNG: baseline.path) != nil || Frame.treeFile(besidePNG: currentPath) != nil
      if usesFrames {
        return try compareFrames(
          key, baseline: baseline, currentPath: currentPath, comparison: comparison,
          folder: folder, into: record, received: received, renders: renders)
      }
      return try comparePNGs(
        key, baseline: baseline, baselineBytes: baselineBytes, currentPath: currentPath,
        options: comparison.options, folder: folder, into: record, received: received)
    } catch {
      record.status = .failed
      record.error = String(describing: error)
      return record
    }
  }

  private func recordNew(
    _ key: SnapshotKey, currentPath: String, folder: RunFolder, into record: SnapshotRecord, received: Received?,
    renders: Counter?
  ) throws -> SnapshotRecord {
    var record = record
    record.status = .new
    // Load it whole: a broken frame must never become a baseline.
    let frame = try measured(.decode, by: observer) {
      try loadCurrent(currentPath, renders: renders, decoded: received?.image)
    }
    record.currentSize = SnapshotRecord.Size(width: frame.image.width, height: frame.image.height)
    let png = try received.map(\.png) ?? pngBytes(of: frame, at: currentPath)
    record.current = folder.relative(try keepCopy(of: frame, png: png, key: key, in: folder))
    record.currentHash = try RunImages(folder: folder, blobs: blobs).keep(png)
    if rule.withoutBaseline.records {
      try store.write(png, tree: frame.tree, for: key)
      record.recorded = true
      record.baseline = folder.relative(store.writePath(for: key))
    }
    return record
  }

  /// Two PNGs and nothing else: byte-identical files skip decoding.
  private func comparePNGs(
    _ key: SnapshotKey, baseline: BaselineStore.Location, baselineBytes: [UInt8], currentPath: String,
    options: DiffOptions, folder: RunFolder, into record: SnapshotRecord, received: Received?
  ) throws -> SnapshotRecord {
    var record = record
    let currentBytes = try received?.png ?? FileIO.read(currentPath)
    record.current = folder.relative(currentPath)
    if baselineBytes == currentBytes {
      // Byte-identical files: check the header (a broken file is still an error), skip decoding.
      let header = try decoder.header(of: currentBytes, path: currentPath)
      record.currentHash = record.baselineHash
      record.status = .passed
      record.totalPixels = header.width * header.height
      record.baselineSize = SnapshotRecord.Size(width: header.width, height: header.height)
      record.currentSize = record.baselineSize
      return record
    }
    let baselineImage = try measured(.decode, by: observer) {
      try cache?.image(of: baselineBytes, path: baseline.path, decoder: decoder)
        ?? decoder.decode(baselineBytes, path: baseline.path)
    }
    let currentImage =
      try received?.image ?? measured(.decode, by: observer) { try decoder.decode(currentBytes, path: currentPath) }
    let engine = PixelDiff(options: options)
    let result = measured(.compare, by: observer) { engine.compare(baselineImage, currentImage) }
    record.fill(from: result)
    let frame = Frame(image: currentImage, tree: nil, path: currentPath)
    return try conclude(
      key, passed: result.passed, identical: result.identical, changeHash: result.changeHash,
      baseline: baseline, current: frame, png: { currentBytes }, folder: folder, into: record,
      diffImage: { engine.compareDrawingDiff(baselineImage, currentImage).diffImage })
  }

  /// Frames with element trees, element masks or the layout level.
  private func compareFrames(
    _ key: SnapshotKey, baseline: BaselineStore.Location, currentPath: String, comparison: FrameComparison,
    folder: RunFolder, into record: SnapshotRecord, received: Received?, renders: Counter?
  ) throws -> SnapshotRecord {
    var record = record
    let baselineFrame = try measured(.decode, by: observer) { try Frame.load(baseline.path, decoder: decoder) }
    let currentFrame = try measured(.decode, by: observer) {
      try loadCurrent(currentPath, renders: renders, decoded: received?.image)
    }
    let outcome = try measured(.compare, by: observer) { try comparison.compare(baselineFrame, currentFrame) }
    record.fill(from: outcome.result)
    record.layout = outcome.layout.map { $0.map(LayoutChange.init) }
    record.text = outcome.text.map { $0.map(\.sentence) }
    record.unmatchedSelectors = outcome.unmatchedSelectors.isEmpty ? nil : outcome.unmatchedSelectors
    record.current = folder.relative(currentPath)
    // A tree-only frame's PNG is encoded only when it is kept or recorded: a passing frame
    // needs none (encoding an iPhone-size rendering costs more than rendering it).
    return try conclude(
      key, passed: outcome.passed, identical: outcome.result.identical,
      changeHash: outcome.result.changeHash, baseline: baseline, current: currentFrame,
      png: { try pngBytes(of: currentFrame, at: currentPath) }, folder: folder, into: record,
      diffImage: { try comparison.compare(baselineFrame, currentFrame, drawing: true).diffImage! })
  }

  /// The verdict's consequences: a failed snapshot keeps its frame and a diff image in the run,
  /// and the record mode may write the baseline.
  private func conclude(
    _ key: SnapshotKey, passed: Bool, identical: Bool, changeHash: String?, baseline: BaselineStore.Location,
    current: Frame, png: () throws -> [UInt8], folder: RunFolder, into record: SnapshotRecord,
    diffImage: () throws -> RGBAImage
  ) throws -> SnapshotRecord {
    var record = record
    let images = RunImages(folder: folder, blobs: blobs)
    let verdict = rule.verdict(passed: passed, identical: identical)
    record.status = verdict.status
    if passed {
      // A passing frame is not kept unless it is its baseline's bytes (then it is that blob,
      // for free): the report shows only the baseline, and frames that pass with other bytes
      // (another encoder, noise under the threshold) would add every frame of every run to the
      // blob store.
      if verdict.records {
        try store.write(png(), tree: current.tree, for: key)
        record.recorded = true
      }
      return record
    }
    let bytes = try png()
    record.currentHash = try images.keep(bytes)
    record.current = folder.relative(try keepCopy(of: current, png: bytes, key: key, in: folder))
    let diffPath = folder.diffPath(for: key)
    try folder.confinement.createFolders(containing: diffPath)
    let diffPNG = try PNGEncoder(speed: .fast).encode(diffImage())
    try folder.confinement.write(diffPNG, to: diffPath)
    record.diff = folder.relative(diffPath)
    record.diffHash = try images.keep(diffPNG)
    if let hash = changeHash, try store.rejectedChanges(at: baseline).contains(hash) {
      record.previouslyRejected = true
    }
    if verdict.records {
      try store.write(bytes, tree: current.tree, for: key)
      record.recorded = true
    }
    return record
  }

  /// The frame's PNG: the file itself, or the rendering of a tree-only frame, stamped as such
  /// (`RenderStamp`) so that a later run with the same tree need not render it.
  private func pngBytes(of frame: Frame, at path: String) throws -> [UInt8] {
    guard Frame.isTree(path), let tree = frame.tree else { return try FileIO.read(path) }
    return try RenderStamp.stamped(PNGEncoder().encode(frame.image), tree: tree)
  }

  /// Copies a frame (PNG, and its tree) into the run folder so it can be approved later. A PNG
  /// already in the run folder (a session's `incoming/`, its tree beside it) is kept there: no
  /// second copy (for a 1170×2532 frame it cost the service a file and a flush per changed frame).
  private func keepCopy(of frame: Frame, png: [UInt8], key: SnapshotKey, in folder: RunFolder) throws -> String {
    if !Frame.isTree(frame.path), Confinement.isSameOrBelow(FileSystem.absolute(frame.path), folder.path) {
      return frame.path
    }
    let copy = folder.currentCopyPath(for: key)
    try folder.confinement.createFolders(containing: copy)
    try folder.confinement.write(png, to: copy)
    if let tree = frame.tree {
      try folder.confinement.write(try tree.encoded(), to: Frame.treePath(besidePNG: copy))
    }
    return copy
  }

  /// The rule every entry point shares (`SnapshotCheck`), from this run's defaults, config and
  /// record mode.
  var rule: SnapshotCheck {
    SnapshotCheck(
      options: options, selectors: selectors, matchLevel: matchLevel, layoutTolerance: layoutTolerance,
      config: config, recordMode: recordMode)
  }

  /// The snapshot's comparison (`SnapshotCheck.comparison`) under the settings files beside the
  /// baseline and beside the current frame.
  func snapshotComparison(for key: SnapshotKey, baseline: BaselineStore.Location?, currentPath: String)
    throws -> FrameComparison
  {
    let currentSettings = currentDirectory + "/" + key.relativePath(suffix: ".snapdiff.json")
    return try rule.comparison(
      for: key, baselineSettings: try baseline.flatMap { try store.settings(at: $0) },
      frameSettings: try SnapshotSettings.load(currentSettings))
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
    regions = result.regions
    baselineSize = result.baselineSize
    currentSize = result.currentSize
    changeHash = result.changeHash
    colorConversion = result.colorConversion?.sentence
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
