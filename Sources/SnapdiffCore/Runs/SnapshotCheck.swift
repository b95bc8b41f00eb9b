/// The one rule that decides a snapshot's verdict, whichever entry point asks: `snapdiff check`
/// (`RunChecker`), the service (`RunSession`, which hands each frame to a `RunChecker`) and the
/// test API's in-process checker (`LocalSnapshotChecker`, through ``check(_:key:frameSettings:in:)``).
/// They differ in where frames come from and what they keep (a run folder, blobs, a frames
/// folder), never in which comparison applies or what the record mode does: both live here.
///
/// ```swift
/// let rule = SnapshotCheck(options: DiffOptions(), config: try ProjectConfig.load("snapdiff.json"), recordMode: .never)
/// let checked = try rule.check(frame, key: try SnapshotKey("Home/Login"), frameSettings: nil, in: store)
/// print(checked.verdict.status)  // passed, failed or new
/// ```
public struct SnapshotCheck: Sendable {
  /// The comparison defaults: flags over `snapdiff.json`'s settings.
  public var options: DiffOptions
  /// Element masks for every snapshot (settings files add theirs).
  public var selectors: [ElementSelector]
  public var matchLevel: MatchLevel
  public var layoutTolerance: Double
  /// Regions for every snapshot (`check --region`), after `snapdiff.json`'s rules for the key.
  public var regions: [CheckRegion] = []
  /// `snapdiff.json`: its ignore rules by key glob apply here (its defaults are in `options`).
  public var config: ProjectConfig
  public var recordMode: RecordMode
  /// Accessibility validation of every snapshot (flags over `snapdiff.json`; settings files
  /// refine it), or `nil`. Default: `snapdiff.json`'s (``ProjectConfig/contrastCheck``).
  public var contrast: ContrastCheck?

  /// - Parameter matchLevel: nil takes `options.matchLevel` (flags over `snapdiff.json`).
  public init(
    options: DiffOptions = DiffOptions(), selectors: [ElementSelector] = [], matchLevel: MatchLevel? = nil,
    layoutTolerance: Double = 1, config: ProjectConfig = ProjectConfig(), recordMode: RecordMode = .missing
  ) {
    self.options = options
    self.selectors = selectors
    self.matchLevel = matchLevel ?? options.matchLevel
    self.layoutTolerance = layoutTolerance
    self.config = config
    self.recordMode = recordMode
    contrast = config.contrastCheck
  }

  /// The comparison for `key`: the defaults, `snapdiff.json`'s ignore rules for the key, then the
  /// settings file beside the baseline, then the frame's own settings (a test's masks, a
  /// `<key>.snapdiff.json` in the frames folder, a service request's `settings` part), each
  /// refining the one before. The order matters (a later match level wins), so it is written once.
  ///
  /// - Throws: `ConfigurationError` for settings that cannot apply (a bad selector).
  public func comparison(
    for key: SnapshotKey, baselineSettings: SnapshotSettings?, frameSettings: SnapshotSettings?
  ) throws -> FrameComparison {
    var options = self.options
    options.ignoreRegions += config.ignoreRegions(for: key)
    options.matchLevel = matchLevel
    var comparison = FrameComparison(
      options: options, selectors: selectors, matchLevel: matchLevel, layoutTolerance: layoutTolerance,
      regions: config.checkRegions(for: key) + regions)
    comparison.contrast = contrast
    if let baselineSettings { comparison = try baselineSettings.applied(to: comparison) }
    if let frameSettings { comparison = try frameSettings.applied(to: comparison) }
    return comparison
  }

  /// A snapshot's verdict and what the record mode does with its frame.
  public struct Verdict: Sendable, Equatable {
    /// `new` (no baseline), `passed` or `failed`.
    public var status: SnapshotStatus
    /// The frame is written as the baseline. (A run's verdict over its records, approvals and
    /// errors included, is `RunVerdict.fails(with:recordMode:)`.)
    public var records: Bool
  }

  /// A snapshot without a baseline: `new`, recorded unless the mode is `never`.
  public var withoutBaseline: Verdict { Verdict(status: .new, records: recordMode.records(.new)) }

  /// A compared snapshot: `passed` (re-recorded in mode `all` when its pixels are not identical
  /// to the baseline's: an identical frame would rewrite the same picture) or `failed`
  /// (re-recorded in modes `all` and `failed`, and still reported failed).
  public func verdict(passed: Bool, identical: Bool) -> Verdict {
    passed
      ? Verdict(status: .passed, records: recordMode == .all && !identical)
      : Verdict(status: .failed, records: recordMode.records(.failed))
  }

