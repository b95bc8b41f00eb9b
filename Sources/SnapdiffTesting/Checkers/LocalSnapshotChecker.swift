#if SNAPDIFF_ENGINE
  import SnapdiffCore

  /// Checks snapshots in this process, against the baseline store: the embedded default where
  /// the engine links (Linux, macOS).
  ///
  /// Every captured frame is written to the frames folder (`<key>.png`, its tree, and a
  /// `<key>.snapdiff.json` with the page's masks), so that `snapdiff check FRAMES` in CI sees
  /// exactly what the tests saw; the comparison itself runs on the pixels in memory, with the
  /// same settings `check` applies: `snapdiff.json` (its defaults and ignore rules), the
  /// baseline's settings file, then the frame's masks.
  public struct LocalSnapshotChecker: Sendable {
    public var baselines: String
    public var environment: String?
    public var frames: String
    public var artifacts: String
    public var recordMode: RecordMode
    public var options: DiffOptions
    /// The project's configuration, as `check` reads it; nil: `snapdiff.json` in the current
    /// folder when there is one.
    public var config: ProjectConfig?

    public init(
      baselines: String, environment: String? = nil, frames: String, artifacts: String, recordMode: RecordMode,
      options: DiffOptions = DiffOptions(), config: ProjectConfig? = nil
    ) {
      self.baselines = baselines
      self.environment = environment
      self.frames = frames
      self.artifacts = artifacts
      self.recordMode = recordMode
      self.options = options
      self.config = config
    }

    /// Checks `frame` as the snapshot `key`, masking `masks`.
    public func verify(_ captured: CapturedFrame, key rawKey: String, masks: SnapshotMasks = SnapshotMasks()) throws -> SnapshotVerdict {
      let key = try SnapshotKey(rawKey)
      let store = try BaselineStore(root: baselines, environment: environment)
      try FramesFolder(path: frames).write(captured, key: key, masks: masks)
      let frame = try captured.engineFrame()

      guard let location = try store.locate(key) else {
        guard recordMode.records(.new) else {
          return SnapshotVerdict(
            key: rawKey, status: .failed,
            message: "No baseline for snapshot '\(rawKey)' in \(DisplayPath.shown(store.root)) (record mode never, as in CI). "
              + "Record it locally, or run `snapdiff check \(frames)` and `snapdiff approve --new`.")
        }
        try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key)
        var verdict = SnapshotVerdict(key: rawKey, status: .recorded)
        verdict.baselinePath = DisplayPath.shown(store.writePath(for: key))
        return verdict
      }

      let baseline = try Frame.load(location.path)
      var comparison = try comparison(for: key, masks: masks, config: try projectConfig())
      if let settings = try store.settings(at: location) { comparison = try settings.applied(to: comparison) }
      comparison.options.matchLevel = comparison.matchLevel.pixelLevel
      let outcome = try comparison.compare(baseline, frame)
      var verdict = SnapshotVerdict(key: rawKey, status: outcome.passed ? .passed : .failed)
      verdict.differentPixels = outcome.result.differentPixels
      verdict.baselinePath = DisplayPath.shown(location.path)
      if outcome.passed {
        if recordMode == .all && !outcome.result.identical {
          try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key)
        }
        return verdict
      }

      // A failure leaves what a reviewer needs: the current frame and the diff image.
      let current = artifacts + "/" + key.relativePath()
      let diff = artifacts + "/" + key.relativePath(suffix: ".diff.png")
      try FileSystem.createDirectories(PathText.parent(of: current))
      try PNGEncoder().write(frame.image, to: current)
      if let image = try comparison.compare(baseline, frame, drawing: true).diffImage {
        try PNGEncoder(speed: .fast).write(image, to: diff)
      }
      verdict.currentPath = DisplayPath.shown(current)
      verdict.diffPath = DisplayPath.shown(diff)
      let rerecord = recordMode == .all || recordMode == .failed
      if rerecord { try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key) }
      verdict.message = Self.failureMessage(
        key: rawKey, outcome: outcome, baseline: verdict.baselinePath!, current: verdict.currentPath!,
        diff: verdict.diffPath!, rerecorded: rerecord, frames: frames)
      return verdict
    }

    /// The comparison `check` would make: flags (here `options`), `snapdiff.json`'s ignore rules
    /// for the key, then the snapshot's own masks.
    private func projectConfig() throws -> ProjectConfig {
      if let config { return config }
      return FileSystem.isFile(ProjectConfig.fileName) ? try ProjectConfig.load(ProjectConfig.fileName) : ProjectConfig()
    }

    private func comparison(for key: SnapshotKey, masks: SnapshotMasks, config: ProjectConfig) throws -> FrameComparison {
      var options = config.settings.applied(to: self.options)
      options.ignoreRegions += config.ignoreRegions(for: key)
      let level = options.matchLevel
      options.matchLevel = level.pixelLevel
      var comparison = FrameComparison(options: options, selectors: [], matchLevel: level)
      comparison = try masks.settings.applied(to: comparison)
      return comparison
    }

    static func failureMessage(
      key: String, outcome: FrameComparison.Outcome, baseline: String, current: String, diff: String,
      rerecorded: Bool, frames: String
    ) -> String {
      let result = outcome.result
      var lines = [
        "Snapshot '\(key)' does not match its baseline: "
          + DifferenceWording.sentence(
            differentPixels: result.differentPixels, totalPixels: result.totalPixels,
            differentRatio: result.differentRatio, regions: result.regions,
            baselineSize: result.baselineSize, currentSize: result.currentSize)
      ]
      if let layout = outcome.layout, !layout.isEmpty {
        lines.append("  layout: " + layout.map(\.sentence).joined(separator: "; "))
      }
      if let text = outcome.text, !text.isEmpty {
        lines.append("  text: " + text.map(\.sentence).joined(separator: "; "))
      }
      lines.append("  baseline: \(baseline)")
      lines.append("  current:  \(current)")
      lines.append("  diff:     \(diff)")
      lines.append(
        rerecorded
          ? "The baseline was re-recorded (SNAPDIFF_RECORD); re-run to check."
          : "If the change is intended: snapdiff check \(frames) && snapdiff approve '\(key)', or re-run with SNAPDIFF_RECORD=failed.")
      return lines.joined(separator: "\n")
    }

    /// Writes the skip of `key` to the frames folder, so `snapdiff check` reports it.
    public func recordSkip(key rawKey: String, reason: String) throws {
      try FramesFolder(path: frames).writeSkip(key: try SnapshotKey(rawKey), reason: reason)
    }
  }

  extension CapturedFrame {
    /// The engine's frame: pixels in memory, the PNG decoded, or the tree rendered.
    public func engineFrame() throws -> Frame {
      if let image { return Frame(image: image, tree: tree, path: source) }
      if let png { return Frame(image: try PNGDecoder().decode(png, path: source), tree: tree, path: source) }
      if let tree { return Frame(image: ElementRenderer().render(tree), tree: tree, path: source) }
      throw ConfigurationError("\(source): the shooter captured neither a screenshot nor an element tree")
    }

    /// A frame the engine made (a PNG decoded, pixels drawn): compared in memory as it is.
    public init(_ frame: Frame) {
      self.init(png: nil, tree: frame.tree, source: frame.path)
      image = frame.image
    }
  }
#endif
