/// Compares two frames (pixels with their element trees, when they have them): masks given as
/// element selectors, the match level, the layout comparison, and at `text-aware` the text
/// comparison.
///
/// ```swift
/// var comparison = FrameComparison()
/// comparison.selectors = [try ElementSelector("clock")]
/// let outcome = try comparison.compare(try Frame.load("a.png"), try Frame.load("b.tree.json"))
/// ```
public struct FrameComparison: Sendable {
  public var options: DiffOptions
  /// Elements whose areas are ignored, resolved in both frames' trees.
  public var selectors: [ElementSelector]
  public var matchLevel: MatchLevel
  /// For the `layout` level: differences up to this many points are not changes. (The
  /// `text-aware` level holds frames to half a pixel: a move of one pixel is a change.)
  public var layoutTolerance: Double
  /// Regions compared by a rule of their own (floating, strict, content, layout, ignore):
  /// ``RegionComparison``'s rule; outside them, `matchLevel` applies.
  public var regions: [CheckRegion]
  /// Accessibility validation of the current frame (`ContrastCheck`), when asked for.
  public var contrast: ContrastCheck?

  /// - Parameter matchLevel: the level; `nil` (the default) takes `options.matchLevel`, so a
  ///   level set in the options is never lost on the way.
  public init(
    options: DiffOptions = DiffOptions(), selectors: [ElementSelector] = [], matchLevel: MatchLevel? = nil,
    layoutTolerance: Double = 1, regions: [CheckRegion] = []
  ) {
    self.options = options
    self.regions = regions
    self.selectors = selectors
    self.matchLevel = matchLevel ?? options.matchLevel
    self.layoutTolerance = layoutTolerance
  }

  /// What a frame comparison found.
  public struct Outcome: Sendable {
    /// The pixel comparison (with element masks applied).
    public var result: DiffResult
    /// The layout changes, when both frames have trees.
    public var layout: [LayoutComparison.Change]?
    /// At `text-aware` with both trees: the text elements that changed.
    public var text: [TextComparison.Change]? = nil
    /// Selectors (of masks and regions) that matched no element in either tree.
    public var unmatchedSelectors: [String]
    /// The verdict under the match level.
    public var passed: Bool
    /// The diff image, when asked for: pixels, or boxes for the layout level.
    public var diffImage: RGBAImage?
    /// For a failed comparison: what kind of difference it is (`DifferenceClassifier` on the
    /// pixels; a layout or text change is an element changed).
    public var difference: DifferenceClass? = nil
    /// Where each floating region's content was found.
    public var floating: [RegionComparison.FloatingMatch] = []
    /// What the regions could not do as asked, in words (a layout region without element
    /// trees: its pixels are only ignored).
    public var regionNotes: [String] = []
    /// Where each floating region's content was found, then ``regionNotes``, in words.
    public var regionSentences: [String] { floating.map(\.sentence) + regionNotes }
    /// The contrast of the current frame's text elements, when a contrast check was asked for
    /// and the current frame has a tree: a result of its own, which fails the verdict only
    /// when the check says so (`ContrastCheck.failsSnapshot`).
    public var contrast: ContrastCheck.Report? = nil
    /// What draws the diff image later without comparing again (`nil` for frames known
    /// unchanged without their pixels).
    var pendingDiff: PendingDiff? = nil

    /// The diff image: the one drawn (`compare(drawing: true)`), else drawn now from what the
    /// comparison kept, without comparing again; `nil` only for `compareUnchanged`'s outcome.
    public func drawnDiffImage() -> RGBAImage? {
      diffImage ?? pendingDiff?.image()
    }

    /// The diff image as a PNG file's bytes (`PNGEncoder(speed: .fast)`): a pixel diff image
    /// without text marks is drawn straight as palette indexes (`DiffOutcome.diffPNG()`).
    ///
    /// - Throws: `PNGError` (an empty image, or no diff image: `compareUnchanged`'s outcome).
    public func diffPNG() throws(PNGError) -> [UInt8] {
      if diffImage == nil, case .pixels(let pixels, nil, _)? = pendingDiff { return try pixels.diffPNG() }
      guard let image = drawnDiffImage() else {
        throw PNGError(kind: .encodingFailed, path: nil, message: "frames known unchanged have no diff image")
      }
      return try PNGEncoder(speed: .fast).encode(image)
    }

    /// Writes `diffPNG()` to `path` atomically (`PNGEncoder.write`'s rules).
    public func writeDiffImage(to path: String, synced: Bool = true) throws {
      try PNGEncoder.write(to: path, synced: synced) { () throws(PNGError) in try diffPNG() }
    }
  }

