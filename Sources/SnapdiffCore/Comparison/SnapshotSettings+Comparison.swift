#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How settings files and the service's settings part change a comparison: the engine's half of
/// ``SnapshotSettings`` (the type itself lives in SnapdiffModel, which the test API shares).
extension SnapshotSettings {
  /// `options` with these settings applied.
  public func applied(to options: DiffOptions) -> DiffOptions {
    var result = options
    if let threshold { result.threshold = threshold }
    if let includeAA { result.includeAA = includeAA }
    if let maxDiffPixels { result.maxDiffPixels = maxDiffPixels }
    if let maxDiffRatio { result.maxDiffRatio = maxDiffRatio }
    result.ignoreRegions += (ignoreRegions ?? [])
    if let matchLevel { result.matchLevel = matchLevel }
    if let deltaE { result.deltaE = deltaE }
    return result
  }

  /// `comparison` with these settings applied: options, element masks, match level, regions
  /// (added to those before, as ignore regions are).
  public func applied(to comparison: FrameComparison) throws -> FrameComparison {
    var result = comparison
    result.options = applied(to: comparison.options)
    result.selectors += try (ignoreElements ?? []).map { text throws(ConfigurationError) in try ElementSelector(text) }
    if let matchLevel { result.matchLevel = matchLevel }
    if let layoutTolerance { result.layoutTolerance = layoutTolerance }
    for region in regions ?? [] {
      if let problem = region.problem { throw ConfigurationError(problem) }
      if case .element(let text) = region.area { _ = try ElementSelector(text) }
    }
    result.regions += regions ?? []
    for region in contrastRegions ?? [] { try region.validated() }
    result.contrast = applied(to: comparison.contrast)
    return result
  }

  /// `check` with these settings' contrast fields applied: `contrast` turns the check on (or
  /// changes its level), `contrastFails` says whether a failure fails the snapshot, and
  /// `contrastRegions` add up. Without a level here or in `check`, there is no check (`nil`).
  public func applied(to check: ContrastCheck?) -> ContrastCheck? {
    guard contrast != nil || check != nil else { return nil }
    var result = check ?? ContrastCheck()
    if let contrast { result.level = contrast }
    if let contrastFails { result.failsSnapshot = contrastFails }
    result.regions += contrastRegions ?? []
    return result
  }

  /// The settings of `key`'s frame in a frames folder (`<folder>/<key>.snapdiff.json`: a test's
  /// masks, a service request's settings part), or `nil` when it has none.
  ///
  /// - Throws: `ConfigurationError` naming the file when it is not valid.
  public static func ofFrame(_ key: SnapshotKey, inFramesFolder folder: String) throws -> SnapshotSettings? {
    try load(folder + "/" + key.relativePath(suffix: ".snapdiff.json"))
  }

  /// Reads a settings file, or `nil` when there is none.
  ///
  /// - Throws: `ConfigurationError` naming the file when it is not valid.
  public static func load(_ path: String) throws -> SnapshotSettings? {
    guard FileSystem.isFile(path) else { return nil }
    let bytes = try FileIO.read(path, limit: maximumBytes)
    let settings: SnapshotSettings
    do {
      settings = try JSONDecoder().decode(SnapshotSettings.self, from: Data(bytes))
    } catch {
      throw ConfigurationError("\(path): not valid snapshot settings: \(JSONProblem.describe(error))")
    }
    let options = settings.applied(to: DiffOptions())
    if let problem = options.problem { throw ConfigurationError("\(path): \(problem)") }
    do {
      _ = try settings.applied(to: FrameComparison())
    } catch {
      throw ConfigurationError("\(path): \(error)")
    }
    return settings
  }
}
