/// Differences outside text boxes that are edges rasterised a little differently, for the
/// `text-aware` level: text the tree does not have (initials and a badge's count drawn inside
/// an `image` element, an accessibility element that hides its children), a rounded corner's
/// anti-aliased fringe.
///
/// Rasterisers move an edge by less than a pixel: hinting rounds it to the nearest pixel, LCD
/// text filters each channel a third of a pixel aside, a curve's radius half a pixel larger
/// shades its fringe pixels differently. So a pixel they change keeps, in each image, a colour
/// that the other image has within one pixel, or a blend of them. A region of the pixel
/// comparison is such noise when
///
/// 1. every pixel in it that differs (ΔE00 above `deltaE`) is, in each image, within the
///    per-channel range of the other image's 3×3 neighbourhood (widened by `widening`, for thin
///    features), give or take `deltaE` (ΔE00 to the nearest colour of that range): a removed
///    1-px border, a new or removed glyph (a digit 3 → 8 in a badge), a new colour or a move of
///    two pixels or more leave pixels that nothing within a pixel explains; a pixel that stands
///    alone (none of its neighbours unexplained) may be explained within two pixels
///    (`isolatedReach`: a corner's border drawn with a radius half a pixel larger);
/// 2. and it did not move as a whole (`WholePixelMove`, over the region and `margin` pixels
///    around it): a shape moved by one pixel passes the first test (each of its edge pixels is
///    a blend of its neighbours) and fails this one; unless regions that did match displaced
///    moved opposite ways (`grewOrShrank`): a shape's edges moving apart or together is a
///    radius or stroke rasterised another way, not a move.
///
/// On the verdicts corpora it passes every noise region the pixel comparison leaves at this
/// level (the held-out `profile` page's initials and badge under subpixel positioning, hinting
/// and LCD text; `card/radius`), and no change: a digit 3 → 8 in the badge leaves 5–8
/// unexplained pixels; with two pixels of reach instead of one it would leave 0.
///
/// ```swift
/// let noise = EdgeNoise(deltaE: 2).regions(of: result.regions, baseline, current, ignoring: textBoxes)
/// ```
struct EdgeNoise {
  /// The largest ΔE00 under which two colours are equal: the level's `deltaE`.
  var deltaE: Double

  /// How far beyond a region the whole-pixel move is measured: unchanged edges beside the
  /// changed pixels count against a move (a corner's few fringe pixels alone match well
  /// displaced along their curve: 0.44 of their difference in place; with 3 pixels around, 0.9).
  static let margin = 3

  /// The regions (of the pixel comparison, in `baseline` and `current`, both sRGB) that are
  /// rasterisation noise. Pixels inside `ignored` are not looked at.
  ///
  /// - Complexity: O(pixels of the regions × 9).
  func regions(
    of regions: [PixelRect], _ baseline: RGBAImage, _ current: RGBAImage, ignoring ignored: [PixelRect]
  ) -> [PixelRect] {
    let width = min(baseline.width, current.width)
    let height = min(baseline.height, current.height)
    var perceptual = PerceptualDelta()
    let blends = regions.filter { region in
      let box = region.clamped(toWidth: width, height: height)
      guard !box.isEmpty else { return false }
      // Pixels nothing within one pixel explains; each must stand alone, explained within two.
      var unexplained: [(x: Int, y: Int)] = []
      for y in box.y..<box.maxY {
        for x in box.x..<box.maxX where !ignored.contains(where: { $0.contains(x: x, y: y) }) {
          let a = Self.word(baseline, x, y)
          let b = Self.word(current, x, y)
          if a == b || abs(perceptual.delta(a, b)) <= deltaE { continue }
          if explained(a, by: current, x, y, &perceptual), explained(b, by: baseline, x, y, &perceptual) { continue }
          guard
            explained(a, by: current, x, y, within: Self.isolatedReach, &perceptual),
            explained(b, by: baseline, x, y, within: Self.isolatedReach, &perceptual)
          else { return false }
          unexplained.append((x, y))
        }
      }
      let alone = unexplained.allSatisfy { one in
        !unexplained.contains { two in
          (two.x != one.x || two.y != one.y) && abs(two.x - one.x) <= 1 && abs(two.y - one.y) <= 1
        }
      }
      return alone
    }
    // Which of them moved as a whole, and which way.
    var still: [PixelRect] = []
    var moved: [(region: PixelRect, by: (x: Int, y: Int))] = []
    for region in blends {
      let wider = PixelRect(
        x: region.x - Self.margin, y: region.y - Self.margin, width: region.width + 2 * Self.margin,
        height: region.height + 2 * Self.margin
      )
      .clamped(toWidth: width, height: height)
      if let displacement = WholePixelMove.displacement(baseline, current, in: wider) {
        moved.append((region, displacement))
      } else {
        still.append(region)
      }
    }
    return still + (Self.grewOrShrank(moved.map(\.by)) ? moved.map(\.region) : [])
  }