  /// The fingerprint that makes a comparison that did not pass known noise: a difference a
  /// reviewer approved as noise (`Review.approveAsNoise`) on this very baseline, found again
  /// (`BaselineStore.knownNoise`). Such a snapshot passes (`verdict(passed: true, …)`) and says
  /// why; any other difference still fails. `baselineHash` is asked only when the snapshot has
  /// fingerprints.
  public func knownNoise(
    passed: Bool, changeHash: String?, at location: BaselineStore.Location, in store: BaselineStore,
    baselineHash: () throws -> String?
  ) throws -> NoiseFingerprint? {
    guard !passed else { return nil }
    return try store.knownNoise(changeHash: changeHash, at: location, baselineHash: baselineHash)
  }

  /// What ``check(_:key:frameSettings:in:)`` found.
  public struct Checked: Sendable {
    public var verdict: Verdict
    /// The baseline compared against (nil: none, the snapshot is new).
    public var baseline: BaselineStore.Location?
    public var baselineFrame: Frame?
    /// The comparison made (nil without a baseline), to draw the diff image with.
    public var comparison: FrameComparison?
    public var outcome: FrameComparison.Outcome?
    /// Where the frame was written as the baseline, when the record mode wrote it (`nil` too when
    /// the baseline changed after it was compared, and the change was kept).
    public var recordedPath: String?
    /// The comparison failed, but on a difference approved as noise: the snapshot passed.
    public var knownNoise: NoiseFingerprint?
    /// The accepted variant the frame matched when it did not match the baseline (then
    /// `baselineFrame` and `outcome` are the variant's).
    public var variant: BaselineStore.Variant?
  }

  /// Checks `frame` as `key` in memory against `store`: the baseline located (its environment
  /// and overlays), compared under ``comparison(for:baselineSettings:frameSettings:)``, and the
  /// frame written as the baseline when the record mode says so. What `RunChecker.check` decides
  /// for a frames folder, for a frame a test holds.
  ///
  /// - Throws: `FileError`/`PNGError` for a baseline that cannot be read, `ConfigurationError`
  ///   for settings that cannot apply, `StoreEscapeError` for a write out of the store.
  public func check(_ frame: Frame, key: SnapshotKey, frameSettings: SnapshotSettings?, in store: BaselineStore)
    throws -> Checked
  {
    guard let location = try store.locate(key) else {
      let verdict = withoutBaseline
      var checked = Checked(verdict: verdict)
      if verdict.records { checked.recordedPath = try record(frame, key: key, in: store, comparedWith: nil) }
      return checked
    }
    // Stamped before it is read: a recording then writes only over this file.
    let compared = BaselineStore.Compared(location)
    let baseline = try store.frame(at: location)
    let comparison = try self.comparison(
      for: key, baselineSettings: try store.settings(at: location), frameSettings: frameSettings)
    let outcome = try comparison.compare(baseline, frame)
    let noise = try knownNoise(passed: outcome.passed, changeHash: outcome.result.changeHash, at: location, in: store) {
      SHA256.hex(try store.bytes(at: location))
    }
    if !outcome.passed, noise == nil,
      let match = try variantMatching(frame, key: key, besides: location, comparison: comparison, in: store)
    {
      return Checked(
        verdict: matchedVariant, baseline: match.variant.location, baselineFrame: match.found.frame,
        comparison: comparison, outcome: match.found.outcome, variant: match.variant)
    }
    let verdict = self.verdict(passed: outcome.passed || noise != nil, identical: outcome.result.identical)
    var checked = Checked(
      verdict: verdict, baseline: location, baselineFrame: baseline, comparison: comparison, outcome: outcome)
    checked.knownNoise = noise
    if verdict.records { checked.recordedPath = try record(frame, key: key, in: store, comparedWith: compared) }
    return checked
  }

  /// Whether `frame` matches the baseline of `key` under the comparison ``check(_:key:frameSettings:in:)``
  /// applies, with nothing recorded or written: false without a baseline. What a test's stable
  /// capture asks of each capture before it settles.
  ///
  /// - Throws: as ``check(_:key:frameSettings:in:)`` does.
  public func matches(_ frame: Frame, key: SnapshotKey, frameSettings: SnapshotSettings?, in store: BaselineStore)
    throws -> Bool
  {
    guard let location = try store.locate(key) else { return false }
    let comparison = try self.comparison(
      for: key, baselineSettings: try store.settings(at: location), frameSettings: frameSettings)
    return try comparison.compare(try store.frame(at: location), frame).passed
  }

  /// The frame written as the baseline, when the baseline is still the one compared (`nil`: none):
  /// its path, or `nil` when an approval changed the baseline meanwhile and it stays.
  private func record(
    _ frame: Frame, key: SnapshotKey, in store: BaselineStore, comparedWith compared: BaselineStore.Compared?
  ) throws -> String? {
    let png = try PNGEncoder().encode(frame.image)
    guard try store.record(png, tree: frame.tree, for: key, comparedWith: compared) else { return nil }
    return store.writePath(for: key)
  }
}
