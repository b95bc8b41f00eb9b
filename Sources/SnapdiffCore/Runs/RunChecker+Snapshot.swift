// One snapshot of a run: its frame compared with its baseline under the run's rule
// (`SnapshotCheck`), the verdict's consequences (a kept frame and diff image, a recorded
// baseline) and the record it leaves; `RunChecker.swift` walks the run over these.
extension RunChecker {
  /// What a caller that received a frame has read of it already (`RunSession`): the frame's bytes
  /// and, when it decoded them, its image; the baseline file it read. Each is then read (and the
  /// frame decoded) once per frame, not again here.
  struct Received {
    var png: [UInt8]
    var image: RGBAImage?
    var baseline: StampedFile?
    /// Whether `png` is `baseline`'s bytes, as the caller found when it compared them.
    var isBaselineBytes = false

    /// The baseline file the caller read, when it is the one at `location` (`nil`: another, or
    /// none). The file the store handed out names the baseline it read: compared by name.
    func baseline(at location: BaselineStore.Location) -> StampedFile? {
      baseline.flatMap { $0.path == location.path ? $0 : nil }
    }

    /// Whether the frame's bytes are the baseline's at `location` (`nil`: the caller read
    /// another file, or none): a frame's bytes are compared with its baseline's once.
    func isBaseline(at location: BaselineStore.Location) -> Bool? {
      baseline(at: location).map { _ in isBaselineBytes }
    }
  }

  /// Compares one snapshot; never throws: a problem becomes the snapshot's `error`. `renders`
  /// counts the tree-only frames rendered.
  func check(
    _ key: SnapshotKey, currentPath: String?, folder: RunFolder, received: Received? = nil, renders: Counter? = nil
  ) -> SnapshotRecord {
    var record = SnapshotRecord(key: key.rawValue, status: .failed)
    let images = RunImages(folder: folder, blobs: blobs)
    do {
      let baseline = try measured(.locate, by: observer) { try store.locate(key) }
      // run.json names the baseline by its path, relative to the run folder: the record format.
      record.baseline = baseline.map { folder.relative($0.path) }
      record.baselineEnvironment = baseline?.environment
      // The bytes compared are the bytes kept: an approval replacing the file later changes
      // nothing the run recorded.
      guard let currentPath else {
        record.status = .missing
        // Kept for the report (and for an undo of its deletion); a baseline that cannot be
        // read is still just missing.
        record.baselineHash = try? baseline.map { try images.keep(store.stampedFile(at: $0)) }
        return record
      }
      // The baseline the caller read already (the service compared its bytes with the frame's)
      // is kept from those bytes: one read of the file per frame.
      let baselineFile = try baseline.map { location in
        try received?.baseline(at: location) ?? measured(.read, by: observer) { try store.stampedFile(at: location) }
      }
      record.baselineHash = try measured(.keep, by: observer) { try baselineFile.map { try images.keep($0) } }
      let comparison = try measured(.locate, by: observer) {
        try snapshotComparison(for: key, baseline: baseline, currentPath: currentPath)
      }
      if comparison.matchLevel != .strict { record.matchLevel = comparison.matchLevel }
      guard let baseline, let baselineFile else {
        return try recordNew(
          key, currentPath: currentPath, folder: folder, into: record, received: received, renders: renders,
          contrast: comparison.contrast)
      }
      if let unchanged = unchangedTree(currentPath, baseline: baseline, comparison: comparison) {
        return try conclude(unchanged, key, baseline: baseline, currentPath: currentPath, folder: folder, into: record)
      }
      let usesFrames = measured(.locate, by: observer) {
        Frame.isTree(currentPath) || !comparison.selectors.isEmpty || !comparison.regions.isEmpty
          || comparison.matchLevel.needsElementTrees
          || store.hasElementTree(at: baseline) || Frame.treeFile(besidePNG: currentPath) != nil
      }
      // What a record-mode write expects to find still: the file compared.
      let compared = BaselineStore.Compared(baselineFile)
      if usesFrames {
        return try compareFrames(
          key, baseline: baseline, compared: compared, currentPath: currentPath, comparison: comparison,
          folder: folder, into: record, received: received, renders: renders)
      }
      return try comparePNGs(
        key, baseline: baseline, compared: compared, baselineFile: baselineFile, currentPath: currentPath,
        options: comparison.options, folder: folder, into: record, received: received)
    } catch {
      record.status = .failed
      record.error = String(describing: error)
      return record
    }
  }

