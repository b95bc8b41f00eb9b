import ArgumentParser
import SnapdiffCore

extension Snapdiff {
  /// `snapdiff compare BASELINE CURRENT`: one pair of PNGs, one verdict.
  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare two PNG images pixel by pixel (pixelmatch-compatible).",
      discussion: """
        Prints a verdict (or, with --json, one JSON object) and exits 0 when the images match \
        within tolerance, 1 when they differ beyond it (or differ in size), 2 when a file cannot \
        be read or is not a valid PNG, 64 on a usage error.

        The diff image shows the baseline faded to gray, differences in red (--diff-color), \
        anti-aliasing in yellow (--aa-color), ignored regions tinted blue with their hidden \
        differences in light blue, and any area outside the overlap of two differently sized \
        images in red. Strict, content, layout and floating regions are outlined in purple, teal, \
        green and orange (a floating region also where its content was found).
        """
    )

    @Argument(
      help:
        "The expected frame: a PNG (with NAME.tree.json beside it, if any) or an element tree (.tree.json, or XCUITest's debugDescription as .txt)."
    )
    var baseline: String

    @Argument(help: "The frame to check against it, in the same forms.")
    var current: String

    @Option(help: ArgumentHelp("Write the diff image to this PNG file.", valueName: "path"))
    var diff: String?

    @OptionGroup(title: "Comparison")
    var diffOptions: DiffOptionGroup

    @OptionGroup(title: "Element trees")
    var frameOptions: FrameOptionGroup

    @OptionGroup(title: "Regions")
    var regionOptions: RegionOptionGroup
    @OptionGroup(title: "Accessibility")
    var contrastOptions: ContrastOptionGroup

    @Flag(help: "Print one JSON object instead of the verdict line.")
    var json = false

    func run() throws {
      var pair = ComparePair(
        baseline: baseline, current: current, diffPath: diff, options: diffOptions.diffOptions(),
        decoder: diffOptions.decoder, ignoreElements: frameOptions.ignoreElements,
        matchLevel: frameOptions.matchLevel, layoutTolerance: frameOptions.layoutTolerance, json: json,
        regions: try regionOptions.regions())
      pair.contrast = try contrastOptions.contrastCheck()
      try pair.run()
    }
  }
}
