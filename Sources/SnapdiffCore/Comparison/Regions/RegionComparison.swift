/// The one rule for regions of every kind (``CheckRegion``), applied around the pixel kernel:
/// where pixels are outside every region, the snapshot's options and level apply.
///
/// Regions are settled before the kernel runs, in this order of precedence (a pixel in two
/// regions follows the first):
/// 1. **ignore**: never counted.
/// 2. **layout**: the pixels do not count (`FrameComparison` compares the elements inside as the
///    `layout` level does, when both frames have trees).
/// 3. **floating**: the baseline's content of the region is looked for in the current frame at
///    every offset within the bounds, nearest first, at the snapshot's level. When some offset
///    matches (no pixel differs), the content's two footprints (where it was and where it is) do
///    not count; the rest of the region's surroundings count normally. When none matches, the
///    region is compared in place, as if it were not there: its differences count.
/// 4. **strict**: compared by pixelmatch (`strict`) with the snapshot's threshold, whatever the
///    snapshot's level.
/// 5. **content**: compared at `ignore-colors` (brightness only).
///
/// The snapshot's comparison runs once over the whole frame with the regions of 1–5 set aside;
/// each strict or content region is compared on its own (a crop of both images); the counts
/// add up and the snapshot's limits (`maxDiffPixels`, `maxDiffRatio`) decide over the sum.
///
/// ```swift
/// let regions = ResolvedRegions(floating: [.init(rect: badge, offsets: .init(all: 5))])
/// let outcome = RegionComparison(options: options, regions: regions).compare(baseline, current)
/// print(outcome.result.passed, outcome.floating)
/// ```
public struct RegionComparison: Sendable {
  /// The snapshot's options, at its pixel level.
  public var options: DiffOptions
  public var regions: ResolvedRegions

  public init(options: DiffOptions, regions: ResolvedRegions) {
    self.options = options
    self.regions = regions
  }

  /// Where a floating region's content was found.
  public struct FloatingMatch: Sendable, Equatable {
    public var region: ResolvedRegions.Floating
    /// The offset at which the baseline's content matched the current frame, or `nil` when it
    /// matched at none within the bounds (the region is then compared in place).
    public var offset: (dx: Int, dy: Int)?

    public static func == (a: FloatingMatch, b: FloatingMatch) -> Bool {
      a.region == b.region && a.offset?.dx == b.offset?.dx && a.offset?.dy == b.offset?.dy
    }
  }

  /// Compares `baseline` with `current` under the regions.
  ///
  /// - Complexity: one pass over the frame, one over each strict or content region, and for a
  ///   floating region of `w × h` pixels up to (up + down + 1) × (left + right + 1) comparisons
  ///   of `w × h` pixels (a byte-identical offset ends the search at once).
  public func compare(_ baseline: RGBAImage, _ current: RGBAImage) -> RegionOutcome {
    if regions.isEmpty {
      let main = PixelDiff(options: options).compareKeepingMarks(baseline, current)
      return RegionOutcome(main: main, parts: [], regions: regions, floating: [])
    }
    // Regions are compared where both images have pixels.
    let overlapWidth = min(baseline.width, current.width)
    let overlapHeight = min(baseline.height, current.height)
    func clamp(_ rect: PixelRect) -> PixelRect { rect.clamped(toWidth: overlapWidth, height: overlapHeight) }

    var setAside = options.ignoreRegions + regions.ignore + regions.layout
    var floating: [FloatingMatch] = []
    for region in regions.floating {
      let offset = find(region, baseline, current, ignoring: setAside, width: overlapWidth, height: overlapHeight)
      floating.append(FloatingMatch(region: region, offset: offset))
      if let offset {
        let rect = clamp(region.rect)
        setAside.append(rect)
        setAside.append(PixelRect(x: rect.x + offset.dx, y: rect.y + offset.dy, width: rect.width, height: rect.height))
      }
    }
    var parts: [RegionOutcome.Part] = []
    for (rects, level) in [(regions.strict, MatchLevel.strict), (regions.content, MatchLevel.ignoreColors)] {
      for rect in rects.map(clamp) where !rect.isEmpty {
        var partOptions = options
        partOptions.matchLevel = level
        partOptions.maxDiffPixels = nil
        partOptions.maxDiffRatio = nil
        partOptions.ignoreRegions = Self.translated(setAside, into: rect)
        let outcome = PixelDiff(options: partOptions).compareKeepingMarks(
          baseline.cropped(to: rect), current.cropped(to: rect))
        parts.append(RegionOutcome.Part(rect: rect, level: level, outcome: outcome))
        setAside.append(rect)
      }
    }
    var mainOptions = options
    mainOptions.ignoreRegions = setAside
    let main = PixelDiff(options: mainOptions).compareKeepingMarks(baseline, current)
    return RegionOutcome(main: main, parts: parts, regions: regions, floating: floating, limits: options)
  }

