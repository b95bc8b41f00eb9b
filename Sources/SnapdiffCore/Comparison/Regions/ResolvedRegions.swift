/// A comparison's regions (``CheckRegion``) in pixels: rectangles in points converted at the
/// element tree's scale, selectors resolved in the frames' trees. What ``RegionComparison``
/// compares.
public struct ResolvedRegions: Sendable, Equatable {
  /// A floating region: the baseline's `rect` may be found in the current frame up to
  /// `offsets` away.
  public struct Floating: Sendable, Equatable {
    public var rect: PixelRect
    public var offsets: CheckRegion.Offsets

    public init(rect: PixelRect, offsets: CheckRegion.Offsets) {
      self.rect = rect
      self.offsets = offsets
    }
  }

  public var floating: [Floating] = []
  public var strict: [PixelRect] = []
  public var content: [PixelRect] = []
  public var layout: [PixelRect] = []
  public var ignore: [PixelRect] = []
  /// Selectors of regions that matched no element in either tree: such a region covers nothing.
  public var unmatched: [String] = []

  public init(
    floating: [Floating] = [], strict: [PixelRect] = [], content: [PixelRect] = [], layout: [PixelRect] = [],
    ignore: [PixelRect] = []
  ) {
    self.floating = floating
    self.strict = strict
    self.content = content
    self.layout = layout
    self.ignore = ignore
  }

  public var isEmpty: Bool {
    floating.isEmpty && strict.isEmpty && content.isEmpty && layout.isEmpty && ignore.isEmpty
  }

  /// Resolves `regions` for a comparison of two frames with these element trees (either may
  /// have none). A selector is resolved in both trees (an element that moved covers where it
  /// was and where it is), except a floating region's: its content is the baseline's, so it is
  /// resolved in the baseline's tree (the current frame's when the baseline has none).
  ///
  /// - Throws: `ConfigurationError` for a malformed region, a selector or a rectangle in points
  ///   without any tree to resolve it in.
  public static func resolve(
    _ regions: [CheckRegion], baseline: ElementTree?, current: ElementTree?
  ) throws(ConfigurationError) -> ResolvedRegions {
    var resolved = ResolvedRegions()
    let trees = [baseline, current].compactMap { $0 }
    for region in regions {
      if let problem = region.problem { throw ConfigurationError(problem) }
      let rects: [PixelRect]
      switch region.area {
      case .pixels(let rect):
        rects = [rect]
      case .points(let frame):
        guard let tree = trees.first else {
          throw ConfigurationError(
            "\(region.kind) region \(region.area) is in points: it needs an element tree for the scale (or give pixels, X,Y,W,H)"
          )
        }
        rects = [frame.pixels(scale: tree.scale)]
      case .element(let text):
        let selector = try ElementSelector(text)
        guard !trees.isEmpty else {
          throw ConfigurationError(
            "\(region.kind) region '\(text)' needs an element tree: neither frame has one (put NAME.tree.json, or an XCUITest dump NAME.txt, beside NAME.png)"
          )
        }
        let searched = region.kind == .floating ? [trees[0]] : trees
        var found: [PixelRect] = []
        for rect in searched.flatMap({ selector.pixelRects(in: $0) }) where !found.contains(rect) { found.append(rect) }
        if found.isEmpty && !resolved.unmatched.contains(text) { resolved.unmatched.append(text) }
        rects = found
      }
      switch region.kind {
      case .floating:
        // `problem` above has made sure a floating region has its offsets.
        let offsets = region.offsets ?? CheckRegion.Offsets(all: 0)
        resolved.floating += rects.map { Floating(rect: $0, offsets: offsets) }
      case .strict: resolved.strict += rects
      case .content: resolved.content += rects
      case .layout: resolved.layout += rects
      case .ignore: resolved.ignore += rects
      }
    }
    return resolved
  }
}
