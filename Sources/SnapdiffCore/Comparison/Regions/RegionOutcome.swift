/// What ``RegionComparison`` found: the snapshot's comparison outside the regions, each strict
/// or content region's own comparison, where each floating region was found, and the result
/// they add up to.
public struct RegionOutcome: Sendable {
  /// A strict or content region's comparison, of the two images cropped to `rect`.
  struct Part: Sendable {
    var rect: PixelRect
    var level: MatchLevel
    var outcome: DiffOutcome
  }

  /// The counts added up: `differentPixels`, `antialiasedPixels`, `ignoredPixels` (the
  /// differences set aside at the snapshot's level, those inside strict and content regions
  /// included, which their own comparisons count) and the boxes of every comparison; `passed`
  /// under the snapshot's limits over the sum.
  public let result: DiffResult
  /// Each floating region and the offset its content was found at.
  public let floating: [RegionComparison.FloatingMatch]
  public let regions: ResolvedRegions
  let main: DiffOutcome
  let parts: [Part]

  init(
    main: DiffOutcome, parts: [Part], regions: ResolvedRegions, floating: [RegionComparison.FloatingMatch],
    limits: DiffOptions? = nil
  ) {
    self.main = main
    self.parts = parts
    self.regions = regions
    self.floating = floating
    guard let limits, !parts.isEmpty || !regions.isEmpty else {
      result = main.result
      return
    }
    var result = main.result
    for part in parts {
      let found = part.outcome.result
      result.differentPixels += found.differentPixels
      result.antialiasedPixels += found.antialiasedPixels
      result.ignoredPixels += found.ignoredPixels
      result.regions += found.regions.map {
        PixelRect(x: $0.x + part.rect.x, y: $0.y + part.rect.y, width: $0.width, height: $0.height)
      }
    }
    result.regions.sort { ($0.y, $0.x) < ($1.y, $1.x) }
    result.regions = Array(result.regions.prefix(DiffRegions.maximumCount))
    result.passed = limits.passes(differentPixels: result.differentPixels, totalPixels: result.totalPixels)
    if result.differentPixels == 0 {
      result.changeHash = nil
    } else if !parts.isEmpty {
      // The change is the snapshot's change with each region's change at its place.
      let parts = parts.map {
        "\($0.rect.x),\($0.rect.y),\($0.rect.width),\($0.rect.height):\($0.outcome.result.changeHash ?? "-")"
      }
      result.changeHash = SHA256.hex(Array(([main.result.changeHash ?? "-"] + parts).joined(separator: ";").utf8))
    }
    self.result = result
  }

  /// Colours of the regions' outlines in the diff image.
  static let outlineColors: [CheckRegion.Kind: RGBAColor] = [
    .floating: RGBAColor(red: 255, green: 140, blue: 0),
    .strict: RGBAColor(red: 200, green: 0, blue: 200),
    .content: RGBAColor(red: 0, green: 160, blue: 160),
    .layout: RGBAColor(red: 0, green: 160, blue: 0),
  ]

  /// The diff image: the snapshot's comparison's (regions set aside are tinted blue, as ignore
  /// regions are), each strict or content region's own diff image at its place, and each
  /// region outlined, just outside it, in its kind's colour (floating orange, with its content's place in the
  /// current frame when found; strict purple; content teal; layout green).
  public func diffImage() -> RGBAImage {
    var image = main.diffImage()
    guard !regions.isEmpty else { return image }
    for part in parts {
      let drawn = part.outcome.diffImage()
      for row in 0..<drawn.height where part.rect.y + row < image.height {
        let target = ((part.rect.y + row) * image.width + part.rect.x) * 4
        image.pixels.replaceSubrange(
          target..<target + drawn.width * 4, with: drawn.pixels[row * drawn.width * 4..<(row + 1) * drawn.width * 4])
      }
    }
    var outlines: [(PixelRect, RGBAColor)] = []
    for match in floating {
      let color = Self.outlineColors[.floating]!
      outlines.append((match.region.rect, color))
      if let offset = match.offset, offset.dx != 0 || offset.dy != 0 {
        let rect = match.region.rect
        outlines.append(
          (PixelRect(x: rect.x + offset.dx, y: rect.y + offset.dy, width: rect.width, height: rect.height), color))
      }
    }
    outlines += regions.strict.map { ($0, Self.outlineColors[.strict]!) }
    outlines += regions.content.map { ($0, Self.outlineColors[.content]!) }
    outlines += regions.layout.map { ($0, Self.outlineColors[.layout]!) }
    for (rect, color) in outlines { Self.outline(rect, color, on: &image) }
    return image
  }

  /// The diff image as a PNG file's bytes (`PNGEncoder(speed: .fast)`); without regions, the
  /// snapshot's comparison's palette-indexed fast path.
  public func diffPNG() throws(PNGError) -> [UInt8] {
    if regions.isEmpty { return try main.diffPNG() }
    return try PNGEncoder(speed: .fast).encode(diffImage())
  }

  /// Draws a one-pixel frame just outside `rect` (on its edge where it meets the image's), so
  /// that the region's own marks stay visible.
  private static func outline(_ rect: PixelRect, _ color: RGBAColor, on image: inout RGBAImage) {
    let box = PixelRect(x: rect.x - 1, y: rect.y - 1, width: rect.width + 2, height: rect.height + 2)
      .clamped(toWidth: image.width, height: image.height)
    guard !box.isEmpty else { return }
    for x in box.x..<box.maxX {
      image[x: x, y: box.y] = color
      image[x: x, y: box.maxY - 1] = color
    }
    for y in box.y..<box.maxY {
      image[x: box.x, y: y] = color
      image[x: box.maxX - 1, y: y] = color
    }
  }
}
