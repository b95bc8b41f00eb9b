#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `snapdiff.json` at the project root: the defaults a team shares. Command-line flags
/// override it.
///
/// ```json
/// {
///   "baselines": "baselines",
///   "environment": "iPhone15-iOS17@3x",
///   "threshold": 0.1,
///   "includeAA": false,
///   "maxDiffPixels": 0,
///   "maxDiffRatio": 0,
///   "ignore": [{"keys": "Home*", "regions": [{"x": 0, "y": 0, "width": 390, "height": 44}]}]
/// }
/// ```
public struct ProjectConfig: Sendable, Codable, Equatable {
  /// The baseline store, relative to the config file. Default `baselines`.
  public var baselines: String?
  public var environment: String?
  public var threshold: Double?
  public var includeAA: Bool?
  public var maxDiffPixels: Int?
  public var maxDiffRatio: Double?
  /// The match level of every snapshot (`--match` and settings files override it).
  public var matchLevel: MatchLevel?
  /// For the perceptual level: the largest ΔE00 that still counts as equal.
  public var deltaE: Double?
  /// Ignore regions for the snapshots whose keys match a glob.
  public var ignore: [IgnoreRule]?
  /// Regions compared by a rule of their own (floating, strict, content, layout) for the
  /// snapshots whose keys match a glob.
  public var regions: [RegionRule]?
  /// Accessibility validation of every snapshot: `AA` or `AAA` (`--contrast` overrides it).
  public var contrast: ContrastLevel?
  /// Whether a contrast failure fails the snapshot (`--contrast-fails`).
  public var contrastFails: Bool?
  /// `TYPE:AREA` overrides of the contrast rule for every snapshot.
  public var contrastRegions: [ContrastRegion]?

  public init() {}

  public struct RegionRule: Sendable, Codable, Equatable {
    /// A key or a glob (`*`, `?`).
    public var keys: String
    public var regions: [CheckRegion]

    public init(keys: String, regions: [CheckRegion]) {
      self.keys = keys
      self.regions = regions
    }
  }

  public struct IgnoreRule: Sendable, Codable, Equatable {
    /// A key or a glob (`*`, `?`).
    public var keys: String
    public var regions: [SnapshotSettings.Region]

    public init(keys: String, regions: [SnapshotSettings.Region]) {
      self.keys = keys
      self.regions = regions
    }
  }

  /// The file name looked for in the working folder.
  public static let fileName = "snapdiff.json"

  /// Reads a config file.
  ///
  /// - Throws: `FileError` or `ConfigurationError` naming the file and the problem.
  public static func load(_ path: String) throws -> ProjectConfig {
    let bytes = try FileIO.read(path, limit: 1 << 22)
    let config: ProjectConfig
    do {
      config = try JSONDecoder().decode(ProjectConfig.self, from: Data(bytes))
    } catch {
      throw ConfigurationError("\(path): not a valid snapdiff config: \(JSONProblem.describe(error))")
    }
    if let problem = config.settings.applied(to: DiffOptions()).problem {
      throw ConfigurationError("\(path): \(problem)")
    }
    for rule in config.regions ?? [] {
      for region in rule.regions {
        if let problem = region.problem { throw ConfigurationError("\(path): regions for '\(rule.keys)': \(problem)") }
      }
    }
    for region in config.contrastRegions ?? [] {
      do { try region.validated() } catch { throw ConfigurationError("\(path): \(error)") }
    }
    return config
  }

  /// The config's comparison defaults as per-snapshot settings (without its ignore rules).
  public var settings: SnapshotSettings {
    var settings = SnapshotSettings(
      threshold: threshold, includeAA: includeAA, maxDiffPixels: maxDiffPixels,
      maxDiffRatio: maxDiffRatio, matchLevel: matchLevel, deltaE: deltaE)
    settings.contrast = contrast
    settings.contrastFails = contrastFails
    settings.contrastRegions = contrastRegions
    return settings
  }

  /// The accessibility validation this config asks of every snapshot (`contrast`,
  /// `contrastFails`, `contrastRegions`), or `nil` without a level: the default of every entry
  /// point that reads the config (`check`, the service, the test API's local checker).
  public var contrastCheck: ContrastCheck? { settings.applied(to: nil) }

  /// The regions of every kind that apply to `key`.
  public func checkRegions(for key: SnapshotKey) -> [CheckRegion] {
    (regions ?? []).filter { key.matches(glob: $0.keys) }.flatMap { $0.regions }
  }

  /// The ignore regions that apply to `key`.
  public func ignoreRegions(for key: SnapshotKey) -> [PixelRect] {
    (ignore ?? []).filter { key.matches(glob: $0.keys) }.flatMap { $0.regions }
  }
}
