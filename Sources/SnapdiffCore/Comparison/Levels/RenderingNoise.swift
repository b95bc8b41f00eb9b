// The `rendering-tolerant` match level's rules, measured on real iOS screenshots re-recorded
// across OS, Xcode and simulator updates (docs/comparison.md, scripts/bench/tolerant_corpus.py).

/// What re-rendering does to a screenshot: it re-blends anti-aliased edges, re-rasterises glyphs
/// and moves edges by a pixel or two. A pixel that differs beyond the threshold is explained when
/// each image has the other's colour (within the threshold) no more than `radius` pixels away,
/// or when it is an edge re-blended (`reblended`). What neither explains is grouped into patches (pixels up to `linkDistance` apart
/// are one patch); a patch of fewer than `smallestChange` pixels is noise too. A word, an
/// icon, a divider's inset, a dimmed button leave larger patches, and fail. What the first two
/// explain may still be an element moved whole, judged by `MovedElements`.
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

  /// Whether the differing pixel at (`x`, `y`) is an edge re-blended, as a shape moved by a
  /// fraction of a pixel is: the darkest and the brightest colour of the two images' 3×3 windows
  /// around it are each found (within the threshold) in both windows, and the pixel's colour in
  /// both images lies within the threshold of the segment between them (a mix of the two).
  /// A colour that one image lacks (a dimmed label, a new icon, text added) is no such mix.
  static func reblended(_ a: PixelWords, _ b: PixelWords, x: Int, y: Int, maxDelta: Double) -> Bool {
    let left = max(x - 1, 0)
    let right = min(x + 1, a.width - 1)
    let top = max(y - 1, 0)
    let bottom = min(y + 1, a.height - 1)
    var darkest = a[x: x, y: y]
    var brightest = darkest
    var darkestY = Double.infinity
    var brightestY = -Double.infinity
    func consider(_ word: UInt32) {
      let (red, green, blue) = channels(word)
      let luma = rgb2y(red, green, blue)
      if luma < darkestY {
        darkestY = luma
        darkest = word
      }
      if luma > brightestY {
        brightestY = luma
        brightest = word
      }
    }
    for row in top...bottom {
      for column in left...right {
        consider(a[x: column, y: row])
        consider(b[x: column, y: row])
      }
    }
    func inWindow(_ word: UInt32, _ image: PixelWords) -> Bool {
      for row in top...bottom {
        for column in left...right where matches(word, image[x: column, y: row], maxDelta) { return true }
      }
      return false
    }
    guard inWindow(darkest, a), inWindow(darkest, b), inWindow(brightest, a), inWindow(brightest, b) else {
      return false
    }
    let start = YIQ(darkest)
    let end = YIQ(brightest)
    return start.segmentDistance(to: end, from: YIQ(a[x: x, y: y])) <= maxDelta
      && start.segmentDistance(to: end, from: YIQ(b[x: x, y: y])) <= maxDelta
  }

  @inline(__always)
  private static func matches(_ first: UInt32, _ second: UInt32, _ maxDelta: Double) -> Bool {
    first == second || abs(colorDelta(first, second)) <= maxDelta
  }
}

/// A colour as YIQ, for distances to a segment under `colorDelta`'s metric.
private struct YIQ {
  var y: Double
  var i: Double
  var q: Double

  @inline(__always)
  init(_ word: UInt32) {
    let (r, g, b) = channels(word)
    y = rgb2y(r, g, b)
    i = rgb2i(r, g, b)
    q = rgb2q(r, g, b)
  }

  /// `colorDelta`'s squared distance from `point` to the nearest point of the segment from
  /// `self` to `end`.
  @inline(__always)
  func segmentDistance(to end: YIQ, from point: YIQ) -> Double {
    let (dy, di, dq) = (end.y - y, end.i - i, end.q - q)
    let (py, pi, pq) = (point.y - y, point.i - i, point.q - q)
    let length = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    let along = length > 0 ? min(max((0.5053 * py * dy + 0.299 * pi * di + 0.1957 * pq * dq) / length, 0), 1) : 0
    let (ey, ei, eq) = (py - along * dy, pi - along * di, pq - along * dq)
    return 0.5053 * ey * ey + 0.299 * ei * ei + 0.1957 * eq * eq
  }
}

/// Which pixels of the row being scanned and of the row before it are unexplained, so that a
/// pixel inside an unexplained area (left, upper-left, upper and upper-right neighbours all
/// unexplained) joins it without being searched around: it is in their patch either way. Two
/// rows of flags, allocated once per comparison (none for a width of 0: other levels).
struct UnexplainedRows {
  private var previous: [Bool]
  private var current: [Bool]
  private var row = -2

