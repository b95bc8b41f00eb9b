#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ink of one text box in two images: how much, where its centre is, and which differing
/// pixels rasterisation does not explain.
struct InkComparison {
  /// One image's ink in the box.
  struct Ink {
    /// The sum of every pixel's ink weight (0...1).
    var coverage = 0.0
    /// The glyphs' colour: the most frequent colour of solid ink, `nil` when too little is solid.
    var color: UInt32?
  }

  var baseline = Ink()
  var current = Ink()
  /// How far the current image's ink lies from the baseline's, in pixels: the displacement
  /// that best aligns their column (x) and row (y) profiles over the pixels that differ (ΔE00
  /// above `deltaE`): their bounding box, widened by `reach` so that the moved strokes' ink is
  /// inside it; 0 when none differs.
  ///
  /// Ink that does not change does not move: a button's rounded corners around its title, an
  /// icon beside it. Aligned with the title, they hold its profiles in place (a title moved a
  /// pixel inside its button measured 0.23–1.13 px over the whole box); over the pixels that
  /// differ it measures 0.92–1.30 px, and text noise at most 0.35 px across and 0.59 px down,
  /// as over the whole box (docs/comparison.md, "Text moved inside its frame";
  /// scripts/bench/text_shift.py).
  var shift = (x: 0.0, y: 0.0)
  var strayCount = 0
  var strayPixels: [(x: Int, y: Int)] = []

  /// - Parameters:
  ///   - clippedAt: the size of the images' overlap, when the box runs past its edge.
  ///   - reach: how far, in pixels, rasterisation moves a glyph's edge (a point: `scale` pixels).
  ///   - drift: how much farther glyphs may lie along the line, in pixels: a hinted line whose
  ///     frame narrowed by n pixels has glyphs up to n pixels from where they were (each
  ///     advance rounded on its own). 0 when the frame kept its width.
  init(
    baseline a: RGBAImage, current b: RGBAImage, box: PixelRect, clippedAt bounds: PixelSize?, reach: Int,
    drift: Int = 0, deltaE: Double
  ) {
    let wordsA = Self.words(a, box)
    let wordsB = Self.words(b, box)
    let (weightsA, colorA, backgroundA) = Self.weights(wordsA)
    let (weightsB, colorB, backgroundB) = Self.weights(wordsB)
    baseline = Ink(coverage: weightsA.reduce(0, +), color: colorA)
    current = Ink(coverage: weightsB.reduce(0, +), color: colorB)
    // Ink within reach outside the box counts too: boxes of neighbouring runs of text meet
    // inside a pixel, and a glyph's edge can spill over into its neighbour's box.
    let overlap = PixelSize(width: min(a.width, b.width), height: min(a.height, b.height))
    let across = reach + drift
    let outer = PixelRect(
      x: box.x - across, y: box.y - reach, width: box.width + 2 * across, height: box.height + 2 * reach
    )
    .clamped(toWidth: overlap.width, height: overlap.height)
    let nearA = Self.near(
      Self.weights(Self.words(a, outer), background: backgroundA), box: outer, reach: (across, reach), inside: box,
      clippedAt: bounds)
    let nearB = Self.near(
      Self.weights(Self.words(b, outer), background: backgroundB), box: outer, reach: (across, reach), inside: box,
      clippedAt: bounds)
    var perceptual = PerceptualDelta()
    var differing: (left: Int, top: Int, right: Int, bottom: Int)?
    for index in 0..<wordsA.count where wordsA[index] != wordsB[index] {
      // Equal as people see them: not a difference at all.
      if abs(perceptual.delta(wordsA[index], wordsB[index])) <= deltaE { continue }
      let (x, y) = (index % box.width, index / box.width)
      differing = (
        min(differing?.left ?? x, x), min(differing?.top ?? y, y), max(differing?.right ?? x, x),
        max(differing?.bottom ?? y, y)
      )
      // Next to glyphs in both images: the same text drawn a little differently.
      if nearA[index] && nearB[index] { continue }
      strayCount += 1
      strayPixels.append((box.x + x, box.y + y))
    }
    guard let differing else { return }
    let changed = PixelRect(
      x: differing.left - reach, y: differing.top - reach, width: differing.right - differing.left + 1 + 2 * reach,
      height: differing.bottom - differing.top + 1 + 2 * reach
    )
    .clamped(toWidth: box.width, height: box.height)
    let (columnsA, rowsA) = Self.profiles(weightsA, width: box.width, over: changed)
    let (columnsB, rowsB) = Self.profiles(weightsB, width: box.width, over: changed)
    shift = (
      Self.displacement(columnsA, columnsB, within: 3 * reach), Self.displacement(rowsA, rowsB, within: 3 * reach)
    )
  }

