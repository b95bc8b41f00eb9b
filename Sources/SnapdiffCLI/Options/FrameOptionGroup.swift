import ArgumentParser
import SnapdiffCore

/// Options about frames with element trees: masks by element, the match level, layout tolerance.
struct FrameOptionGroup: ParsableArguments {
  @Option(
    name: .customLong("ignore-element"),
    help: ArgumentHelp(
      "Ignore an element's area, found in the frames' element trees: 'clock' (identifier), '~banner' (identifier contains), '@image' (type), 'alert/okButton' (inside, at any depth). Repeatable.",
      valueName: "selector"))
  var ignoreElements: [String] = []

  @Option(
    name: .customLong("match"),
    help: ArgumentHelp(
      "exact (any byte), strict (pixelmatch, default), ignore-colors (brightness only), layout (element trees: added, removed, moved, resized, relabelled), perceptual (CIEDE2000 under --delta-e, anti-aliasing excluded), text-aware (with element trees: text elements compared by their labels and ink, frames to the pixel, other pixels as perceptual; without trees, perceptual) or rendering-tolerant (screenshots without trees across OS, Xcode and simulator updates: a pixel with a close colour within 2 px in the other image, or in a patch under 16 px, is rendering noise; an icon nudged, anything moved sideways, or a move that is the only difference fails).",
      valueName: "level"))
  var matchLevel: MatchLevel?

  @Option(
    help: ArgumentHelp(
      "For --match layout: moves and size changes up to this many points are not changes (default: 1). text-aware holds frames to half a pixel.",
      valueName: "points"))
  var layoutTolerance: Double?

  func selectors() throws -> [ElementSelector] {
    try Self.selectors(ignoreElements)
  }

  /// The `--ignore-element` values as selectors.
  static func selectors(_ ignoreElements: [String]) throws -> [ElementSelector] {
    try ignoreElements.map { text throws(ConfigurationError) in try ElementSelector(text) }
  }

  func validate() throws {
    if let layoutTolerance, !(layoutTolerance >= 0) {
      throw ValidationError("--layout-tolerance must not be negative, not \(layoutTolerance)")
    }
    for text in ignoreElements {
      do { _ = try ElementSelector(text) } catch { throw ValidationError("--ignore-element: \(error)") }
    }
  }
}

extension MatchLevel: ExpressibleByArgument {}