  private func recordNew(
    _ key: SnapshotKey, currentPath: String, folder: RunFolder, into record: SnapshotRecord, received: Received?,
    renders: Counter?, contrast: ContrastCheck?
  ) throws -> SnapshotRecord {
    var record = record
    record.status = .new
    // Load it whole: a broken frame must never become a baseline.
    let frame = try measured(.decode, by: observer) {
      try loadCurrent(currentPath, renders: renders, decoded: received?.image)
    }
    // A new snapshot's contrast is reported (it has no verdict to fail).
    if let contrast, let tree = frame.tree {
      record.contrast = ContrastRecord(try contrast.check(frame.image, tree))
    }
    record.currentSize = SnapshotRecord.Size(width: frame.image.width, height: frame.image.height)
    let png = try received.map(\.png) ?? pngBytes(of: frame, at: currentPath)
    record.current = folder.relative(try keepCopy(of: frame, png: png, key: key, in: folder))
    record.currentHash = try RunImages(folder: folder, blobs: blobs).keep(png)
    // Only while there is still no baseline: an approval that created one meanwhile stays.
    if rule.withoutBaseline.records, try store.record(png, tree: frame.tree, for: key, comparedWith: nil) {
      record.recorded = true
      record.baseline = folder.relative(store.writePath(for: key))
    }
    return record
  }

  /// Two PNGs and nothing else: byte-identical files skip decoding.
  private func comparePNGs(
    _ key: SnapshotKey, baseline: BaselineStore.Location, compared: BaselineStore.Compared, baselineFile: StampedFile,
    currentPath: String,
    options: DiffOptions, folder: RunFolder, into record: SnapshotRecord, received: Received?
  ) throws -> SnapshotRecord {
    var record = record
    let currentBytes = try received?.png ?? measured(.read, by: observer) { try FileIO.read(currentPath) }
    record.current = folder.relative(currentPath)
    let baselineBytes = baselineFile.bytes
    if received?.isBaseline(at: baseline) ?? (baselineBytes == currentBytes) {
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
      // Decoded from the bytes read once (the file's name for messages and the cache).
      try cache?.image(of: baselineBytes, path: baselineFile.path, decoder: decoder)
        ?? decoder.decode(baselineBytes, path: baselineFile.path)
    }
    let currentImage =
      try received?.image ?? measured(.decode, by: observer) { try decoder.decode(currentBytes, path: currentPath) }
    let engine = PixelDiff(options: options)
    // One comparison, even for a failed snapshot: its diff image is drawn from the marks kept.
    let outcome = measured(.compare, by: observer) { engine.compareKeepingMarks(baselineImage, currentImage) }
    let result = outcome.result
    record.fill(from: result)
    if !result.passed {
      record.difference = measured(.classify, by: observer) {
        DifferenceClassifier(threshold: options.threshold).classify(baselineImage, currentImage, result: result)
      }
    }
    let frame = Frame(image: currentImage, tree: nil, path: currentPath)
    return try conclude(
      key, passed: result.passed, identical: result.identical, changeHash: result.changeHash,
      baseline: baseline, compared: compared, current: frame, png: { currentBytes }, folder: folder, into: record,
      diffPNG: { try outcome.diffPNG() },
      matchingVariant: {
        try variantMatchingImage(key, baseline: baseline, current: currentImage, options: options)
      })
  }

  /// Frames with element trees, element masks or the layout level.
  private func compareFrames(
    _ key: SnapshotKey, baseline: BaselineStore.Location, compared: BaselineStore.Compared, currentPath: String,
    comparison: FrameComparison, folder: RunFolder, into record: SnapshotRecord, received: Received?,
    renders: Counter?
  ) throws -> SnapshotRecord {
    var record = record
    let baselineFrame = try measured(.decode, by: observer) { try store.frame(at: baseline, decoder: decoder) }
    let currentFrame = try measured(.decode, by: observer) {
      try loadCurrent(currentPath, renders: renders, decoded: received?.image)
    }
    let outcome = try measured(.compare, by: observer) { try comparison.compare(baselineFrame, currentFrame) }
    record.fill(from: outcome.result)
    record.layout = outcome.layout.map { $0.map(LayoutChange.init) }
    record.text = outcome.text.map { $0.map(\.sentence) }
    record.contrast = outcome.contrast.map(ContrastRecord.init)
    record.unmatchedSelectors = outcome.unmatchedSelectors.isEmpty ? nil : outcome.unmatchedSelectors
    record.difference = outcome.difference
    record.regionNotes = outcome.regionSentences.isEmpty ? nil : outcome.regionSentences
    record.current = folder.relative(currentPath)
    // A tree-only frame's PNG is encoded only when it is kept or recorded: a passing frame
    // needs none (encoding an iPhone-size rendering costs more than rendering it).
    return try conclude(
      key, passed: outcome.passed, identical: outcome.result.identical,
      changeHash: outcome.result.changeHash, baseline: baseline, compared: compared, current: currentFrame,
      png: { try pngBytes(of: currentFrame, at: currentPath) }, folder: folder, into: record,
      diffPNG: { try outcome.diffPNG() },
      matchingVariant: {
        try variantMatchingFrame(key, baseline: baseline, current: currentFrame, comparison: comparison)
      })
  }

