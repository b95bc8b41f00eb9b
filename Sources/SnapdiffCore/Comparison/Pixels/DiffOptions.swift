/// How two images are compared. Names and defaults follow pixelmatch, plus ignore regions and
/// tolerances.
///
/// ```swift
/// var options = DiffOptions(threshold: 0.05)
/// options.ignoreRegions = [PixelRect(x: 0, y: 0, width: 390, height: 44)]  // the status bar
/// options.maxDiffPixels = 10
/// ```
public struct DiffOptions: Sendable, Hashable {
  /// Matching threshold in 0...1: the largest YIQ colour distance, as a fraction of the distance
  /// between black and white (squared, as pixelmatch does), that still counts as equal. Smaller
  /// is stricter. Default 0.1.
  public var threshold: Double
  /// Count anti-aliased pixels as differences instead of excluding them. Default `false`.
  public var includeAA: Bool
  /// Opacity of the faded baseline drawn under the differences in the diff image, 0...1.
  /// Default 0.1.
  public var alpha: Double
  /// Colour of anti-aliased pixels in the diff image. Default yellow (255, 255, 0).
  public var aaColor: RGBAColor
  /// Colour of differing pixels. Default red (255, 0, 0).
  public var diffColor: RGBAColor
  /// Colour of differing pixels where the current image is darker; `nil` uses `diffColor`.
  public var diffColorAlt: RGBAColor?
  /// Draw only the differences on a transparent background, nothing else. Default `false`.
  public var diffMask: Bool
  /// Rectangles whose pixels never count as different (clock, ads, animations). In the diff
  /// image their area is tinted blue and their differences drawn in `ignoredColor`.
  public var ignoreRegions: [PixelRect]
  /// Colour of differing pixels inside ignore regions. Default (0, 128, 255).
  public var ignoredColor: RGBAColor
  /// The most different pixels a passing comparison may have; `nil` (the default) sets no such
  /// limit. See ``passes(differentPixels:totalPixels:)`` for how the two limits combine.
  public var maxDiffPixels: Int?
  /// The largest fraction (0...1) of different pixels a passing comparison may have; `nil` (the
  /// default) sets no such limit.
  public var maxDiffRatio: Double?
  /// For the `perceptual` match level: the largest CIEDE2000 difference (ΔE00) that still counts
  /// as equal. Default ``defaultDeltaE`` (2.0). `threshold` plays this part at the other levels.
  public var deltaE: Double
  /// How pixels are compared (`strict`, pixelmatch, by default): the kernel runs the level's
  /// `pixelMetric`. (`layout` and `text-aware` are decided by `FrameComparison` from element
  /// trees; their pixels compare at `strict`'s and `perceptual`'s metrics.)
  public var matchLevel: MatchLevel

  public init(
    threshold: Double = 0.1,
    includeAA: Bool = false,
    alpha: Double = 0.1,
    aaColor: RGBAColor = .yellow,
    diffColor: RGBAColor = .red,
    diffColorAlt: RGBAColor? = nil,
    diffMask: Bool = false,
    ignoreRegions: [PixelRect] = [],
    ignoredColor: RGBAColor = RGBAColor(red: 0, green: 128, blue: 255),
    maxDiffPixels: Int? = nil,
    maxDiffRatio: Double? = nil,
    matchLevel: MatchLevel = .strict,
    deltaE: Double = DiffOptions.defaultDeltaE
  ) {
    self.threshold = threshold
    self.includeAA = includeAA
    self.alpha = alpha
    self.aaColor = aaColor
    self.diffColor = diffColor
    self.diffColorAlt = diffColorAlt
    self.diffMask = diffMask
    self.ignoreRegions = ignoreRegions
    self.ignoredColor = ignoredColor
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
    self.matchLevel = matchLevel
    self.deltaE = deltaE
  }

  /// ΔE00 2.0: above the 1.2 that colour-managed rendering noise reaches, below the 3.5 of a
  /// real colour change such as #007aff → #0a84ff (see docs/comparison.md).
  public static let defaultDeltaE = 2.0

  /// The problem with these options, or `nil` when they are valid.
  public var problem: String? { problem(naming: { $0 }) }

  /// The problem with these options, or `nil` when they are valid, each setting named as the
  /// caller names it.
  ///
  /// - Parameter name: A setting's name as the caller shows it, from its field's name
  ///   (`"deltaE"` → `"--delta-e"` for the CLI's flags).
  public func problem(naming name: (String) -> String) -> String? {
    if !(0...1).contains(threshold) { return "\(name("threshold")) must be between 0 and 1, not \(threshold)" }
    if !(0...1).contains(alpha) { return "\(name("alpha")) must be between 0 and 1, not \(alpha)" }
    if !(deltaE >= 0 && deltaE.isFinite) { return "\(name("deltaE")) must be 0 or more, not \(deltaE)" }
    if let maxDiffPixels, maxDiffPixels < 0 {
      return "\(name("maxDiffPixels")) must not be negative, not \(maxDiffPixels)"
    }
    if let maxDiffRatio, !(0...1).contains(maxDiffRatio) {
      return "\(name("maxDiffRatio")) is a fraction between 0 and 1, not \(maxDiffRatio)"
    }
    return nil
  }

  /// Whether a comparison with `differentPixels` of `totalPixels` differing passes: the one rule
  /// for the limits. A limit that is not set is absent (as in Playwright): with neither set, any
  /// different pixel fails; with one set, that one decides; with both set, both must hold.
  public func passes(differentPixels: Int, totalPixels: Int) -> Bool {
    if maxDiffPixels == nil && maxDiffRatio == nil { return differentPixels == 0 }
    if let maxDiffPixels, differentPixels > maxDiffPixels { return false }
    if let maxDiffRatio {
      let ratio = totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels)
      if ratio > maxDiffRatio { return false }
    }
    return true
  }
}
