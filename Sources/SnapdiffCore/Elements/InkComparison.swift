/// The ink of one text box in two images: how much, where its centre is, and which differing
/// pixels rasterisation does not explain.
struct InkComparison {
  /// One image's ink in the box.
  struct Ink {
    /// The sum of every pixel's ink weight (0...1).
    var coverage = 0.0
    /// The ink-weighted centre, in image pixels.
    var centre = (x: 0.0, y: 0.0)
    /// The width of the columns holding ink, in pixels.
    var inkWidth = 0
    /// The glyphs' colour: the most frequent colour of solid ink, `nil` when too little is solid.
    var color: UInt32?
  }

  var baseline = Ink()
  var current = Ink()
  var strayCount = 0
  var strayPixels: [(x: Int, y: Int)] = []

  /// - Parameters:
  ///   - clippedAt: the size of the images' overlap, when the box runs past its edge.
  ///   - reach: how far, in pixels, rasterisation moves a glyph's edge (a point: `scale` pixels).
  init(
    baseline a: RGBAImage, current b: RGBAImage, box: PixelRect, clippedAt bounds: PixelSize?, reach: Int,
    deltaE: Double
  ) {
    let wordsA = Self.words(a, box)
    let wordsB = Self.words(b, box)
    let (weightsA, colorA) = Self.weights(wordsA)
    let (weightsB, colorB) = Self.weights(wordsB)
    baseline = Self.ink(weightsA, box)
    current = Self.ink(weightsB, box)
    baseline.color = colorA
    current.color = colorB
    let nearA = Self.near(weightsA, box: box, reach: reach, clippedAt: bounds)
    let nearB = Self.near(weightsB, box: box, reach: reach, clippedAt: bounds)
    var perceptual = PerceptualDelta()
    for index in 0..<wordsA.count where wordsA[index] != wordsB[index] {
      // Equal as people see them: not a difference at all.
      if abs(perceptual.delta(wordsA[index], wordsB[index])) <= deltaE { continue }
      // Next to glyphs in both images: the same text drawn a little differently.
      if nearA[index] && nearB[index] { continue }
      strayCount += 1
      strayPixels.append((box.x + index % box.width, box.y + index / box.width))
    }
  }

  /// The box's pixels of `image`, row by row, as little-endian RGBA words.
  private static func words(_ image: RGBAImage, _ box: PixelRect) -> [UInt32] {
    var words: [UInt32] = []
    words.reserveCapacity(box.area)
    image.pixels.withUnsafeBytes { raw in
      for y in box.y..<box.maxY {
        for x in box.x..<box.maxX {
          words.append(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: (y * image.width + x) * 4, as: UInt32.self)))
        }
      }
    }
    return words
  }

  /// Each pixel's ink weight: its largest channel distance from the box's background (its most
  /// frequent colour), 0...1, 0 under `TextComparison.inkLevel`; and the glyphs' colour: the
  /// most frequent colour of solid ink (weight 0.5 or more). Rasterisers differ on a glyph's
  /// edges, not its inside: on the verdicts corpus that colour is the same to the byte under
  /// every kind of text noise (LCD text moves the mean ink colour by up to ΔE 14).
  private static func weights(_ words: [UInt32]) -> (weights: [Double], color: UInt32?) {
    var counts: [UInt32: Int] = [:]
    for word in words { counts[word, default: 0] += 1 }
    // Ties go to the smaller word, so neither colour depends on the dictionary's order.
    func commonest(_ pairs: [(key: UInt32, value: Int)]) -> (key: UInt32, value: Int)? {
      pairs.max { ($0.value, $1.key) < ($1.value, $0.key) }
    }
    // An empty box has no background and no ink.
    guard let background = commonest(Array(counts))?.key else { return ([], nil) }
    let (r0, g0, b0) = channels(background)
    func weight(_ word: UInt32) -> Double {
      // The background itself is no ink (and costs no colour math).
      if word == background { return 0 }
      let (r, g, b) = channels(word)
      let weight = max(abs(r - r0), abs(g - g0), abs(b - b0)) / 255
      return weight < TextComparison.inkLevel ? 0 : weight
    }
    let solid = commonest(counts.filter { weight($0.key) >= 0.5 }.map { ($0.key, $0.value) })
    // A colour seen on a handful of pixels is an edge's shade, not the glyphs' colour.
    let color = solid.flatMap { $0.value >= Self.solidPixels ? $0.key : nil }
    return (words.map(weight), color)
  }

  /// The fewest pixels of one colour that make it the glyphs' colour.
  static let solidPixels = 8

  private static func ink(_ weights: [Double], _ box: PixelRect) -> Ink {
    var ink = Ink()
    var sumX = 0.0
    var sumY = 0.0
    var left = Int.max
    var right = Int.min
    for (index, weight) in weights.enumerated() where weight > 0 {
      let x = index % box.width
      ink.coverage += weight
      sumX += weight * (Double(box.x + x) + 0.5)
      sumY += weight * (Double(box.y + index / box.width) + 0.5)
      left = min(left, x)
      right = max(right, x)
    }
    // Without ink there is no centre or width to compare (coverage tells that story).
    if ink.coverage > 0 {
      ink.centre = (sumX / ink.coverage, sumY / ink.coverage)
      ink.inkWidth = right - left + 1
    }
    return ink
  }

  /// Whether each pixel lies within `reach` pixels (horizontally and vertically) of ink.
  private static func near(_ weights: [Double], box: PixelRect, reach: Int, clippedAt bounds: PixelSize?) -> [Bool] {
    let width = box.width
    let height = box.height
    var rows = [Bool](repeating: false, count: weights.count)
    for y in 0..<height {
      // Ink in each window of columns, from a running count.
      var last = -reach - 1
      var next = [Int](repeating: Int.max, count: width)
      var upcoming = Int.max
      for x in stride(from: width - 1, through: 0, by: -1) {
        if weights[y * width + x] > 0 { upcoming = x }
        next[x] = upcoming
      }
      for x in 0..<width {
        if weights[y * width + x] > 0 { last = x }
        rows[y * width + x] = x - last <= reach || next[x] - x <= reach
      }
    }
    var near = [Bool](repeating: false, count: weights.count)
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
        near[y * width + x] = y - last <= reach || next[y] - y <= reach
      }
    }
    guard let bounds else { return near }
    // The box runs past the image: the glyphs beyond its edge are not seen, so the pixels
    // within reach of that edge may be next to ink in either image.
    for y in 0..<height {
      for x in 0..<width {
        let edge =
          (box.x == 0 && x < reach) || (box.maxX == bounds.width && x >= width - reach)
          || (box.y == 0 && y < reach) || (box.maxY == bounds.height && y >= height - reach)
        if edge { near[y * width + x] = true }
      }
    }
    return near
  }
}
