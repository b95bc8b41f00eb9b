/// The run-wide half of a ``SnapshotCheck`` written into `run.json` (`RunRecord.comparison`), so
/// that a later re-check of the run's kept frames against a new baseline (`SeenApprovals`)
/// applies the comparison the run applied: its flags over `snapdiff.json`, not whatever the
/// process re-checking was started with. Per-key rules (`snapdiff.json`'s ignore and region rules
/// by key glob, the settings files beside baselines and frames) are not part of it: they are read
/// again where they live.
extension SnapshotCheck {
  /// This rule's defaults in the settings vocabulary: thresholds, masks, match level, layout
  /// tolerance, run-wide regions and contrast. (The diff image's colours are not part of a
  /// verdict and are left out.)
  public var recordedSettings: SnapshotSettings {
    var settings = SnapshotSettings(
      threshold: options.threshold, includeAA: options.includeAA, maxDiffPixels: options.maxDiffPixels,
      maxDiffRatio: options.maxDiffRatio, ignoreRegions: options.ignoreRegions.isEmpty ? nil : options.ignoreRegions,
      ignoreElements: selectors.isEmpty ? nil : selectors.map(\.text), matchLevel: matchLevel,
      layoutTolerance: layoutTolerance, deltaE: options.deltaE, regions: regions.isEmpty ? nil : regions)
    if let contrast {
      settings.contrast = contrast.level
      settings.contrastFails = contrast.failsSnapshot
      settings.contrastRegions = contrast.regions.isEmpty ? nil : contrast.regions
    }
    return settings
  }

  /// The rule a run recorded (``recordedSettings``), under `config`'s per-key rules, recording
  /// nothing.
  ///
  /// - Throws: `ConfigurationError` for a recorded selector or region that no longer parses.
  public init(recorded settings: SnapshotSettings, config: ProjectConfig) throws {
    self.init(options: settings.applied(to: DiffOptions()), config: config, recordMode: .never)
    selectors = try (settings.ignoreElements ?? []).map { text throws(ConfigurationError) in try ElementSelector(text) }
    if let matchLevel = settings.matchLevel { self.matchLevel = matchLevel }
    if let layoutTolerance = settings.layoutTolerance { self.layoutTolerance = layoutTolerance }
    regions = settings.regions ?? []
    contrast = settings.applied(to: nil)
  }
}