  /// Whether regions that each match displaced by a pixel moved opposite ways on an axis: the
  /// edges of a shape that grew or shrank by a fraction of a pixel (a corner radius half a
  /// pixel larger moves each corner's fringe towards the shape's centre: the four corners of
  /// a card match displaced up, down, left and right), not a shape moved, whose edges all
  /// move the same way.
  static func grewOrShrank(_ displacements: [(x: Int, y: Int)]) -> Bool {
    displacements.contains { one in displacements.contains { two in one.x * two.x < 0 || one.y * two.y < 0 } }
  }

  /// How far beyond the range of a neighbourhood's colours a pixel may lie, as a fraction of
  /// that range: a feature one pixel thin (a hairline, the gap between two strokes) moved by d
  /// pixels keeps 1 − d of its peak, spread over two pixels, so the other image's range falls
  /// short of it by d of itself; rasterisers move edges by at most half a pixel (hinting rounds
  /// to the nearest), which keeps at least half the peak. 1: the range widened by itself. A flat
  /// neighbourhood has no range to widen: a new colour there must stay within `deltaE`.
  static let widening = 1.0

  /// How far a pixel that stands alone (no other pixel of its region unexplained within one
  /// pixel of it) may find the blend that explains it: two pixels. A curve drawn with a radius
  /// half a pixel larger moves its 1-px border by up to half a pixel, and where the border is
  /// steep a single fringe pixel can lose the border's colour that its neighbours keep
  /// (measured: 1 to 3 such pixels per card, each alone). A change leaves neighbours: a new
  /// corner radius, a divider's inset, a removed glyph are runs of pixels, and a new colour or
  /// speck on flat colour is explained by nothing near it.
  static let isolatedReach = 2

  /// Whether `word` is, within `deltaE`, a blend of the colours `image` has within `reach`
  /// pixels of (x, y): each channel between their least and greatest, the range widened by
  /// `widening`.
  private func explained(
    _ word: UInt32, by image: RGBAImage, _ x: Int, _ y: Int, within reach: Int = 1,
    _ perceptual: inout PerceptualDelta
  ) -> Bool {
    var low: [Int] = [255, 255, 255, 255]
    var high: [Int] = [0, 0, 0, 0]
    for ny in max(y - reach, 0)...min(y + reach, image.height - 1) {
      for nx in max(x - reach, 0)...min(x + reach, image.width - 1) {
        let neighbour = Self.word(image, nx, ny)
        for channel in 0..<4 {
          let value = Int((neighbour >> (8 * UInt32(channel))) & 0xff)
          low[channel] = min(low[channel], value)
          high[channel] = max(high[channel], value)
        }
      }
    }
    var nearest: UInt32 = 0
    for channel in 0..<4 {
      let value = Int((word >> (8 * UInt32(channel))) & 0xff)
      let slack = Int((Self.widening * Double(high[channel] - low[channel])).rounded())
      let clamped = min(max(value, max(low[channel] - slack, 0)), min(high[channel] + slack, 255))
      nearest |= UInt32(clamped) << (8 * UInt32(channel))
    }
    return nearest == word || abs(perceptual.delta(word, nearest)) <= deltaE
  }

  /// The little-endian RGBA word of the pixel at (x, y).
  private static func word(_ image: RGBAImage, _ x: Int, _ y: Int) -> UInt32 {
    let offset = (y * image.width + x) * 4
    return UInt32(image.pixels[offset]) | UInt32(image.pixels[offset + 1]) << 8
      | UInt32(image.pixels[offset + 2]) << 16 | UInt32(image.pixels[offset + 3]) << 24
  }
}

extension PixelRect {
  /// Whether the pixel at (x, y) lies inside.
  fileprivate func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
}
