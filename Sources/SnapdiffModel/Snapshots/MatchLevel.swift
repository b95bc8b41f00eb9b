/// How strictly two frames must match, after the hosted checkers' match levels.
public enum MatchLevel: String, Sendable, Codable, CaseIterable {
  /// Any byte difference in a pixel counts: no threshold, no anti-aliasing allowance.
  case exact
  /// pixelmatch's comparison: YIQ colour distance under the threshold, anti-aliasing excluded
  /// (the default).
  case strict
  /// Brightness only: a change of colour with the same luminance does not count.
  case ignoreColors = "ignore-colors"
  /// Only the layout counts: elements added, removed, moved, resized or relabelled (needs the
  /// element trees of both frames); colours and content inside an unchanged layout do not.
  case layout
  /// Colour as people see it: ΔE00 (CIEDE2000) under `DiffOptions.deltaE` counts as equal,
  /// anti-aliasing is excluded as in `strict`.
  case perceptual
  /// Screens as people read them: text elements of the element trees are compared as text (a
  /// changed label fails, glyph rasterisation inside an unchanged label's box does not), every
  /// other pixel as at `perceptual`, and any element moved or resized by a pixel fails. Without
  /// element trees, the same as `perceptual`.
  case textAware = "text-aware"
  /// Screenshots re-rendered by another OS, Xcode or simulator, without element trees: a pixel
  /// that differs beyond `strict`'s threshold is rendering noise when each image has the other's
  /// colour within 2 pixels of it (anti-aliasing, an edge moved by up to 2 pixels, glyphs
  /// re-rasterised), and so is a patch of fewer than 16 pixels left unexplained; a larger patch
  /// (a word, an icon, an element's colour) fails, and so does an element moved whole by 1–2
  /// pixels as a renderer does not move one (an icon or glyph, or anything sideways; a line of
  /// text moved vertically is noise), and a move that is the pair's only difference, nothing
  /// else re-rendered. See docs/comparison.md.
  case renderingTolerant = "rendering-tolerant"

  /// What the pixel kernel runs at this level: `layout` and `text-aware` decide from element
  /// trees and leave their pixels to `strict`'s and `perceptual`'s metrics.
  public var pixelMetric: PixelMetric {
    switch self {
    case .exact: .exact
    case .strict, .layout: .yiq
    case .ignoreColors: .luminance
    case .perceptual, .textAware: .ciede2000
    case .renderingTolerant: .renderingNoise
    }
  }

  /// Whether the level decides from the frames' element trees (and so compares frames, not
  /// only PNGs): `layout` and `text-aware` (which without trees is `perceptual`).
  public var usesElementTrees: Bool {
    switch self {
    case .layout, .textAware: true
    case .exact, .strict, .ignoreColors, .perceptual, .renderingTolerant: false
    }
  }

  /// Whether the level cannot decide without the element trees of both frames: `layout`.
  public var needsElementTrees: Bool { self == .layout }

  /// How the pixel kernel (SnapdiffCore's `DiffKernel`) measures two differing pixels: one metric
  /// per comparison, chosen by the match level (`MatchLevel.pixelMetric`).
  public enum PixelMetric: Sendable, CaseIterable {
    /// Any byte difference counts.
    case exact
    /// pixelmatch's YIQ colour distance under the threshold.
    case yiq
    /// The YIQ brightness difference only.
    case luminance
    /// CIEDE2000 (ΔE00) under `deltaE`, on sRGB samples.
    case ciede2000
    /// The YIQ distance, with rendering noise (`RenderingNoise`) told apart in place of
    /// pixelmatch's anti-aliasing test.
    case renderingNoise

    /// Whether pixelmatch's anti-aliasing test applies (unless anti-aliasing is included): not
    /// at `exact` (every differing pixel counts) nor with `renderingNoise` (its own, wider rule).
    public var testsAntialiasing: Bool {
      switch self {
      case .yiq, .luminance, .ciede2000: true
      case .exact, .renderingNoise: false
      }
    }

    /// Whether a difference is measured against `deltaE` (ΔE00) rather than the YIQ threshold.
    public var usesDeltaE: Bool { self == .ciede2000 }

    /// Whether the metric reads samples as sRGB, so that two images tagged with the same other
    /// colour space are converted before comparing too.
    public var readsSRGB: Bool { self == .ciede2000 }
  }
}
