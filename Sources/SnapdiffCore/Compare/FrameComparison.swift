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

  /// - Parameter matchLevel: the level; `nil` (the default) takes `options.matchLevel`, so a
  ///   level set in the options is never lost on the way.
  public init(
    options: DiffOptions = DiffOptions(), selectors: [ElementSelector] = [], matchLevel: MatchLevel? = nil,
    layoutTolerance: Double = 1
  ) {
    self.options = options
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
    /// Selectors that matched no element in either tree.
    public var unmatchedSelectors: [String]
    /// The verdict under the match level.
    public var passed: Bool
    /// The diff image, when asked for: pixels, or boxes for the layout level.
    public var diffImage: RGBAImage?
  }

  /// Compares `baseline` with `current`.
  ///
  /// - Throws: `ConfigurationError` when element selectors or the layout level need trees that
  ///   the frames do not have.
  public func compare(_ baseline: Frame, _ current: Frame, drawing: Bool = false) throws -> Outcome {
    let trees = [baseline.tree, current.tree].compactMap { $0 }
    if !selectors.isEmpty && trees.isEmpty {
      throw ConfigurationError(
        "element masks need an element tree: neither \(baseline.path) nor \(current.path) has one (put NAME.tree.json, or an XCUITest dump NAME.txt, beside NAME.png)"
      )
    }
    let masks = ElementMasks.resolve(selectors, in: trees)
    var options = self.options
    options.ignoreRegions += masks.regions
    options.matchLevel = matchLevel.pixelLevel
    // Masked elements (and what is inside them) are not part of the layout or the text either.
    let masked = selectors.flatMap { selector in
      trees.flatMap { selector.matches(in: $0).flatMap { $0.allElements() } }
    }
    func isMasked(_ element: Element) -> Bool {
      masked.contains {
        $0.identifier == element.identifier && $0.elementType == element.elementType && $0.frame == element.frame
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
          && !masked.contains { element in
            element.identifier == change.identifier && element.elementType == change.elementType
              && (element.frame == change.before || element.frame == change.after)
          }
      }
    }
    if matchLevel == .layout {
      guard let layout, let tree = current.tree else {
        let without = [baseline, current].filter { $0.tree == nil }.map(\.path).joined(separator: " and ")
        throw ConfigurationError("match level layout needs the element trees of both frames: \(without) has none")
      }
      let result = PixelDiff(options: options).compare(baseline.image, current.image)
      let image = drawing ? LayoutDiffImage.draw(layout, over: current.image, scale: tree.scale) : nil
      return Outcome(
        result: result, layout: layout, unmatchedSelectors: masks.unmatched, passed: layout.isEmpty, diffImage: image)
    }
    var text: TextComparison.Outcome?
    if matchLevel == .textAware, let before = baseline.tree, let after = current.tree {
      // Text boxes are compared as text; the pixel comparison leaves them out. (Without both
      // trees there is no text to compare, and text-aware compares pixels as perceptual does.)
      let outcome = TextComparison(deltaE: options.deltaE).compare(
        baseline.image, before, current.image, after, excluding: isMasked)
      options.ignoreRegions += outcome.boxes
      text = outcome
    }
    var (result, image) = Self.pixels(baseline.image, current.image, options, drawing: drawing)
    if text != nil && result.differentPixels > 0 {
      // Outside text boxes, edges rasterised a little differently (text drawn inside an image,
      // a corner's fringe) are noise at this level; what is left of the comparison decides.
      let (one, two, _) = ColorMatching(matchLevel: .perceptual).matched(baseline.image, current.image)
      let noise = EdgeNoise(deltaE: options.deltaE).regions(
        of: result.regions, one, two, ignoring: options.ignoreRegions)
      if !noise.isEmpty {
        options.ignoreRegions += noise
        (result, image) = Self.pixels(baseline.image, current.image, options, drawing: drawing)
      }
    }
    if let text, var drawn = image {
      Self.mark(text, on: &drawn, color: options.diffColor)
      image = drawn
    }
    var passed = result.passed
    if let text, let layout {
      passed = passed && text.changes.isEmpty && layout.isEmpty
    }
    return Outcome(
      result: result, layout: layout, text: text?.changes, unmatchedSelectors: masks.unmatched, passed: passed,
      diffImage: image)
  }

  /// The pixel comparison, with its diff image when asked for.
  private static func pixels(_ baseline: RGBAImage, _ current: RGBAImage, _ options: DiffOptions, drawing: Bool)
    -> (DiffResult, RGBAImage?)
  {
    let engine = PixelDiff(options: options)
    if drawing { return engine.compareDrawingDiff(baseline, current) }
    return (engine.compare(baseline, current), nil)
  }

  /// What `compare` finds for two frames that are one rendering of one tree, known without
  /// their pixels (a tree-only frame whose tree and render stamp match its baseline's: see
  /// `RunChecker`): the same masks and unmatched selectors, no layout or text change (a tree
  /// compared with itself has none), and no pixel different.
  public func compareUnchanged(_ tree: ElementTree, size: PixelSize) -> Outcome {
    let masks = ElementMasks.resolve(selectors, in: [tree, tree])
    var options = self.options
    options.ignoreRegions += masks.regions
    options.matchLevel = matchLevel.pixelLevel
    let result = PixelDiff(options: options).identicalResult(size: size)
    return Outcome(
      result: result, layout: [], text: matchLevel == .textAware ? [] : nil, unmatchedSelectors: masks.unmatched,
      passed: result.passed)
  }

  /// Draws the text comparison's findings over a diff image: the pixels that differ away from
  /// the glyphs, and a frame around each changed text box.
  private static func mark(_ text: TextComparison.Outcome, on image: inout RGBAImage, color: RGBAColor) {
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
