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
  /// Regions for every snapshot (`check --region`), after `snapdiff.json`'s rules for each key.
  public var regions: [CheckRegion] = []
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
  /// Where `branch` left `baseBranch` (`--branch auto`'s `git merge-base`), and the commit the
  /// frames come from, for the record.
  public var mergeBase: String?
  public var commit: String?
  /// Where the images the run compares are kept by hash (default: `blobs/` beside the runs
  /// folder).
  public var blobs: BlobStore
  /// Accessibility validation of every snapshot compared (`SnapshotCheck.contrast`), or `nil`.
  /// Default: the config's (``ProjectConfig/contrastCheck``), so the service applies
  /// `snapdiff.json`'s contrast fields as `check` does.
  public var contrast: ContrastCheck?
  /// Told how long each stage took (the service's `/metrics`, `check --timings`).
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
    contrast = config.contrastCheck
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
    return try blobs.whileAdding {
      try FileLock.withLock(folder.path + "/.lock", rank: .run) {
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
            // run.json names the baseline by its path, relative to the run folder: the record format.
            record.baseline = folder.relative(baseline.path)
            record.baselineHash = try images.keep(store.stampedFile(at: baseline))
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
        record.mergeBase = mergeBase
        record.commit = commit
        record.overlays = store.overlays.isEmpty ? nil : store.overlays
        record.comparison = rule.recordedSettings
        record.closedAt = RunFolder.timestamp().iso
        try measured(.runRecord, by: observer) {
          try folder.save(record)
          FileHashes.shared(for: blobs).save()
        }
        try measured(.reports, by: observer) { try RunReports.write(record, to: folder) }
        try measured(.runRecord, by: observer) { try folder.markAsLast() }
        cache?.trim()
        return Outcome(record: record, folder: folder, renderedTrees: renders.current)
      }
    }
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