  init(width: Int) {
    previous = [Bool](repeating: false, count: width)
    current = previous
  }

  /// Starts row `y` (rows with no differing pixel may have been skipped).
  @inline(__always)
  mutating func advance(to y: Int) {
    guard !current.isEmpty else { return }
    if y == row + 1 {
      swap(&previous, &current)
    } else {
      for index in previous.indices { previous[index] = false }
    }
    for index in current.indices { current[index] = false }
    row = y
  }

  @inline(__always)
  mutating func mark(x: Int) {
    current[x] = true
  }

  @inline(__always)
  func surrounded(x: Int, y: Int) -> Bool {
    x > 0 && x + 1 < current.count && current[x - 1] && previous[x - 1] && previous[x] && previous[x + 1]
  }
}

/// The pixels beyond the threshold, in scan order, kept until the scan is over and their
/// patches can be measured: those no neighbour explained, and those explained (which may be an
/// element moved whole, `MovedElements`).
struct UnsettledPixels {
  /// Each pixel's index (row-major) times four, plus two where a neighbour explained it, plus
  /// one where the current image is darker.
  private(set) var entries: [Int] = []

  var isEmpty: Bool { entries.isEmpty }
  var count: Int { entries.count }

  @inline(__always)
  mutating func append(index: Int, darker: Bool, explained: Bool) {
    entries.append(index &<< 2 | (explained ? 2 : 0) | (darker ? 1 : 0))
  }

  /// Calls `body(index, darker, isChange)` for every pixel in scan order. An unexplained pixel
  /// is a change when its patch has at least `RenderingNoise.smallestChange` pixels; an
  /// explained one when its patch (of explained pixels) is that large and an element moved
  /// whole that a renderer does not move (`MovedElements`). Patches are found on bitmaps of the
  /// image (one bit a pixel), so the cost is clearing them plus
  /// O(pixels × (2 × linkDistance + 1)²), and for each large explained patch up to 24 shifts
  /// tried on its pixels.
  func classify(_ a: PixelWords, _ b: PixelWords, _ body: (Int, Bool, Bool) -> Void) {
    guard !entries.isEmpty else { return }
    let width = a.width
    let height = a.height
    let words = (width &* height &+ 63) >> 6
    var unexplained = [UInt64](repeating: 0, count: words)
    var explained = [UInt64](repeating: 0, count: words)
    for entry in entries {
      let index = entry >> 2
      if entry & 2 == 0 {
        unexplained[index >> 6] |= 1 << UInt64(index & 63)
      } else {
        explained[index >> 6] |= 1 << UInt64(index & 63)
      }
    }
    var changed = [UInt64](repeating: 0, count: words)
    var patches = PatchFinder(width: width, height: height)
    for entry in entries where entry & 2 == 0 {
      patches.collect(from: entry >> 2, in: &unexplained) { patch in
        guard patch.count >= RenderingNoise.smallestChange else { return }
        for index in patch { changed[index >> 6] |= 1 << UInt64(index & 63) }
      }
    }
    var moved: [(pixels: [Int], move: MovedElements.Move)] = []
    for entry in entries where entry & 2 != 0 {
      patches.collect(from: entry >> 2, in: &explained) { patch in
        guard patch.count >= RenderingNoise.smallestChange, let move = MovedElements.move(of: patch, a, b) else {
          return
        }
        moved.append((patch, move))
      }
    }
    for (element, isChange) in zip(moved, MovedElements.changes(moved.map(\.move))) where isChange {
      for index in element.pixels { changed[index >> 6] |= 1 << UInt64(index & 63) }
    }
    for entry in entries {
      let index = entry >> 2
      body(index, entry & 1 == 1, changed[index >> 6] & (1 << UInt64(index & 63)) != 0)
    }
  }
}

/// Groups pixels into patches: pixels up to `RenderingNoise.linkDistance` apart (Chebyshev)
/// are one patch.
private struct PatchFinder {
  let width: Int
  let height: Int
  private var patch: [Int] = []
  private var stack: [Int] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// When `seed` is still pending in `pending`, takes its whole patch out of `pending` and
  /// calls `body` with it.
  mutating func collect(from seed: Int, in pending: inout [UInt64], _ body: ([Int]) -> Void) {
    guard pending[seed >> 6] & (1 << UInt64(seed & 63)) != 0 else { return }
    pending[seed >> 6] &= ~(1 << UInt64(seed & 63))
    let link = RenderingNoise.linkDistance
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
    body(patch)
  }
}