  /// How a comparison's diff image is drawn once the comparison is over.
  enum PendingDiff: Sendable {
    /// The pixel comparison's marks, and the text comparison's findings drawn over them.
    case pixels(RegionOutcome, text: TextComparison.Outcome?, color: RGBAColor)
    /// The layout level: the changed elements boxed over the current frame.
    case layout([LayoutComparison.Change], over: RGBAImage, scale: Int)

    func image() -> RGBAImage {
      switch self {
      case .pixels(let pixels, let text, let color):
        var image = pixels.diffImage()
        if let text { FrameComparison.mark(text, on: &image, color: color) }
        return image
      case .layout(let changes, let current, let scale):
        return LayoutDiffImage.draw(changes, over: current, scale: scale)
      }
    }
  }

  /// Compares `baseline` with `current`.
  ///
  /// - Throws: `ConfigurationError` when element selectors or the layout level need trees that
  ///   the frames do not have.
  public func compare(_ baseline: Frame, _ current: Frame, drawing: Bool = false) throws -> Outcome {
    var outcome = try compareFrames(baseline, current, drawing: drawing)
    if let contrast, let tree = current.tree {
      let report = try contrast.check(current.image, tree)
      outcome.contrast = report
      if report.failsTheSnapshot { outcome.passed = false }
    }
    return outcome
  }

  private func compareFrames(_ baseline: Frame, _ current: Frame, drawing: Bool) throws -> Outcome {
    let trees = [baseline.tree, current.tree].compactMap { $0 }
    if !selectors.isEmpty && trees.isEmpty {
      throw ConfigurationError(
        "element masks need an element tree: neither \(baseline.path) nor \(current.path) has one (put NAME.tree.json, or an XCUITest dump NAME.txt, beside NAME.png)"
      )
    }
    let masks = ElementMasks.resolve(selectors, in: trees)
    let resolved = try ResolvedRegions.resolve(regions, baseline: baseline.tree, current: current.tree)
    let unmatched = masks.unmatched + resolved.unmatched.filter { !masks.unmatched.contains($0) }
    var options = self.options
    options.ignoreRegions += masks.regions
    options.matchLevel = matchLevel
    // Masked elements (and what is inside them) are not part of the layout or the text either.
    // A set: a selector may match every element of a large tree, and each change is looked up.
    let masked = Set(
      selectors.flatMap { selector in
        trees.flatMap { selector.matches(in: $0).flatMap { $0.allElements() } }
      }.map { MaskedElement($0.identifier, $0.elementType, $0.frame) })
    func isMasked(_ element: Element) -> Bool {
      masked.contains(MaskedElement(element.identifier, element.elementType, element.frame))
    }
    func isMaskedChange(_ change: LayoutComparison.Change) -> Bool {
      [change.before, change.after].contains { frame in
        frame.map { masked.contains(MaskedElement(change.identifier, change.elementType, $0)) } ?? false
      }
    }
    var layout: [LayoutComparison.Change]?
    if let before = baseline.tree, let after = current.tree {
      // Text-aware holds frames to the pixel (a one-pixel move is a change) and leaves
      // relabelled elements to the text comparison: a text element's new label is worded
      // there, and another element's label is not drawn.
      let textAware = matchLevel == .textAware
      let tolerance = textAware ? TextComparison.frameTolerance / Double(after.scale) : layoutTolerance
      layout = LayoutComparison(tolerance: tolerance).changes(from: before, to: after).filter { change in
        !(textAware && change.kind == .relabelled)
          && !isMaskedChange(change)
      }
    }
    if matchLevel == .layout {
      guard let layout, let tree = current.tree else {
        let without = [baseline, current].filter { $0.tree == nil }.map(\.path).joined(separator: " and ")
        throw ConfigurationError("match level layout needs the element trees of both frames: \(without) has none")
      }
      let result = PixelDiff(options: options).compare(baseline.image, current.image)
      let pending = PendingDiff.layout(layout, over: current.image, scale: tree.scale)
      return Outcome(
        result: result, layout: layout, unmatchedSelectors: unmatched, passed: layout.isEmpty,
        diffImage: drawing ? pending.image() : nil,
        difference: layout.isEmpty ? nil : DifferenceClass(kind: .element), pendingDiff: pending)
    }
    var text: TextComparison.Outcome?
    if matchLevel == .textAware, let before = baseline.tree, let after = current.tree {
      // Text boxes are compared as text; the pixel comparison leaves them out. (Without both
      // trees there is no text to compare, and text-aware compares pixels as perceptual does.)
      let outcome = TextComparison(deltaE: options.deltaE).compare(
        baseline.image, before, current.image, after, excluding: isMasked)
      options.ignoreRegions += outcome.boxes
      text = outcome
      // A text frame whose width hinting changed, with its label the same, is no layout change.
      layout = layout?.filter { change in
        !outcome.hintedFrames.contains { $0.before == change.before && $0.after == change.after }
      }
    }
    // One comparison: the diff image, asked for now or later, is drawn from the marks it kept.
    var pixels = RegionComparison(options: options, regions: resolved).compare(baseline.image, current.image)
    if text != nil && pixels.result.differentPixels > 0 {
      // Outside text boxes, edges rasterised a little differently (text drawn inside an image,
      // a corner's fringe) are noise at this level; what is left of the comparison decides.
      let (one, two, _) = ColorMatching(metric: .ciede2000).matched(baseline.image, current.image)
      let noise = EdgeNoise(deltaE: options.deltaE).regions(
        of: pixels.result.regions, one, two, ignoring: options.ignoreRegions)
      if !noise.isEmpty {
        options.ignoreRegions += noise
        pixels = RegionComparison(options: options, regions: resolved).compare(baseline.image, current.image)
      }
    }
    let result = pixels.result
    let pending = PendingDiff.pixels(pixels, text: text, color: options.diffColor)
    var passed = result.passed
    if let text, let layout {
      passed = passed && text.changes.isEmpty && layout.isEmpty
    }
    // Layout regions: their pixels were set aside; the elements inside are held to the layout.
    var notes: [String] = []
    if !resolved.layout.isEmpty {
      if let before = baseline.tree, let after = current.tree {
        let inRegions = LayoutComparison(tolerance: layoutTolerance).changes(from: before, to: after).filter { change in
          [change.before, change.after].contains { frame in
            guard let frame else { return false }
            let rect = frame.pixels(scale: after.scale)
            return resolved.layout.contains { $0.touches(rect) }
          } && !isMaskedChange(change)
        }
        passed = passed && inRegions.isEmpty
        if !inRegions.isEmpty {
          layout = (layout ?? []) + inRegions.filter { change in !(layout ?? []).contains(change) }
        }
      } else {
        notes = resolved.layout.map { "layout region \($0): no element trees to compare, its pixels are ignored" }
      }
    }
    var difference: DifferenceClass?
    if !result.passed {
      difference = DifferenceClassifier(threshold: options.threshold).classify(
        baseline.image, current.image, result: result)
    } else if !passed {
      difference = DifferenceClass(kind: .element)
    }
    return Outcome(
      result: result, layout: layout, text: text?.changes, unmatchedSelectors: unmatched, passed: passed,
      diffImage: drawing ? pending.image() : nil, difference: difference, floating: pixels.floating,
      regionNotes: notes, pendingDiff: pending)
  }

