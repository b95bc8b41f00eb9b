/// Whether what is drawn in a box moved as a whole by a pixel: the current pixels match the
/// baseline's displaced by one pixel (in any of eight directions) much better than in place.
///
/// Rasterisation noise moves edges by less than a pixel, and not all the same way (a stroke
/// grows on both sides, hinting rounds each stem to its nearest pixel): displacing the
/// baseline by a whole pixel then matches worse than leaving it in place. An edge moved by d
/// pixels (0 ≤ d ≤ 1) differs by d in place and by 1 − d displaced, so displaced it matches at
/// least twice as well (`ratio`) when it moved by more than two thirds of a pixel. On the
/// verdicts corpora the noise's ratio is at least 0.9 (displaced matches no better than in
/// place) and a one-pixel move's is 0 to 0.2.
///
/// It measures what the profile alignment of `InkComparison` can miss: ink that does not move
/// with the text inside the same box (a button's rounded corners around its title) weighs on
/// the profiles, not on the match of the moved pixels.
enum WholePixelMove {
  /// Displaced, the box must match at most this fraction of its difference in place.
  static let ratio = 0.5

  /// The eight whole-pixel displacements tried.
  private static let displacements = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]

  /// The displacement (x right, y down) by which `box` of `current` matches `baseline` best,
  /// when it matches at most `ratio` of its difference in place; `nil` when it did not move
  /// (or nothing differs).
  ///
  /// - Complexity: O(pixels of `box` × 9).
  static func displacement(_ baseline: RGBAImage, _ current: RGBAImage, in box: PixelRect) -> (x: Int, y: Int)? {
    let inPlace = difference(baseline, current, in: box, displacedBy: (0, 0), over: .max)
    guard inPlace > 0 else { return nil }
    // A displacement is given up on once it matches worse than a move would: for noise, after
    // a few rows.
    let limit = Int(ratio * Double(inPlace))
    var best: (shift: (Int, Int), difference: Int)?
    for shift in displacements {
      let sum = difference(baseline, current, in: box, displacedBy: shift, over: min(limit, best?.difference ?? .max))
      if sum <= limit && sum < (best?.difference ?? .max) { best = (shift, sum) }
    }
    return best.map { (x: $0.shift.0, y: $0.shift.1) }
  }

  /// The sum of channel differences between `current` in `box` and `baseline` displaced by
  /// `shift` (read at (x − dx, y − dy), clamped to the image); once past `limit`, a partial sum
  /// above it.
  private static func difference(
    _ baseline: RGBAImage, _ current: RGBAImage, in box: PixelRect, displacedBy shift: (Int, Int), over limit: Int
  ) -> Int {
    var sum = 0
    baseline.pixels.withUnsafeBufferPointer { one in
      current.pixels.withUnsafeBufferPointer { two in
        for y in box.y..<box.maxY where sum <= limit {
          let sourceY = min(max(y - shift.1, 0), baseline.height - 1)
          for x in box.x..<box.maxX {
            let sourceX = min(max(x - shift.0, 0), baseline.width - 1)
            let a = (sourceY * baseline.width + sourceX) * 4
            let b = (y * current.width + x) * 4
            for channel in 0..<4 { sum += abs(Int(one[a + channel]) - Int(two[b + channel])) }
          }
        }
      }
    }
    return sum
  }
}
