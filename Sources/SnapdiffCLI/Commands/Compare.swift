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

    @Flag(help: "Print one JSON object instead of the verdict line.")
    var json = false

    /// Whether element trees take part: a tree given, a tree beside a PNG, element masks, or the
    /// layout level. Otherwise two PNGs go the fast path.
    private var usesFrames: Bool {
      Frame.isTree(baseline) || Frame.isTree(current) || !frameOptions.ignoreElements.isEmpty
        || frameOptions.matchLevel == .layout
        || Frame.treeFile(besidePNG: baseline) != nil || Frame.treeFile(besidePNG: current) != nil
    }

    func run() throws {
      var options = diffOptions.diffOptions()
      options.matchLevel = frameOptions.matchLevel ?? .strict
      let verdict: Verdict = try reportingErrors {
        guard usesFrames else {
          let comparison = FileComparison(options: options, decoder: diffOptions.decoder)
          let outcome = try comparison.compare(baseline: baseline, current: current, diffPath: diff)
          return Verdict(result: outcome.result, passed: outcome.result.passed, diffPath: outcome.diffPath)
        }
        let decoder = diffOptions.decoder
        let frames = try [baseline, current].map { path throws -> Frame in try Frame.load(path, decoder: decoder) }
        let comparison = FrameComparison(
          options: options, selectors: try frameOptions.selectors(),
          matchLevel: frameOptions.matchLevel ?? .strict, layoutTolerance: frameOptions.layoutTolerance ?? 1)
        let outcome = try comparison.compare(frames[0], frames[1])
        // Not synced, as FileComparison's: a diff image is made again on request.
        if let diff { try outcome.writeDiffImage(to: diff, synced: false) }
        for selector in outcome.unmatchedSelectors {
          Console.warning("--ignore-element '\(selector)' matched no element: it masks nothing")
        }
        return Verdict(
          result: outcome.result, passed: outcome.passed, diffPath: diff, layout: outcome.layout,
          text: outcome.text, unmatchedSelectors: outcome.unmatchedSelectors)
      }
      if json {
        print(jsonReport(verdict).serialized(pretty: true))
      } else {
        print(self.verdict(verdict))
      }
      if !verdict.passed { throw ExitCode.failure }
    }

    /// What one comparison found, with or without element trees.
    struct Verdict {
      var result: DiffResult
      var passed: Bool
      var diffPath: String?
      var layout: [LayoutComparison.Change]? = nil
      var text: [TextComparison.Change]? = nil
      var unmatchedSelectors: [String] = []
    }

    private func jsonReport(_ verdict: Verdict) -> JSONValue {
      var members: [(String, JSONValue)] = [("baseline", .string(baseline)), ("current", .string(current))]
      members += verdict.result.jsonMembers.map { $0.0 == "passed" ? ("passed", .bool(verdict.passed)) : $0 }
      members.append(("matchLevel", .string((frameOptions.matchLevel ?? .strict).rawValue)))
      members.append(("diff", verdict.diffPath.map(JSONValue.string) ?? .null))
      if let layout = verdict.layout { members.append(("layout", .array(layout.map(\.json)))) }
      if let text = verdict.text { members.append(("text", .array(text.map(\.json)))) }
      if !verdict.unmatchedSelectors.isEmpty {
        members.append(("unmatchedSelectors", .array(verdict.unmatchedSelectors.map(JSONValue.string))))
      }
      return .object(members)
    }

    private func verdict(_ outcome: Verdict) -> String {
      let result = outcome.result
      var lines: [String] = []
      if frameOptions.matchLevel == .layout, let layout = outcome.layout {
        let count = layout.count
        lines.append(
          outcome.passed
            ? "PASS  layout unchanged (\(result.differentPixels) pixels differ in colour or content)"
            : "FAIL  layout: \(count) change\(count == 1 ? "" : "s")")
        for change in layout { lines.append("      \(change.sentence)") }
        if let path = outcome.diffPath { lines.append("      diff image: \(path)") }
        return lines.joined(separator: "\n")
      }
      let size = "\(result.baselineSize)"
      // What failed besides the pixels (text-aware, the trees' layout), for the first line.
      let changed = [
        outcome.text?.isEmpty == false ? "text" : nil, outcome.layout?.isEmpty == false ? "layout" : nil,
      ].compactMap { $0 }.joined(separator: " and ")
      if result.identical && outcome.passed {
        lines.append("PASS  identical (\(size)): \(baseline) and \(current)")
      } else if result.identical {
        lines.append("FAIL  identical pixels (\(size)), but the \(changed.isEmpty ? "frames" : changed) changed")
      } else {
        let word = outcome.passed ? "PASS " : "FAIL "
        var line = word + " "
        line += DifferenceWording.sentence(
          differentPixels: result.differentPixels, totalPixels: result.totalPixels,
          differentRatio: result.differentRatio, regions: result.regions,
          baselineSize: result.baselineSize, currentSize: result.currentSize)
        var notCounted: [String] = []
        if result.antialiasedPixels > 0 {
          notCounted.append("\(ReportFormat.count(result.antialiasedPixels)) anti-aliased")
        }
        if result.ignoredPixels > 0 {
          notCounted.append("\(ReportFormat.count(result.ignoredPixels)) ignored")
        }
        if !notCounted.isEmpty { line += "; not counted: " + notCounted.joined(separator: ", ") }
        if outcome.passed && result.differentPixels > 0 { line += "; within tolerance" }
        // The pixels alone would pass: say at once what failed (the lines below say how).
        if !outcome.passed && result.passed && !changed.isEmpty { line += "; the \(changed) changed" }
        lines.append(line)
      }
      if let conversion = result.colorConversion { lines.append("      " + conversion.sentence) }
      if let layout = outcome.layout, !layout.isEmpty {
        lines.append("      layout: " + layout.map(\.sentence).joined(separator: "; "))
      }
      if let text = outcome.text, !text.isEmpty {
        lines.append("      text: " + text.map(\.sentence).joined(separator: "; "))
      }
      if let path = outcome.diffPath { lines.append("      diff image: \(path)") }
      return lines.joined(separator: "\n")
    }
  }
}
