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
        images in red.
        """
    )

    @Argument(help: "The expected image (PNG).")
    var baseline: String

    @Argument(help: "The image to check against it (PNG).")
    var current: String

    @Option(help: ArgumentHelp("Write the diff image to this PNG file.", valueName: "path"))
    var diff: String?

    @OptionGroup(title: "Comparison")
    var diffOptions: DiffOptionGroup

    @Flag(help: "Print one JSON object instead of the verdict line.")
    var json = false

    func run() throws {
      let comparison = FileComparison(options: diffOptions.diffOptions(), decoder: diffOptions.decoder)
      let outcome: FileComparison.Outcome
      do {
        outcome = try comparison.compare(baseline: baseline, current: current, diffPath: diff)
      } catch {
        Console.error(String(describing: error))
        throw ExitCode(2)
      }
      if json {
        print(jsonReport(outcome).serialized(pretty: true))
      } else {
        print(verdict(outcome))
      }
      if !outcome.result.passed { throw ExitCode.failure }
    }

    private func jsonReport(_ outcome: FileComparison.Outcome) -> JSONValue {
      .object(
        [("baseline", .string(baseline)), ("current", .string(current))]
          + outcome.result.jsonMembers
          + [("diff", outcome.diffPath.map(JSONValue.string) ?? .null)])
    }

    private func verdict(_ outcome: FileComparison.Outcome) -> String {
      let result = outcome.result
      var lines: [String] = []
      let size = "\(result.baselineSize)"
      if result.identical {
        lines.append("PASS  identical (\(size)): \(baseline) and \(current)")
      } else {
        let word = result.passed ? "PASS " : "FAIL "
        var line = word + " "
        if !result.sizesMatch {
          line += "sizes differ: baseline \(result.baselineSize), current \(result.currentSize); "
        }
        line +=
          "\(ReportFormat.count(result.differentPixels)) of \(ReportFormat.count(result.totalPixels)) pixels differ (\(ReportFormat.percent(result.differentRatio)))"
        if !result.regions.isEmpty {
          let shown = result.regions.prefix(3).map(\.description).joined(separator: ", ")
          let more = result.regions.count > 3 ? ", …" : ""
          line += " in \(result.regions.count) \(result.regions.count == 1 ? "area" : "areas"): \(shown)\(more)"
        }
        var notCounted: [String] = []
        if result.antialiasedPixels > 0 {
          notCounted.append("\(ReportFormat.count(result.antialiasedPixels)) anti-aliased")
        }
        if result.ignoredPixels > 0 {
          notCounted.append("\(ReportFormat.count(result.ignoredPixels)) ignored")
        }
        if !notCounted.isEmpty { line += "; not counted: " + notCounted.joined(separator: ", ") }
        if result.passed && result.differentPixels > 0 { line += "; within tolerance" }
        lines.append(line)
      }
      if let path = outcome.diffPath { lines.append("      diff image: \(path)") }
      return lines.joined(separator: "\n")
    }
  }
}
