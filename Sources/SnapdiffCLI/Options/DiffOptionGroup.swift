import ArgumentParser
import SnapdiffCore

/// The diff engine's options, shared by every command that compares.
struct DiffOptionGroup: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Colour distance (0–1) under which two pixels count as equal; smaller is stricter.",
      valueName: "0-1"))
  var threshold: Double = 0.1

  @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
  var includeAA = false

  @Option(
    name: .customLong("ignore"),
    help: ArgumentHelp(
      "A region never counted, as pixels X,Y,WIDTH,HEIGHT (repeatable).", valueName: "x,y,w,h"))
  var ignoreRegions: [PixelRect] = []

  @Option(help: ArgumentHelp("The most different pixels that still pass.", valueName: "n"))
  var maxDiffPixels = 0

  @Option(
    help: ArgumentHelp(
      "The largest fraction (0–1) of different pixels that still passes.", valueName: "fraction"))
  var maxDiffRatio = 0.0

  @Flag(help: "Draw only the differences, on a transparent background.")
  var diffMask = false

  @Option(
    help: ArgumentHelp(
      "Opacity (0–1) of the faded baseline under the differences in the diff image.",
      valueName: "0-1"))
  var alpha = 0.1

  @Option(help: ArgumentHelp("Colour of anti-aliased pixels in the diff image.", valueName: "r,g,b"))
  var aaColor = RGBAColor.yellow

  @Option(help: ArgumentHelp("Colour of differing pixels in the diff image.", valueName: "r,g,b"))
  var diffColor = RGBAColor.red

  @Option(
    help: ArgumentHelp(
      "Colour of differing pixels where the current image is darker (default: --diff-color).",
      valueName: "r,g,b"))
  var diffColorAlt: RGBAColor?

  @Option(
    help: ArgumentHelp(
      "Refuse images larger than this many megapixels (checked before decoding).",
      valueName: "megapixels"))
  var maxMegapixels = Double(PNGDecoder.defaultMaxPixels) / 1_000_000

  var diffOptions: DiffOptions {
    DiffOptions(
      threshold: threshold, includeAA: includeAA, alpha: alpha, aaColor: aaColor,
      diffColor: diffColor, diffColorAlt: diffColorAlt, diffMask: diffMask,
      ignoreRegions: ignoreRegions, maxDiffPixels: maxDiffPixels, maxDiffRatio: maxDiffRatio)
  }

  var decoder: PNGDecoder {
    PNGDecoder(maxPixels: Int((maxMegapixels * 1_000_000).rounded()))
  }

  func validate() throws {
    if let problem = diffOptions.problem {
      throw ValidationError(problem.replacingFirstWord(with: optionName(for: problem)))
    }
    if !(maxMegapixels > 0) {
      throw ValidationError("--max-megapixels must be positive, not \(maxMegapixels)")
    }
    for region in ignoreRegions where region.isEmpty {
      throw ValidationError("--ignore \(region.x),\(region.y),\(region.width),\(region.height) is empty: give a width and a height above 0")
    }
  }

  private func optionName(for problem: String) -> String {
    switch problem.split(separator: " ").first ?? "" {
    case "threshold": "--threshold"
    case "alpha": "--alpha"
    case "maxDiffPixels": "--max-diff-pixels"
    case "maxDiffRatio": "--max-diff-ratio"
    default: String(problem.split(separator: " ").first ?? "")
    }
  }
}

extension String {
  fileprivate func replacingFirstWord(with word: String) -> String {
    guard let space = firstIndex(of: " ") else { return word }
    return word + self[space...]
  }
}
