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
    /// A `SNAPDIFF_RECORD` that is no record mode (``SnapshotChecker/local(baselines:environment:frames:artifacts:recordMode:options:)``):
    /// thrown by every check, so the tests fail naming it.
    var environmentProblem: ConfigurationError?

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

    /// Checks `frame` as the snapshot `key`, masking `masks`: the verdict is `SnapshotCheck`'s,
    /// the rule `snapdiff check` and the service apply (the baseline located in the store, the
    /// comparison under `snapdiff.json`, the baseline's settings file and then the masks, the
    /// record mode); this checker adds the frames folder, the artifacts and the test's wording.
    public func verify(_ captured: CapturedFrame, key rawKey: String, masks: SnapshotMasks = SnapshotMasks()) throws
      -> SnapshotVerdict
    {
      if let environmentProblem { throw environmentProblem }
      let key = try SnapshotKey(rawKey)
      let store = try BaselineStore(root: baselines, environment: environment)
      try FramesFolder(path: frames).write(captured, key: key, masks: masks)
      let frame = try captured.engineFrame()
      let masksSettings = masks.settings
      let checked = try rule().check(
        frame, key: key, frameSettings: masksSettings == SnapshotSettings() ? nil : masksSettings, in: store)

      guard let baseline = checked.baseline, let outcome = checked.outcome else {
        guard let recorded = checked.recordedPath else {
          if checked.verdict.records {
            return SnapshotVerdict(
              key: rawKey, status: .failed,
              message:
                "A baseline for snapshot '\(rawKey)' appeared in \(DisplayPath.shown(store.root)) while this frame was "
                + "compared (an approval, or another test recording it): it was kept, not overwritten. Run the test again."
            )
          }
          return SnapshotVerdict(
            key: rawKey, status: .failed,
            message:
              "No baseline for snapshot '\(rawKey)' in \(DisplayPath.shown(store.root)) (record mode never, as in CI). "
              + "Record it locally, or run `snapdiff check \(frames)` and `snapdiff approve --new`.")
        }
        var verdict = SnapshotVerdict(key: rawKey, status: .recorded)
        verdict.baselinePath = DisplayPath.shown(recorded)
        return verdict
      }

      var verdict = SnapshotVerdict(key: rawKey, status: checked.verdict.status == .passed ? .passed : .failed)
      verdict.differentPixels = outcome.result.differentPixels
      verdict.regionNotes = outcome.regionSentences
      verdict.baselinePath = DisplayPath.shown(baseline.path)
      guard checked.verdict.status == .failed else { return verdict }

      // A failure leaves what a reviewer needs: the current frame and the diff image.
      let current = artifacts + "/" + key.relativePath()
      let diff = artifacts + "/" + key.relativePath(suffix: ".diff.png")
      try FileSystem.createDirectories(PathText.parent(of: current))
      try PNGEncoder().write(frame.image, to: current)
      // Drawn from what the comparison kept: the frame is not compared a second time.
      try checked.outcome?.writeDiffImage(to: diff)
      verdict.currentPath = DisplayPath.shown(current)
      verdict.diffPath = DisplayPath.shown(diff)
      verdict.message = Self.failureMessage(
        key: rawKey, outcome: outcome, baseline: verdict.baselinePath!, current: verdict.currentPath!,
        diff: verdict.diffPath!, rerecorded: checked.verdict.records, frames: frames)
      return verdict
    }

    /// Whether `captured` matches the baseline of `key` under the rule ``verify(_:key:masks:)``
    /// applies, without writing anything (no frame, no baseline, no artifact): what a
    /// ``StableCapture`` that ``StableCapture/stopsAtBaselineMatch`` asks of each capture. False
    /// without a baseline.
    public func matchesBaseline(_ captured: CapturedFrame, key rawKey: String, masks: SnapshotMasks = SnapshotMasks())
      throws -> Bool
    {
      if let environmentProblem { throw environmentProblem }
      let key = try SnapshotKey(rawKey)
      let store = try BaselineStore(root: baselines, environment: environment)
      let masksSettings = masks.settings
      return try rule().matches(
        try captured.engineFrame(), key: key,
        frameSettings: masksSettings == SnapshotSettings() ? nil : masksSettings, in: store)
    }

    /// The rule `check` would apply: flags (here `options`) under `snapdiff.json`'s defaults, its
    /// ignore rules, and the record mode.
    func rule() throws -> SnapshotCheck {
      let config = try projectConfig()
      return SnapshotCheck(options: config.settings.applied(to: options), config: config, recordMode: recordMode)
    }

    /// `config`, else `snapdiff.json` in the current folder when there is one (as `check` reads it).
    private func projectConfig() throws -> ProjectConfig {
      if let config { return config }
      return FileSystem.isFile(ProjectConfig.fileName)
        ? try ProjectConfig.load(ProjectConfig.fileName) : ProjectConfig()
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
      if let difference = outcome.difference { lines.append("  difference: " + difference.sentence) }
      if let layout = outcome.layout, !layout.isEmpty {
        lines.append("  layout: " + layout.map(\.sentence).joined(separator: "; "))
      }
      if let text = outcome.text, !text.isEmpty {
        lines.append("  text: " + text.map(\.sentence).joined(separator: "; "))
      }
      if !outcome.regionSentences.isEmpty {
        lines.append("  regions: " + outcome.regionSentences.joined(separator: "; "))
      }
      if let contrast = outcome.contrast, contrast.failsTheSnapshot {
        lines.append("  contrast (\(contrast.level.rawValue)): " + contrast.sentences.joined(separator: "; "))
      }
      lines.append("  baseline: \(baseline)")
      lines.append("  current:  \(current)")
      lines.append("  diff:     \(diff)")
      lines.append(
        rerecorded
          ? "The baseline was re-recorded (SNAPDIFF_RECORD); re-run to check."
          : "If the change is intended: snapdiff check \(frames) && snapdiff approve '\(key)', or re-run with SNAPDIFF_RECORD=failed."
      )
      return lines.joined(separator: "\n")
    }

    /// Writes the skip of `key` to the frames folder, so `snapdiff check` reports it.
    public func recordSkip(key rawKey: String, reason: String) throws {
      if let environmentProblem { throw environmentProblem }
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