  /// What `compare` finds for two frames that are one rendering of one tree, known without
  /// their pixels (a tree-only frame whose tree and render stamp match its baseline's: see
  /// `RunChecker`): the same masks and unmatched selectors, no layout or text change (a tree
  /// compared with itself has none), and no pixel different.
  public func compareUnchanged(_ tree: ElementTree, size: PixelSize) -> Outcome {
    let masks = ElementMasks.resolve(selectors, in: [tree, tree])
    var options = self.options
    options.ignoreRegions += masks.regions
    options.matchLevel = matchLevel
    let result = PixelDiff(options: options).identicalResult(size: size)
    return Outcome(
      result: result, layout: [], text: matchLevel == .textAware ? [] : nil, unmatchedSelectors: masks.unmatched,
      passed: result.passed)
  }

  /// Draws the text comparison's findings over a diff image: the pixels that differ away from
  /// the glyphs, and a frame around each changed text box.
  fileprivate static func mark(_ text: TextComparison.Outcome, on image: inout RGBAImage, color: RGBAColor) {
    let width = image.width
    let height = image.height
    func paint(_ x: Int, _ y: Int) {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      let offset = (y * width + x) * 4
      image.pixels[offset] = color.red
      image.pixels[offset + 1] = color.green
      image.pixels[offset + 2] = color.blue
      image.pixels[offset + 3] = color.alpha
    }
    for pixel in text.strayPixels { paint(pixel.x, pixel.y) }
    for change in text.changes {
      let box = change.box
      for x in box.x..<box.maxX {
        paint(x, box.y)
        paint(x, box.maxY - 1)
      }
      for y in box.y..<box.maxY {
        paint(box.x, y)
        paint(box.maxX - 1, y)
      }
    }
  }
}

/// What identifies a masked element: its identifier, type and frame.
private struct MaskedElement: Hashable {
  var identifier: String
  var elementType: ElementType
  var x, y, width, height: Double

  init(_ identifier: String, _ elementType: ElementType, _ frame: ElementFrame) {
    self.identifier = identifier
    self.elementType = elementType
    (x, y, width, height) = (frame.x, frame.y, frame.width, frame.height)
  }
}
