/// One way of comparing that calibration measures: a match level with its colour tolerance (the
/// pixel comparison) and an allowance of differing pixels (the verdict drawn from its count).
///
/// Settings that share a pixel comparison share its count: each pair is compared once per
/// ``PixelComparison`` and every allowance is judged from that one count.
public struct CalibrationSetting: Sendable, Hashable {
  /// What the pixels are compared with: a level and its tolerance.
  public struct PixelComparison: Sendable, Hashable {
    public var matchLevel: MatchLevel
    /// The YIQ threshold (`strict`, `ignore-colors`), or `nil` for the default.
    public var threshold: Double?
    /// The largest ΔE00 still equal (`perceptual`), or `nil` for the default.
    public var deltaE: Double?

    public init(matchLevel: MatchLevel, threshold: Double? = nil, deltaE: Double? = nil) {
      self.matchLevel = matchLevel
      self.threshold = threshold
      self.deltaE = deltaE
    }

    /// The engine's options for it, every limit unset (any differing pixel fails).
    public var options: DiffOptions {
      var options = DiffOptions(matchLevel: matchLevel)
      if let threshold { options.threshold = threshold }
      if let deltaE { options.deltaE = deltaE }
      return options
    }
  }

  public var comparison: PixelComparison
  /// `--max-diff-ratio`: the fraction of pixels that may differ and still pass; `nil` for none
  /// (one differing pixel fails).
  public var maxDiffRatio: Double?

  public init(comparison: PixelComparison, maxDiffRatio: Double? = nil) {
    self.comparison = comparison
    self.maxDiffRatio = maxDiffRatio
  }

  /// How the setting is written on the command line: `strict --threshold 0.05`.
  public var name: String {
    var words = [comparison.matchLevel.rawValue]
    if let threshold = comparison.threshold { words.append("--threshold \(Self.number(threshold))") }
    if let deltaE = comparison.deltaE { words.append("--delta-e \(Self.number(deltaE))") }
    if let maxDiffRatio { words.append("--max-diff-ratio \(Self.number(maxDiffRatio))") }
    return words.joined(separator: " ")
  }

  /// Whether the pair passes with `differentPixels` of `totalPixels` differing at this
  /// setting's comparison (`DiffOptions.passes`, the one rule for the limits).
  public func passes(differentPixels: Int, totalPixels: Int) -> Bool {
    var options = comparison.options
    options.maxDiffRatio = maxDiffRatio
    return options.passes(differentPixels: differentPixels, totalPixels: totalPixels)
  }

  /// The setting `snapdiff compare` and `check` use when given none: `strict` at its defaults.
  public static let defaultSetting = CalibrationSetting(
    comparison: PixelComparison(matchLevel: DiffOptions().matchLevel))

  /// The levels calibration can measure on pixels alone: every level that compares pixels
  /// itself. `layout` and `text-aware` decide from element trees (without
  /// them `text-aware` is `perceptual`), so they are left out. A level added to `MatchLevel`
  /// appears here by itself.
  public static var pixelLevels: [MatchLevel] {
    MatchLevel.allCases.filter { !$0.usesElementTrees }
  }

  /// The YIQ thresholds measured at the levels that take one (the default, 0.1, in between).
  public static let thresholds = [0.05, 0.1, 0.2]
  /// The ΔE00 allowances measured at `perceptual` (the default, 2.0, among them).
  public static let deltaEs = [1.0, 2.0, 3.0, 5.0]
  /// The allowances measured at each level's default tolerance: 0.1 % and 1 % of the pixels
  /// (swift-snapshot-testing's `precision: 0.999` and `0.99`).
  public static let maxDiffRatios = [0.001, 0.01]

  /// The settings measured for `levels`: each level at its default; its tolerance varied where
  /// it has one (`--threshold` at `strict` and `ignore-colors`, `--delta-e` at `perceptual`); and
  /// each level's default with each allowance of differing pixels. A level with no known
  /// tolerance (`exact`, or one added later) is measured at its defaults and allowances.
  public static func standard(levels: [MatchLevel] = pixelLevels) -> [CalibrationSetting] {
    var settings: [CalibrationSetting] = []
    for level in levels {
      let base = PixelComparison(matchLevel: level)
      settings.append(CalibrationSetting(comparison: base))
      if level == .strict || level == .ignoreColors {
        for threshold in thresholds where threshold != DiffOptions().threshold {
          settings.append(CalibrationSetting(comparison: PixelComparison(matchLevel: level, threshold: threshold)))
        }
      } else if level == .perceptual {
        for deltaE in deltaEs where deltaE != DiffOptions.defaultDeltaE {
          settings.append(CalibrationSetting(comparison: PixelComparison(matchLevel: level, deltaE: deltaE)))
        }
      }
      for ratio in maxDiffRatios { settings.append(CalibrationSetting(comparison: base, maxDiffRatio: ratio)) }
    }
    return settings
  }

  /// The pixel comparisons `settings` need, each once, in their order.
  public static func pixelComparisons(of settings: [CalibrationSetting]) -> [PixelComparison] {
    var comparisons: [PixelComparison] = []
    for setting in settings where !comparisons.contains(setting.comparison) { comparisons.append(setting.comparison) }
    return comparisons
  }

  /// A number as written on a command line: `0.05`, `2`.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
