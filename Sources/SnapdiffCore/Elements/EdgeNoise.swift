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
///    two pixels or more leave pixels that nothing within a pixel explains;
/// 2. and it did not move as a whole (`WholePixelMove`, over the region and `margin` pixels
///    around it): a shape moved by one pixel passes the first test (each of its edge pixels is
///    a blend of its neighbours) and fails this one.
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
    return regions.filter { region in
      let box = region.clamped(toWidth: width, height: height)
      guard !box.isEmpty else { return false }
      for y in box.y..<box.maxY {
        for x in box.x..<box.maxX where !ignored.contains(where: { $0.contains(x: x, y: y) }) {
          let a = Self.word(baseline, x, y)
          let b = Self.word(current, x, y)
          if a == b || abs(perceptual.delta(a, b)) <= deltaE { continue }
          guard explained(a, by: current, x, y, &perceptual), explained(b, by: baseline, x, y, &perceptual) else {
            return false
          }
        }
      }
      let wider = PixelRect(
        x: box.x - Self.margin, y: box.y - Self.margin, width: box.width + 2 * Self.margin,
        height: box.height + 2 * Self.margin
      )
      .clamped(toWidth: width, height: height)
      return WholePixelMove.displacement(baseline, current, in: wider) == nil
    }
  }

  /// How far beyond the range of a neighbourhood's colours a pixel may lie, as a fraction of
  /// that range: a feature one pixel thin (a hairline, the gap between two strokes) moved by d
  /// pixels keeps 1 − d of its peak, spread over two pixels, so the other image's range falls
  /// short of it by d of itself; rasterisers move edges by at most half a pixel (hinting rounds
  /// to the nearest), which keeps at least half the peak. 1: the range widened by itself. A flat
  /// neighbourhood has no range to widen: a new colour there must stay within `deltaE`.
  static let widening = 1.0

  /// Whether `word` is, within `deltaE`, a blend of the colours `image` has within one pixel of
  /// (x, y): each channel between their least and greatest, the range widened by `widening`.
  private func explained(
    _ word: UInt32, by image: RGBAImage, _ x: Int, _ y: Int, _ perceptual: inout PerceptualDelta
  ) -> Bool {
    var low: [Int] = [255, 255, 255, 255]
    var high: [Int] = [0, 0, 0, 0]
    for ny in max(y - 1, 0)...min(y + 1, image.height - 1) {
      for nx in max(x - 1, 0)...min(x + 1, image.width - 1) {
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
