import ArgumentParser
import SnapdiffCore

/// Regions compared by a rule of their own, as Applitools Eyes' are (`RegionComparison` holds
/// the rule): each given as a rectangle in pixels (`X,Y,W,H`), in points at the element tree's
/// scale (`X,Y,W,Hpt`), or an element selector resolved in the frames' trees.
struct RegionOptionGroup: ParsableArguments {
  @Option(
    name: .customLong("floating"),
    help: ArgumentHelp(
      "A region whose content may move: AREA:N (up to N pixels each way) or AREA:UP,DOWN,LEFT,RIGHT; it passes when the baseline's content is found at some offset within them at the snapshot's level. AREA is X,Y,W,H (pixels), X,Y,W,Hpt (points) or an element selector. Repeatable.",
      valueName: "area:offsets"))
  var floating: [String] = []

  @Option(
    name: .customLong("strict-region"),
    help: ArgumentHelp(
      "A region compared at strict (pixelmatch, --threshold) whatever --match says. Repeatable.",
      valueName: "area"))
  var strictRegions: [String] = []

  @Option(
    name: .customLong("content-region"),
    help: ArgumentHelp(
      "A region where colours do not count (compared at ignore-colors: brightness only). Repeatable.",
      valueName: "area"))
  var contentRegions: [String] = []

  @Option(
    name: .customLong("layout-region"),
    help: ArgumentHelp(
      "A region where only structure counts: its pixels are ignored and its elements compared as --match layout compares them (without element trees, its pixels are only ignored). Repeatable.",
      valueName: "area"))
  var layoutRegions: [String] = []

  /// The regions given, in the order of their kinds.
  func regions() throws(ConfigurationError) -> [CheckRegion] {
    var regions: [CheckRegion] = []
    for (kind, texts) in [
      (CheckRegion.Kind.floating, floating), (.strict, strictRegions), (.content, contentRegions),
      (.layout, layoutRegions),
    ] {
      for text in texts { regions.append(try CheckRegion(kind, spec: text)) }
    }
    return regions
  }

  func validate() throws {
    for (option, kind, texts) in [
      ("--floating", CheckRegion.Kind.floating, floating), ("--strict-region", .strict, strictRegions),
      ("--content-region", .content, contentRegions), ("--layout-region", .layout, layoutRegions),
    ] {
      for text in texts {
        do { _ = try CheckRegion(kind, spec: text) } catch { throw ValidationError("\(option) \(error)") }
      }
    }
  }
}