  /// The verdict's consequences: a failed snapshot keeps its frame and a diff image in the run,
  /// and the record mode may write the baseline. A frame that did not match its baseline, on a
  /// difference not known as noise, is tried against the snapshot's variants
  /// (`matchingVariant`): one it matches passes it.
  private func conclude(
    _ key: SnapshotKey, passed: Bool, identical: Bool, changeHash: String?, baseline: BaselineStore.Location,
    compared: BaselineStore.Compared, current: Frame, png: () throws -> [UInt8], folder: RunFolder,
    into record: SnapshotRecord,
    diffPNG: () throws -> [UInt8],
    matchingVariant: () throws -> SnapshotCheck.VariantMatch<VariantPass>? = { nil }
  ) throws -> SnapshotRecord {
    var record = record
    // A difference approved as noise on this baseline passes; its frame and diff image are
    // still kept, so that the report shows what was let through. Only then are the variants
    // tried, as `SnapshotCheck.check` does: the fingerprint costs one file, a variant a
    // comparison.
    let noise = try rule.knownNoise(passed: passed, changeHash: changeHash, at: baseline, in: store) {
      record.baselineHash
    }
    if !passed, noise == nil, let match = try matchingVariant() {
      return try passedByVariant(match, folder: folder, into: record)
    }
    let images = RunImages(folder: folder, blobs: blobs)
    record.knownNoise = noise
    let verdict = rule.verdict(passed: passed || noise != nil, identical: identical)
    record.status = verdict.status
    if passed {
      // A passing frame is not kept unless it is its baseline's bytes (then it is that blob,
      // for free): the report shows only the baseline, and frames that pass with other bytes
      // (another encoder, noise under the threshold) would add every frame of every run to the
      // blob store.
      // Only over the baseline compared: an approval or undo that landed meanwhile stays.
      if verdict.records, try store.record(png(), tree: current.tree, for: key, comparedWith: compared) {
        record.recorded = true
      }
      return record
    }
    let bytes = try png()
    let diffImage = try measured(.diffImage, by: observer) { try diffPNG() }
    let diffPath = folder.diffPath(for: key)
    let diffHash = try measured(.keep, by: observer) { () throws -> String in
      record.currentHash = try images.keep(bytes)
      record.current = folder.relative(try keepCopy(of: current, png: bytes, key: key, in: folder))
      // The diff image is written once, as its blob; `diff/<key>.png` is a second name for it (a
      // second write and `fsync` of the same bytes cost the service a worker's wait per frame).
      let diffHash = try images.keep(diffImage)
      try folder.confinement.createFolders(containing: diffPath)
      try folder.confinement.replaceWithLink(to: blobs.path(of: diffHash), at: diffPath)
      return diffHash
    }
    record.diff = folder.relative(diffPath)
    record.diffHash = diffHash
    if noise == nil, let hash = changeHash, try store.rejectedChanges(at: baseline).contains(hash) {
      record.previouslyRejected = true
    }
    let recorded =
      verdict.records
      ? try measured(.keep, by: observer) {
        try store.record(bytes, tree: current.tree, for: key, comparedWith: compared)
      } : false
    if recorded {
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
    var rule = SnapshotCheck(
      options: options, selectors: selectors, matchLevel: matchLevel, layoutTolerance: layoutTolerance,
      config: config, recordMode: recordMode)
    rule.contrast = contrast
    rule.regions = regions
    return rule
  }

  /// The snapshot's comparison (`SnapshotCheck.comparison`) under the settings files beside the
  /// baseline and beside the current frame.
  func snapshotComparison(for key: SnapshotKey, baseline: BaselineStore.Location?, currentPath: String)
    throws -> FrameComparison
  {
    try rule.comparison(
      for: key, baselineSettings: try baseline.flatMap { try store.settings(at: $0) },
      frameSettings: try SnapshotSettings.ofFrame(key, inFramesFolder: currentDirectory))
  }
}
