import ArgumentParser
import SnapdiffCore

/// The diff engine's options, shared by every command that compares. Each is optional so that
/// a flag given on the command line overrides `snapdiff.json`, which overrides the defaults.
package struct DiffOptionGroup: ParsableArguments {
  package init() {}

  @Option(
    help: ArgumentHelp(
      "Colour distance (0–1) under which two pixels count as equal; smaller is stricter (default: 0.1).",
      valueName: "0-1"))
  var threshold: Double?

  @Option(
    name: .customLong("delta-e"),
    help: ArgumentHelp(
      "For --match perceptual and text-aware: the largest CIEDE2000 colour difference (ΔE00) under which two pixels count as equal (default: 2.0).",
      valueName: "E"))
  var deltaE: Double?

  @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
  var includeAA = false

  @Option(
    name: .customLong("ignore"),
    help: ArgumentHelp(
      "A region never counted, as pixels X,Y,WIDTH,HEIGHT (repeatable).", valueName: "x,y,w,h"))
  var ignoreRegions: [PixelRect] = []

  @Option(
    help: ArgumentHelp(
      "The most different pixels that still pass (default: no limit of its own; with neither limit set, one different pixel fails).",
      valueName: "n"))
  var maxDiffPixels: Int?

  @Option(
    help: ArgumentHelp(
      "The largest fraction (0–1) of different pixels that still passes (default: no limit of its own; given with --max-diff-pixels, both must hold).",
      valueName: "fraction"))
  var maxDiffRatio: Double?

  @Flag(help: "Draw only the differences, on a transparent background.")
  var diffMask = false

  @Option(
    help: ArgumentHelp(
      "Opacity (0–1) of the faded baseline under the differences in the diff image (default: 0.1).",
      valueName: "0-1"))
  var alpha: Double?

  @Option(
    help: ArgumentHelp(
      "Colour of anti-aliased pixels in the diff image (default: 255,255,0).", valueName: "r,g,b"))
  var aaColor: RGBAColor?

  @Option(
    help: ArgumentHelp("Colour of differing pixels in the diff image (default: 255,0,0).", valueName: "r,g,b"))
  var diffColor: RGBAColor?

  @Option(
    help: ArgumentHelp(
      "Colour of differing pixels where the current image is darker (default: --diff-color).",
      valueName: "r,g,b"))
  var diffColorAlt: RGBAColor?

  @Option(
    help: ArgumentHelp(
      "Refuse images larger than this many megapixels, checked before decoding (default: 200).",
      valueName: "megapixels"))
  var maxMegapixels: Double?

  /// The options: `defaults` (from a config file) under the flags given.
  /// The flag of a `DiffOptions` field: `deltaE` → `--delta-e`.
  static func flag(_ field: String) -> String {
    "--" + field.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
  }

  package func diffOptions(defaults: SnapshotSettings = SnapshotSettings()) -> DiffOptions {
    var options = defaults.applied(to: DiffOptions())
    if let threshold { options.threshold = threshold }
    if let deltaE { options.deltaE = deltaE }
    if includeAA { options.includeAA = true }
    if let maxDiffPixels { options.maxDiffPixels = maxDiffPixels }
    if let maxDiffRatio { options.maxDiffRatio = maxDiffRatio }
    if let alpha { options.alpha = alpha }
    if let aaColor { options.aaColor = aaColor }
    if let diffColor { options.diffColor = diffColor }
    if let diffColorAlt { options.diffColorAlt = diffColorAlt }
    options.diffMask = diffMask
    options.ignoreRegions += ignoreRegions
    return options
  }

  package var decoder: PNGDecoder {
    PNGDecoder(
      maxPixels: maxMegapixels.map { Int(($0 * 1_000_000).rounded()) } ?? PNGDecoder.defaultMaxPixels)
  }

  package func validate() throws {
    // The flags' values over valid defaults: DiffOptions' one rule, worded with the flags.
    if let problem = diffOptions().problem(naming: Self.flag) { throw ValidationError(problem) }
    if let maxMegapixels, !(maxMegapixels > 0) {
      throw ValidationError("--max-megapixels must be positive, not \(maxMegapixels)")
    }
    for region in ignoreRegions where region.isEmpty {
      throw ValidationError(
        "--ignore \(region.x),\(region.y),\(region.width),\(region.height) is empty: give a width and a height above 0")
    }
  }
}
