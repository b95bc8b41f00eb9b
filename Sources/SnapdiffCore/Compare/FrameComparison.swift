/// Compares two frames (pixels with their element trees, when they have them): masks given as
/// element selectors, the match level, and the layout comparison.
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
  /// For the layout comparison: differences up to this many points are not changes.
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
        "element masks need an element tree: neither \(baseline.path) nor \(current.path) has one (put NAME.tree.json, or an XCUITest dump NAME.txt, beside NAME.png)")
    }
    let (engine, layout, masks) = treeParts(baseline.tree, current.tree)
    if matchLevel == .layout {
      guard let layout, let tree = current.tree else {
        let without = [baseline, current].filter { $0.tree == nil }.map(\.path).joined(separator: " and ")
        throw ConfigurationError("match level layout needs the element trees of both frames: \(without) has none")
      }
      let result = engine.compare(baseline.image, current.image)
      let image = drawing ? LayoutDiffImage.draw(layout, over: current.image, scale: tree.scale) : nil
      return Outcome(result: result, layout: layout, unmatchedSelectors: masks.unmatched, passed: layout.isEmpty, diffImage: image)
    }
    if drawing {
      let (result, image) = engine.compareDrawingDiff(baseline.image, current.image)
      return Outcome(result: result, layout: layout, unmatchedSelectors: masks.unmatched, passed: result.passed, diffImage: image)
    }
    let result = engine.compare(baseline.image, current.image)
    return Outcome(result: result, layout: layout, unmatchedSelectors: masks.unmatched, passed: result.passed)
  }

  /// What `compare` finds for two frames that are one rendering of one tree, known without
  /// their pixels (a tree-only frame whose tree and render stamp match its baseline's: see
  /// `RunChecker`): the same masks and unmatched selectors, the trees' layout comparison, and no
  /// pixel different.
  public func compareUnchanged(_ tree: ElementTree, size: PixelSize) -> Outcome {
    let (engine, layout, masks) = treeParts(tree, tree)
    let result = engine.identicalResult(size: size)
    let passed = matchLevel == .layout ? layout?.isEmpty == true : result.passed
    return Outcome(result: result, layout: layout, unmatchedSelectors: masks.unmatched, passed: passed)
  }

  /// What the trees decide: the engine with the element masks' regions ignored, the layout
  /// changes (when both frames have trees), and the masks.
  private func treeParts(_ baseline: ElementTree?, _ current: ElementTree?)
    -> (engine: PixelDiff, layout: [LayoutComparison.Change]?, masks: ElementMasks)
  {
    let trees = [baseline, current].compactMap { $0 }
    let masks = ElementMasks.resolve(selectors, in: trees)
    var options = self.options
    options.ignoreRegions += masks.regions
    options.matchLevel = matchLevel == .layout ? .strict : matchLevel
    var layout: [LayoutComparison.Change]?
    if let before = baseline, let after = current {
      // Masked elements (and what is inside them) are not part of the layout either.
      let masked = selectors.flatMap { selector in
        trees.flatMap { selector.matches(in: $0).flatMap { $0.allElements() } }
      }
      layout = LayoutComparison(tolerance: layoutTolerance).changes(from: before, to: after).filter { change in
        !masked.contains { element in
          element.identifier == change.identifier && element.elementType == change.elementType
            && (element.frame == change.before || element.frame == change.after)
        }
      }
    }
    return (PixelDiff(options: options), layout, masks)
  }
}
