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
  /// (a word, an icon, an element's colour) fails. See docs/comparison.md.
  case renderingTolerant = "rendering-tolerant"

  /// The level the pixels themselves are compared at: `layout` and `text-aware` decide from
  /// element trees and leave the pixels to `strict` and `perceptual`.
  public var pixelLevel: MatchLevel {
    switch self {
    case .layout: return .strict
    case .textAware: return .perceptual
    case .exact, .strict, .ignoreColors, .perceptual, .renderingTolerant: return self
    }
  }
}