  /// The box's pixels of `image`, row by row, as little-endian RGBA words.
  private static func words(_ image: RGBAImage, _ box: PixelRect) -> [UInt32] {
    var words: [UInt32] = []
    words.reserveCapacity(box.area)
    image.pixels.withUnsafeBytes { raw in
      for y in box.y..<box.maxY {
        for x in box.x..<box.maxX {
          words.append(
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: (y * image.width + x) * 4, as: UInt32.self)))
        }
      }
    }
    return words
  }

  /// Each pixel's ink weight: its largest channel distance from the box's background (its most
  /// frequent colour), 0...1, 0 under `TextComparison.inkLevel`; the glyphs' colour, from their
  /// cores (`coreColor`); and the background.
  private static func weights(_ words: [UInt32]) -> (weights: [Double], color: UInt32?, background: UInt32?) {
    var counts: [UInt32: Int] = [:]
    for word in words { counts[word, default: 0] += 1 }
    // Ties go to the smaller word, so the background does not depend on the dictionary's order.
    let commonest = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
    // An empty box has no background and no ink.
    guard let background = commonest?.key else { return ([], nil, nil) }
    return (words.map { weight($0, background: background) }, coreColor(counts, background: background), background)
  }

  /// The glyphs' colour: each channel's value farthest from the background that at least
  /// `solidPixels` pixels of solid ink (weight at least half the box's strongest: grey text on
  /// a light background never reaches 0.5) reach, `nil` with fewer solid pixels than that.
  ///
  /// A glyph's core covers a pixel in every channel, its edges only partly, and each channel
  /// of an edge lies between the background and the glyphs' colour: LCD subpixel text covers
  /// the three channels of an edge pixel by different amounts (a grey glyph's edges are red,
  /// blue or brown, and the most frequent of them is often one of those), grayscale
  /// anti-aliasing by the same amount. So each channel's most extreme value is the core's, and
  /// the fringes, however many, do not move it. (The most frequent solid colour, taken before,
  /// read 9-pt grey LCD text #8E8E93 as #BDA193, ΔE00 15: docs/comparison.md.)
  static func coreColor(_ counts: [UInt32: Int], background: UInt32) -> UInt32? {
    let strongest = counts.keys.map { weight($0, background: background) }.max() ?? 0
    guard strongest > 0 else { return nil }
    // Per channel, how many solid pixels have each value.
    var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
    var solid = 0
    for (word, count) in counts where weight(word, background: background) >= 0.5 * strongest {
      solid += count
      for channel in 0..<4 { histograms[channel][Int((word >> (8 * UInt32(channel))) & 0xff)] += count }
    }
    guard solid >= solidPixels else { return nil }
    var color: UInt32 = 0
    for channel in 0..<4 {
      let origin = Int((background >> (8 * UInt32(channel))) & 0xff)
      var reached = 0
      var value = origin
      // From the farthest value towards the background, until `solidPixels` pixels reach it
      // (on a tie of distances, the darker side first, so the result does not depend on order).
      search: for distance in stride(from: 255, through: 0, by: -1) {
        for candidate in [origin - distance, origin + distance] where (0...255).contains(candidate) {
          reached += histograms[channel][candidate]
          if distance == 0 { break }
          if reached >= solidPixels {
            value = candidate
            break search
          }
        }
      }
      color |= UInt32(value) << (8 * UInt32(channel))
    }
    return color
  }

  /// Each pixel's ink weight against `background` (none: no ink).
  private static func weights(_ words: [UInt32], background: UInt32?) -> [Double] {
    guard let background else { return [Double](repeating: 0, count: words.count) }
    return words.map { weight($0, background: background) }
  }

  /// A pixel's ink weight: its largest channel distance from `background`, 0...1, 0 under
  /// `TextComparison.inkLevel`.
  private static func weight(_ word: UInt32, background: UInt32) -> Double {
    // The background itself is no ink (and costs no colour math).
    if word == background { return 0 }
    let (r0, g0, b0) = channels(background)
    let (r, g, b) = channels(word)
    let weight = max(abs(r - r0), abs(g - g0), abs(b - b0)) / 255
    return weight < TextComparison.inkLevel ? 0 : weight
  }

  /// The fewest pixels of one colour that make it the glyphs' colour.
  static let solidPixels = 8

  /// The ink of each column and of each row of `region` (sums of weights), from the weights of
  /// a box `width` pixels wide that holds it.
  private static func profiles(_ weights: [Double], width: Int, over region: PixelRect) -> (
    columns: [Double], rows: [Double]
  ) {
    var columns = [Double](repeating: 0, count: region.width)
    var rows = [Double](repeating: 0, count: region.height)
    weights.withUnsafeBufferPointer { weights in
      for y in 0..<region.height {
        let start = (region.y + y) * width + region.x
        // Most of a text box is background: only ink adds to the profiles.
        for x in 0..<region.width where weights[start + x] > 0 {
          columns[x] += weights[start + x]
          rows[y] += weights[start + x]
        }
      }
    }
    return (columns, rows)
  }

  /// The displacement of profile `q` against `p`, in pixels, within ±`limit`: the whole shift
  /// whose overlap `Σ p[i]·q[i+d]` is largest (the smaller shift on a tie), refined by a
  /// parabola through its neighbours. Where ink sits, not how much of it there is: rasterisers
  /// add ink to text (LCD fringes, a stroke) but not to an icon beside it, which moves a
  /// weighted centre towards the text while the profiles still align where they did.
  static func displacement(_ p: [Double], _ q: [Double], within limit: Int) -> Double {
    let count = min(p.count, q.count)
    let limit = min(max(limit, 0), max(count - 1, 0))
    func overlap(_ d: Int) -> Double {
      var sum = 0.0
      for i in max(0, -d)..<min(count, count - d) { sum += p[i] * q[i + d] }
      return sum
    }
    let scores = (-limit...limit).map { (d: $0, score: overlap($0)) }
    guard let best = scores.max(by: { ($0.score, -abs($0.d)) < ($1.score, -abs($1.d)) }), best.score > 0 else {
      return 0
    }
    // At the window's edge the ink may lie farther still: report the edge.
    guard abs(best.d) < limit else { return Double(best.d) }
    let left = overlap(best.d - 1)
    let right = overlap(best.d + 1)
    let curvature = left - 2 * best.score + right
    return Double(best.d) + (curvature < 0 ? 0.5 * (left - right) / curvature : 0)
  }

  /// Whether each pixel of `inner` lies within `reach` pixels (across, down) of ink, from the
  /// weights of `box` (which holds `inner`).
  private static func near(
    _ weights: [Double], box: PixelRect, reach distances: (across: Int, down: Int), inside inner: PixelRect,
    clippedAt bounds: PixelSize?
  ) -> [Bool] {
    let (across, reach) = distances
    let width = box.width
    let height = box.height
    var rows = [Bool](repeating: false, count: weights.count)
    for y in 0..<height {
      // Ink in each window of columns, from a running count.
      var last = -across - 1
      var next = [Int](repeating: Int.max, count: width)
      var upcoming = Int.max
      for x in stride(from: width - 1, through: 0, by: -1) {
        if weights[y * width + x] > 0 { upcoming = x }
        next[x] = upcoming
      }
      for x in 0..<width {
        if weights[y * width + x] > 0 { last = x }
        rows[y * width + x] = x - last <= across || next[x] - x <= across
      }
    }
    var grown = [Bool](repeating: false, count: weights.count)
    for x in 0..<width {
      var last = -reach - 1
      var upcoming = Int.max
      var next = [Int](repeating: Int.max, count: height)
      for y in stride(from: height - 1, through: 0, by: -1) {
        if rows[y * width + x] { upcoming = y }
        next[y] = upcoming
      }
      for y in 0..<height {
        if rows[y * width + x] { last = y }
        grown[y * width + x] = y - last <= reach || next[y] - y <= reach
      }
    }
    var near = [Bool](repeating: false, count: inner.area)
    for y in 0..<inner.height {
      for x in 0..<inner.width {
        near[y * inner.width + x] = grown[(inner.y - box.y + y) * width + inner.x - box.x + x]
      }
    }
    guard let bounds else { return near }
    // The box runs past the image: the glyphs beyond its edge are not seen, so the pixels
    // within reach of that edge may be next to ink in either image.
    for y in 0..<inner.height {
      for x in 0..<inner.width {
        let edge =
          (inner.x == 0 && x < across) || (inner.maxX == bounds.width && x >= inner.width - across)
          || (inner.y == 0 && y < reach) || (inner.maxY == bounds.height && y >= inner.height - reach)
        if edge { near[y * inner.width + x] = true }
      }
    }
    return near
  }
}
