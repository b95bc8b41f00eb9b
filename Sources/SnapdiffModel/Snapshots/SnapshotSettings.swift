#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Per-snapshot comparison settings: `<key>.snapdiff.json` beside a baseline or beside a current
/// frame. Every field is optional; a present one overrides the run's default, and ignore regions
/// add up.
///
/// ```json
/// {"threshold": 0.05, "maxDiffPixels": 10,
///  "ignoreRegions": [{"x": 0, "y": 0, "width": 390, "height": 44}]}
/// ```
public struct SnapshotSettings: Sendable, Codable, Equatable {
  public var threshold: Double?
  public var includeAA: Bool?
  public var maxDiffPixels: Int?
  public var maxDiffRatio: Double?
  public var ignoreRegions: [Region]?
  /// Element selectors whose areas are ignored (`clock`, `~banner`, `@image`, `alert/ok`),
  /// resolved through the frames' element trees.
  public var ignoreElements: [String]?
  /// `exact`, `strict`, `ignore-colors`, `layout`, `perceptual`, `text-aware` or `rendering-tolerant`.
  public var matchLevel: MatchLevel?
  /// For the perceptual level: the largest ΔE00 that still counts as equal.
  public var deltaE: Double?
  /// For the layout level: moves and size changes up to this many points are not changes.
  public var layoutTolerance: Double?
  /// Regions compared by a rule of their own (floating, strict, content, layout, ignore); they
  /// add up, as ignore regions do.
  public var regions: [CheckRegion]?

  /// WCAG contrast of text elements, checked in the current frame's tree and pixels: `AA` or `AAA`.
  public var contrast: ContrastLevel?
  /// Whether an element under its required contrast fails the snapshot (else it is reported only).
  public var contrastFails: Bool?
  /// `TYPE:AREA` overrides of the contrast rule (`large-text:title`, `ignore:~logo`, `ignore:0,0,80,40pt`); they add up.
  public var contrastRegions: [ContrastRegion]?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case threshold, includeAA, maxDiffPixels, maxDiffRatio, ignoreRegions, ignoreElements, matchLevel, deltaE
    case layoutTolerance, regions
    case contrast, contrastFails, contrastRegions
  }

  /// Decodes settings, refusing a field that is not one of them.
  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    threshold = try container.decodeIfPresent(Double.self, forKey: .threshold)
    includeAA = try container.decodeIfPresent(Bool.self, forKey: .includeAA)
    maxDiffPixels = try container.decodeIfPresent(Int.self, forKey: .maxDiffPixels)
    maxDiffRatio = try container.decodeIfPresent(Double.self, forKey: .maxDiffRatio)
    ignoreRegions = try container.decodeIfPresent([Region].self, forKey: .ignoreRegions)
    ignoreElements = try container.decodeIfPresent([String].self, forKey: .ignoreElements)
    matchLevel = try container.decodeIfPresent(MatchLevel.self, forKey: .matchLevel)
    deltaE = try container.decodeIfPresent(Double.self, forKey: .deltaE)
    layoutTolerance = try container.decodeIfPresent(Double.self, forKey: .layoutTolerance)
    regions = try container.decodeIfPresent([CheckRegion].self, forKey: .regions)
    contrast = try container.decodeIfPresent(ContrastLevel.self, forKey: .contrast)
    contrastFails = try container.decodeIfPresent(Bool.self, forKey: .contrastFails)
    contrastRegions = try container.decodeIfPresent([ContrastRegion].self, forKey: .contrastRegions)
  }

  /// The most bytes a settings file (or the service's `settings` part) may hold.
  public static let maximumBytes = 1 << 20

  public init(
    threshold: Double? = nil, includeAA: Bool? = nil, maxDiffPixels: Int? = nil,
    maxDiffRatio: Double? = nil, ignoreRegions: [Region]? = nil, ignoreElements: [String]? = nil,
    matchLevel: MatchLevel? = nil, layoutTolerance: Double? = nil, deltaE: Double? = nil,
    regions: [CheckRegion]? = nil
  ) {
    self.threshold = threshold
    self.includeAA = includeAA
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
    self.ignoreRegions = ignoreRegions
    self.ignoreElements = ignoreElements
    self.matchLevel = matchLevel
    self.layoutTolerance = layoutTolerance
    self.deltaE = deltaE
    self.regions = regions
  }

  /// A rectangle of `ignoreRegions`: snapdiff's one rectangle.
  public typealias Region = PixelRect
}