  /// The nearest offset within `region`'s bounds at which the baseline's content matches the
  /// current frame at the snapshot's level, or `nil`.
  private func find(
    _ region: ResolvedRegions.Floating, _ baseline: RGBAImage, _ current: RGBAImage, ignoring: [PixelRect],
    width: Int, height: Int
  ) -> (dx: Int, dy: Int)? {
    let rect = region.rect.clamped(toWidth: width, height: height)
    guard !rect.isEmpty else { return nil }
    let content = baseline.cropped(to: rect)
    var contentOptions = options
    contentOptions.maxDiffPixels = nil
    contentOptions.maxDiffRatio = nil
    // Set-aside areas (ignore and layout regions) do not count in the content either.
    contentOptions.ignoreRegions = Self.translated(ignoring, into: rect)
    let engine = PixelDiff(options: contentOptions)
    var offsets: [(dx: Int, dy: Int)] = []
    for dy in -region.offsets.up...region.offsets.down {
      for dx in -region.offsets.left...region.offsets.right {
        // The moved content must lie wholly inside the current frame.
        guard rect.x + dx >= 0, rect.y + dy >= 0, rect.maxX + dx <= current.width, rect.maxY + dy <= current.height
        else { continue }
        offsets.append((dx, dy))
      }
    }
    // Nearest first: content that did not move is found at once, and of two matching offsets
    // (a plain background) the smaller move is the likelier one.
    offsets.sort { abs($0.dx) + abs($0.dy) < abs($1.dx) + abs($1.dy) }
    for offset in offsets {
      let moved = PixelRect(x: rect.x + offset.dx, y: rect.y + offset.dy, width: rect.width, height: rect.height)
      if engine.compare(content, current.cropped(to: moved)).differentPixels == 0 { return offset }
    }
    return nil
  }

  /// `rects` in the coordinates of `frame`'s top-left corner, clipped to it.
  static func translated(_ rects: [PixelRect], into frame: PixelRect) -> [PixelRect] {
    rects.map { PixelRect(x: $0.x - frame.x, y: $0.y - frame.y, width: $0.width, height: $0.height) }
      .map { $0.clamped(toWidth: frame.width, height: frame.height) }.filter { !$0.isEmpty }
  }
}

extension RegionComparison.FloatingMatch {
  /// `floating region 10×6 at (20, 17): content found moved by (3, 0)`, or `… content not found
  /// within its offsets, compared in place`.
  public var sentence: String {
    "floating region \(region.rect): "
      + (offset.map { "content found moved by (\($0.dx), \($0.dy))" }
        ?? "content not found within its offsets, compared in place")
  }

  /// `{"region": {x, y, width, height}, "offsets": {up, down, left, right}, "found": {dx, dy} or null}`.
  public var json: JSONValue {
    let offsets = region.offsets
    return .object([
      ("region", region.rect.json),
      (
        "offsets",
        .object([
          ("up", .int(offsets.up)), ("down", .int(offsets.down)), ("left", .int(offsets.left)),
          ("right", .int(offsets.right)),
        ])
      ),
      ("found", offset.map { .object([("dx", .int($0.dx)), ("dy", .int($0.dy))]) } ?? .null),
    ])
  }
}
