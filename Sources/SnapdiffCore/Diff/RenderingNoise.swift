// The `rendering-tolerant` match level's two rules, measured on real iOS screenshots re-recorded
// across OS, Xcode and simulator updates (docs/comparison.md, scripts/bench/tolerant_corpus.py).

/// What re-rendering does to a screenshot: it re-blends anti-aliased edges, re-rasterises glyphs
/// and moves edges by a pixel or two. A pixel that differs beyond the threshold is explained when
/// each image has the other's colour (within the threshold) no more than `radius` pixels away.
/// What no such neighbour explains is grouped into patches (pixels up to `linkDistance` apart
/// are one patch); a patch of fewer than `smallestChange` pixels is noise too. A word, an
/// icon, a divider's inset, a dimmed button leave larger patches, and fail.
public enum RenderingNoise {
  /// How far a pixel's colour may have moved: 2 px (a title re-laid 1 pt lower at @2x).
  public static let radius = 2
  /// Unexplained pixels this close (Chebyshev) are one patch.
  public static let linkDistance = 3
  /// The smallest patch that is a change. On the development corpus rendering noise leaves
  /// patches of at most 8 pixels, and every change that leaves any leaves one of 38 or more.
  public static let smallestChange = 16

  /// Whether the differing pixel at (`x`, `y`) is explained: `b` has `a`'s colour within
  /// `radius`, and `a` has `b`'s.
  @inline(__always)
  static func explained(_ a: PixelWords, _ b: PixelWords, x: Int, y: Int, maxDelta: Double) -> Bool {
    found(a[x: x, y: y], near: x, y, in: b, maxDelta: maxDelta)
      && found(b[x: x, y: y], near: x, y, in: a, maxDelta: maxDelta)
  }

  /// Whether `image` has a pixel within `maxDelta` of `word` in the window of `radius` around
  /// (`x`, `y`), nearer rings first (the centre itself is known to differ).
  @inline(__always)
  private static func found(_ word: UInt32, near x: Int, _ y: Int, in image: PixelWords, maxDelta: Double)
    -> Bool
  {
    for ring in 1...radius {
      let top = y - ring
      let bottom = y + ring
      let left = max(x - ring, 0)
      let right = min(x + ring, image.width - 1)
      // The ring's top and bottom rows, then its left and right columns between them.
      if top >= 0 {
        for column in left...right where matches(word, image[x: column, y: top], maxDelta) { return true }
      }
      if bottom < image.height {
        for column in left...right where matches(word, image[x: column, y: bottom], maxDelta) { return true }
      }
      let from = max(top + 1, 0)
      let to = min(bottom - 1, image.height - 1)
      guard from <= to else { continue }
      for row in from...to {
        if x - ring >= 0 && matches(word, image[x: x - ring, y: row], maxDelta) { return true }
        if x + ring < image.width && matches(word, image[x: x + ring, y: row], maxDelta) { return true }
      }
    }
    return false
  }

  @inline(__always)
  private static func matches(_ first: UInt32, _ second: UInt32, _ maxDelta: Double) -> Bool {
    first == second || abs(colorDelta(first, second)) <= maxDelta
  }
}

/// The differing pixels that no neighbour explained, in scan order, kept until the scan is over
/// and their patches can be measured.
struct UnexplainedPixels {
  /// Each pixel's index (row-major) times two, plus one where the current image is darker.
  private(set) var entries: [Int] = []

  var isEmpty: Bool { entries.isEmpty }

  @inline(__always)
  mutating func append(index: Int, darker: Bool) {
    entries.append(index &<< 1 | (darker ? 1 : 0))
  }

  /// Calls `body(index, darker, isChange)` for every pixel in scan order, `isChange` telling
  /// whether its patch has at least `RenderingNoise.smallestChange` pixels. Patches are found on
  /// a bitmap of the image (one bit a pixel), so the cost is clearing the bitmap plus
  /// O(pixels × (2 × linkDistance + 1)²).
  func classify(width: Int, height: Int, _ body: (Int, Bool, Bool) -> Void) {
    guard !entries.isEmpty else { return }
    let words = (width &* height &+ 63) >> 6
    var pending = [UInt64](repeating: 0, count: words)
    for entry in entries {
      let index = entry >> 1
      pending[index >> 6] |= 1 << UInt64(index & 63)
    }
    var changed = [UInt64](repeating: 0, count: words)
    let link = RenderingNoise.linkDistance
    var patch: [Int] = []
    var stack: [Int] = []
    for entry in entries {
      let seed = entry >> 1
      guard pending[seed >> 6] & (1 << UInt64(seed & 63)) != 0 else { continue }
      pending[seed >> 6] &= ~(1 << UInt64(seed & 63))
      patch.removeAll(keepingCapacity: true)
      stack.append(seed)
      while let index = stack.popLast() {
        patch.append(index)
        let x = index % width
        let y = index / width
        for row in max(y - link, 0)...min(y + link, height - 1) {
          for column in max(x - link, 0)...min(x + link, width - 1) {
            let other = row &* width &+ column
            let bit: UInt64 = 1 << UInt64(other & 63)
            if pending[other >> 6] & bit != 0 {
              pending[other >> 6] &= ~bit
              stack.append(other)
            }
          }
        }
      }
      guard patch.count >= RenderingNoise.smallestChange else { continue }
      for index in patch { changed[index >> 6] |= 1 << UInt64(index & 63) }
    }
    for entry in entries {
      let index = entry >> 1
      body(index, entry & 1 == 1, changed[index >> 6] & (1 << UInt64(index & 63)) != 0)
    }
  }
}
