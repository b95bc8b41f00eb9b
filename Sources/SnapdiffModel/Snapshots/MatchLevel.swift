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
}
