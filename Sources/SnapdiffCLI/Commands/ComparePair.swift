import ArgumentParser
import SnapdiffCore

/// What `snapdiff compare` does once its arguments are known: compares one pair of frames,
/// prints the verdict (or JSON) and fails with exit status 1 when they differ beyond tolerance.
/// Both ways in run it: the parsed `Compare` command, and `Snapdiff.launch`'s plain form
/// (`compare A B`, `compare A B --diff D`), which skips argument-parser's reflection.
struct ComparePair {
  var baseline: String
  var current: String
  var diffPath: String?
  var options: DiffOptions
  var decoder: PNGDecoder
  var ignoreElements: [String]
  var matchLevel: MatchLevel?
  var layoutTolerance: Double?
  var json: Bool
  /// Regions compared by a rule of their own (`--floating`, `--strict-region`, …).
  var regions: [CheckRegion] = []
  /// Accessibility validation of the current frame (`--contrast`), or `nil`.
  var contrast: ContrastCheck? = nil

  /// The pair `arguments` name when they are exactly `compare BASELINE CURRENT` or
  /// `compare BASELINE CURRENT --diff PATH`, with no value that argument-parser would read
  /// otherwise (a leading `-`, `help`, an empty string), else `nil`: those go to the parser,
  /// whose help, errors and exit statuses stay the only ones. What the plain form runs is what
  /// the parser builds from the same words: every option at its default.
  static func plainForm(_ arguments: [String]) -> ComparePair? {
    guard arguments.first == "compare", arguments.count == 3 || arguments.count == 5 else { return nil }
    let values = arguments.count == 3 ? arguments[1...] : [arguments[1], arguments[2], arguments[4]]
    guard arguments.count == 3 || arguments[3] == "--diff",
      values.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && $0 != "help" })
    else { return nil }
    return ComparePair(
      baseline: arguments[1], current: arguments[2], diffPath: arguments.count == 5 ? arguments[4] : nil,
      options: DiffOptions(), decoder: PNGDecoder(), ignoreElements: [], matchLevel: nil,
      layoutTolerance: nil, json: false)
  }

  /// Whether element trees take part: a tree given, a tree beside a PNG, element masks, or the
  /// layout level. Otherwise two PNGs go the fast path.
  private var usesFrames: Bool {
    Frame.isTree(baseline) || Frame.isTree(current) || !ignoreElements.isEmpty || !regions.isEmpty
      || matchLevel?.needsElementTrees == true || contrast != nil
      || Frame.treeFile(besidePNG: baseline) != nil || Frame.treeFile(besidePNG: current) != nil
  }

  /// Compares, prints, and throws `ExitCode.failure` when the pair fails (`ExitCode(2)` after
  /// an error message for a file that cannot be read or decoded).
  func run() throws {
    var options = self.options
    options.matchLevel = matchLevel ?? .strict
    let verdict: Verdict = try reportingErrors {
      guard usesFrames else {
        let comparison = FileComparison(options: options, decoder: decoder)
        let outcome = try comparison.compare(baseline: baseline, current: current, diffPath: diffPath)
        return Verdict(
          result: outcome.result, passed: outcome.result.passed, diffPath: outcome.diffPath,
          difference: outcome.difference)
      }
      let decoder = self.decoder
      let frames = try [baseline, current].map { path throws -> Frame in try Frame.load(path, decoder: decoder) }
      var comparison = FrameComparison(
        options: options, selectors: try FrameOptionGroup.selectors(ignoreElements),
        matchLevel: matchLevel ?? .strict, layoutTolerance: layoutTolerance ?? 1, regions: regions)
      comparison.contrast = contrast
      if contrast != nil && frames[1].tree == nil {
        throw ConfigurationError(
          "--contrast needs the current frame's element tree: \(current) has none (put NAME.tree.json, or an XCUITest dump NAME.txt, beside NAME.png)"
        )
      }
      let outcome = try comparison.compare(frames[0], frames[1])
      // Not synced, as FileComparison's: a diff image is made again on request.
      if let diffPath { try outcome.writeDiffImage(to: diffPath, synced: false) }
      for selector in outcome.unmatchedSelectors {
        Console.warning(
          ignoreElements.contains(selector)
            ? "--ignore-element '\(selector)' matched no element: it masks nothing"
            : "region '\(selector)' matched no element: it covers nothing")
      }
      for note in outcome.regionNotes { Console.warning(note) }
      return Verdict(
        result: outcome.result, passed: outcome.passed, diffPath: diffPath, layout: outcome.layout,
        text: outcome.text, unmatchedSelectors: outcome.unmatchedSelectors, difference: outcome.difference,
        floating: outcome.floating, contrast: outcome.contrast)
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
    /// For a failure: what kind of difference it is.
    var difference: DifferenceClass? = nil
    var floating: [RegionComparison.FloatingMatch] = []
    var contrast: ContrastCheck.Report? = nil
  }

  private func jsonReport(_ verdict: Verdict) -> JSONValue {
    var members: [(String, JSONValue)] = [("baseline", .string(baseline)), ("current", .string(current))]
    members += verdict.result.jsonMembers.map { $0.0 == "passed" ? ("passed", .bool(verdict.passed)) : $0 }
    members.append(("matchLevel", .string((matchLevel ?? .strict).rawValue)))
    members.append(("diff", verdict.diffPath.map(JSONValue.string) ?? .null))
    if let layout = verdict.layout { members.append(("layout", .array(layout.map(\.json)))) }
    if let text = verdict.text { members.append(("text", .array(text.map(\.json)))) }
    if let difference = verdict.difference { members.append(("difference", difference.json)) }
    if !verdict.floating.isEmpty {
      members.append(("floating", .array(verdict.floating.map(\.json))))
    }
    if !verdict.unmatchedSelectors.isEmpty {
      members.append(("unmatchedSelectors", .array(verdict.unmatchedSelectors.map(JSONValue.string))))
    }
    if let contrast = verdict.contrast { members.append(("contrast", contrast.json)) }
    return .object(members)
  }

  private func verdict(_ outcome: Verdict) -> String {
    let result = outcome.result
    var lines: [String] = []
    if matchLevel == .layout, let layout = outcome.layout {
      let count = layout.count
      lines.append(
        outcome.passed
          ? "PASS  layout unchanged (\(result.differentPixels) pixels differ in colour or content)"
          : "FAIL  layout: \(count) change\(count == 1 ? "" : "s")")
      for change in layout { lines.append("      \(change.sentence)") }
      lines += contrastLines(outcome.contrast)
      if let path = outcome.diffPath { lines.append("      diff image: \(path)") }
      return lines.joined(separator: "\n")
    }
    let size = "\(result.baselineSize)"
    // What failed besides the pixels (text-aware, the trees' layout), for the first line.
    let changed = [
      outcome.text?.isEmpty == false ? "text" : nil, outcome.layout?.isEmpty == false ? "layout" : nil,
    ].compactMap { $0 }.joined(separator: " and ")
    let contrastFails = outcome.contrast.flatMap { $0.failsTheSnapshot ? "contrast fails \($0.level.rawValue)" : nil }
    if result.identical && outcome.passed {
      lines.append("PASS  identical (\(size)): \(baseline) and \(current)")
    } else if result.identical, changed.isEmpty, let contrastFails {
      lines.append("FAIL  identical pixels (\(size)), but \(contrastFails)")
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
      if result.toleratedPixels > 0 {
        notCounted.append("\(ReportFormat.count(result.toleratedPixels)) rendering noise")
      }
      if !notCounted.isEmpty { line += "; not counted: " + notCounted.joined(separator: ", ") }
      if outcome.passed && result.differentPixels > 0 { line += "; within tolerance" }
      // The pixels alone would pass: say at once what failed (the lines below say how).
      if !outcome.passed && result.passed && !changed.isEmpty { line += "; the \(changed) changed" }
      if !outcome.passed && result.passed && changed.isEmpty, let contrastFails { line += "; \(contrastFails)" }
      lines.append(line)
    }
    if let difference = outcome.difference { lines.append("      difference: \(difference.sentence)") }
    if let conversion = result.colorConversion { lines.append("      " + conversion.sentence) }
    if matchLevel == .renderingTolerant, let shift = result.loneMove {
      lines.append(
        "      rendering-tolerant: everything that differs is one exact copy of the baseline moved \(shift.words), and nothing else re-rendered: an element nudged, not a re-render (when an OS update moved only this, approve it)"
      )
    } else if matchLevel == .renderingTolerant && result.sizesMatch && result.differentPixels > 0 {
      lines.append(
        "      rendering-tolerant: the pixels counted have no close colour within \(RenderingNoise.radius) px in the other image and form patches of \(RenderingNoise.smallestChange)+ pixels, or are an element moved whole by a pixel or two as a renderer does not move one (sideways, or an icon or glyph rather than a line of text) (the areas above): content changed there, not its rendering"
      )
    }
    if let layout = outcome.layout, !layout.isEmpty {
      lines.append("      layout: " + layout.map(\.sentence).joined(separator: "; "))
    }
    if let text = outcome.text, !text.isEmpty {
      lines.append("      text: " + text.map(\.sentence).joined(separator: "; "))
    }
    for match in outcome.floating { lines.append("      " + match.sentence) }
    lines += contrastLines(outcome.contrast)
    if let path = outcome.diffPath { lines.append("      diff image: \(path)") }
    return lines.joined(separator: "\n")
  }

  /// `contrast AA: 1 of 3 elements under their ratio`, then one line per failing element.
  private func contrastLines(_ report: ContrastCheck.Report?) -> [String] {
    guard let report else { return [] }
    let checked = report.findings.count
    let elements = "\(checked) element\(checked == 1 ? "" : "s")"
    let failures = report.failures
    var lines = [
      failures.isEmpty
        ? "      contrast \(report.level.rawValue): \(elements) pass"
        : "      contrast \(report.level.rawValue): \(failures.count) of \(elements) under their ratio"
          + (report.failsSnapshot ? "" : " (reported only; --contrast-fails fails the comparison)")
    ]
    lines += report.sentences.map { "        " + $0 }
    for region in report.unmatchedRegions { lines.append("      contrast region '\(region)' matched no element") }
    return lines
  }
}
