/// Says what kind of difference a failed comparison found (`DifferenceClass`): anti-aliasing,
/// glyphs and edges re-rendered, content shifted by whole pixels below a row, content moved as an
/// exact copy and nothing else (rendering-tolerant's lone move), a hairline's or an area's colour, or an
/// element changed. The one place that decides it, for compare, check, the service and calibration.
///
/// It looks only at the pixels whose bytes differ inside the comparison's regions, and at most
/// ``sampleLimit`` of them (every n-th, region by region), so it costs a fraction of the
/// comparison and gives the same answer for the same images.
///
/// ```swift
/// let result = PixelDiff().compare(baseline, current)
/// if let difference = DifferenceClassifier().classify(baseline, current, result: result) {
///   print(difference.sentence)   // "content shifted down by 2 px below y=88"
/// }
/// ```
public struct DifferenceClassifier: Sendable {
  /// pixelmatch's YIQ threshold under which two pixels count as the same colour here.
  public var threshold: Double

  /// The largest vertical shift looked for, in pixels.
  public static let maxShift = 16
  /// The most differing pixels examined.
  public static let sampleLimit = 4_096
  /// The share of differing pixels a shift must explain.
  static let shiftShare = 0.97
  /// The share of differing pixels that may lack a match within one pixel and still be re-rendered.
  static let unmatchedShare = 0.002
  /// The share of differing pixels one before → after colour pair must cover for a colour change.
  static let dominantShare = 0.6
  /// The share of that pair's pixels whose unchanged neighbours may still have the old colour
  /// (more: the area did not change colour, something was drawn over it).
  static let leakShare = 0.02

  public init(threshold: Double = DiffOptions().threshold) {
    self.threshold = threshold
  }

  /// What a comparison of `baseline` and `current` that found `result` says the difference is:
  /// `nil` when it passed, `moved` when rendering-tolerant found content moved as an exact copy
  /// and nothing else (`DiffResult.loneMove`), else the kind the differing pixels inside its
  /// regions show.
  public func classify(_ baseline: RGBAImage, _ current: RGBAImage, result: DiffResult) -> DifferenceClass? {
    if result.passed { return nil }
    if let move = result.loneMove { return DifferenceClass(kind: .moved, move: move) }
    return classify(baseline, current, regions: result.regions)
  }

  /// The kind of difference between `baseline` and `current`, looking inside `regions` (a
  /// comparison's `DiffResult.regions`); `nil` when no pixel differs there.
  ///
  /// - Complexity: O(area of `regions`) to find the differing pixels, then
  ///   O(min(differing, ``sampleLimit``) × ``maxShift``).
  public func classify(_ baseline: RGBAImage, _ current: RGBAImage, regions: [PixelRect]) -> DifferenceClass? {
    guard baseline.width == current.width, baseline.height == current.height else {
      return DifferenceClass(kind: .size)
    }
    return baseline.pixels.withUnsafeBytes { one in
      current.pixels.withUnsafeBytes { two in
        let before = PixelWords(base: one.baseAddress!, width: baseline.width, height: baseline.height)
        let after = PixelWords(base: two.baseAddress!, width: current.width, height: current.height)
        return classify(before, after, regions: regions)
      }
    }
  }

  private func classify(_ before: PixelWords, _ after: PixelWords, regions: [PixelRect]) -> DifferenceClass? {
    let limit = maxYIQDelta * threshold * threshold
    let width = before.width
    let height = before.height
    func same(_ first: UInt32, _ second: UInt32) -> Bool { abs(colorDelta(first, second)) <= limit }
    // The pixels that differ beyond the threshold ("strong"); fainter ones are what a tint of a
    // level or two does, and only count when nothing stronger differs.
    var strong: [Int] = []
    var faint = 0
    // The regions do not overlap (`DiffRegions` merges overlapping boxes): each pixel is seen once.
    for region in regions {
      let x0 = max(region.x, 0)
      let y0 = max(region.y, 0)
      let x1 = min(region.maxX, width)
      let y1 = min(region.maxY, height)
      guard x0 < x1, y0 < y1 else { continue }
      for y in y0..<y1 {
        for x in x0..<x1 {
          let index = y &* width &+ x
          let first = before[index]
          let second = after[index]
          guard first != second else { continue }
          if same(first, second) { faint += 1 } else { strong.append(index) }
        }
      }
    }
    if strong.isEmpty { return faint > 0 ? DifferenceClass(kind: .rerendered) : nil }
    // Regions in their order, each row by row: the same order for the same images, so the
    // samples below are too (sorting a whole-screen change's millions of indexes is not needed).
    let firstRow = strong.min()! / width
    let lastRow = strong.max()! / width
    var isStrong = [Bool](repeating: false, count: width * height)
    for index in strong { isStrong[index] = true }
    let stride = max(1, (strong.count + Self.sampleLimit - 1) / Self.sampleLimit)
    let samples = Swift.stride(from: 0, to: strong.count, by: stride).map { strong[$0] }

    // Anti-aliasing: every differing pixel is an edge's blend in one image or the other.
    let antialiased = samples.allSatisfy { index in
      let x = index % width
      let y = index / width
      return isAntialiased(before, x: x, y: y, other: after) || isAntialiased(after, x: x, y: y, other: before)
    }
    if antialiased { return DifferenceClass(kind: .antialiasing) }

    // A shift: the content below the first differing row moved by whole pixels, both ways (the
    // current pixel is the baseline's `shift` rows up, the baseline pixel the current one's
    // `shift` rows down), so that something removed from a plain background is not a shift.
    // Pixels whose source lies beyond the image's edge (content moved in or out) are not counted.
    var bestShift = 0
    var bestShare = 0.0
    // Smallest shifts first; a shift that explains every pixel ends the search.
    search: for shift in 1...Self.maxShift {
      for signed in [shift, -shift] {
        var matched = 0
        var considered = 0
        for index in samples {
          let x = index % width
          let y = index / width
          let up = y - signed
          let down = y + signed
          guard up >= 0, up < height, down >= 0, down < height else { continue }
          considered += 1
          if same(after[index], before[up &* width &+ x]) && same(before[index], after[down &* width &+ x]) {
            matched += 1
          }
        }
        guard considered * 2 >= samples.count else { continue }
        let share = Double(matched) / Double(considered)
        if share > bestShare {
          bestShare = share
          bestShift = signed
          if matched == considered { break search }
        }
      }
    }
    // The differing pixels alone can line up with a plain pattern by chance (a square drawn
    // below a bar of its colour); moved content moves as a block, so the shift must hold for
    // every pixel of their bounding box too.
    if bestShare >= Self.shiftShare {
      var x0 = width
      var x1 = 0
      for index in strong {
        x0 = min(x0, index % width)
        x1 = max(x1, index % width)
      }
      var matched = 0
      var considered = 0
      for y in firstRow...lastRow where y - bestShift >= 0 && y - bestShift < height {
        for x in x0...x1 {
          considered += 1
          if same(after[x: x, y: y], before[x: x, y: y - bestShift]) { matched += 1 }
        }
      }
      if considered > 0 && Double(matched) >= Self.shiftShare * Double(considered) {
        return DifferenceClass(kind: .shifted, shift: bestShift, row: firstRow)
      }
    }

    // Re-rendered: each differing pixel's colour is found within one pixel in the other image,
    // both ways: an edge or a glyph drawn again, nothing added or removed.
    func matchesNearby(_ color: UInt32, in image: PixelWords, x: Int, y: Int) -> Bool {
      for ny in max(y - 1, 0)...min(y + 1, height - 1) {
        for nx in max(x - 1, 0)...min(x + 1, width - 1) where same(color, image[x: nx, y: ny]) { return true }
      }
      return false
    }
    var unmatched = 0
    for index in samples {
      let x = index % width
      let y = index / width
      if !matchesNearby(before[index], in: after, x: x, y: y) || !matchesNearby(after[index], in: before, x: x, y: y) {
        unmatched += 1
      }
    }
    if Double(unmatched) <= Self.unmatchedShare * Double(samples.count) {
      return DifferenceClass(kind: .rerendered)
    }

    // A colour change: one before → after pair covers most differing pixels, and the unchanged
    // pixels beside them do not have the old colour (the whole area changed, nothing was drawn
    // over part of it).
    var pairs: [UInt64: Int] = [:]
    for index in samples { pairs[UInt64(before[index]) << 32 | UInt64(after[index]), default: 0] += 1 }
    let dominant = pairs.max { ($0.value, $1.key) < ($1.value, $0.key) }!
    if Double(dominant.value) >= Self.dominantShare * Double(samples.count) {
      let old = UInt32(truncatingIfNeeded: dominant.key >> 32)
      let new = UInt32(truncatingIfNeeded: dominant.key)
      var leaks = 0
      var thin = true
      for index in samples where before[index] == old && after[index] == new {
        let x = index % width
        let y = index / width
        let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].filter {
          $0.0 >= 0 && $0.0 < width && $0.1 >= 0 && $0.1 < height
        }
        for (nx, ny) in neighbours where !isStrong[ny * width + nx] && before[x: nx, y: ny] == old {
          leaks += 1
          break
        }
        // A pixel with changed pixels on both sides across and along is inside an area, not on a line.
        let changed = { (nx: Int, ny: Int) in
          nx >= 0 && nx < width && ny >= 0 && ny < height && isStrong[ny * width + nx]
        }
        if changed(x - 1, y) && changed(x + 1, y) && changed(x, y - 1) && changed(x, y + 1) { thin = false }
      }
      if Double(leaks) <= Self.leakShare * Double(dominant.value) {
        let deltaE = CIEDE2000.difference(Self.lab(old), Self.lab(new))
        return DifferenceClass(
          kind: thin ? .hairline : .color, deltaE: deltaE, from: Self.hex(old), to: Self.hex(new))
      }
    }
    return DifferenceClass(kind: .element)
  }

  /// A pixel as `#RRGGBB`, or `#RRGGBBAA` when it is not opaque.
  static func hex(_ pixel: UInt32) -> String {
    let bytes = [pixel & 0xff, (pixel >> 8) & 0xff, (pixel >> 16) & 0xff, pixel >> 24]
    let shown = bytes[3] == 0xff ? bytes.prefix(3) : bytes[...]
    let digits = Array("0123456789ABCDEF")
    return "#" + String(shown.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
  }

  /// A pixel's CIELAB colour, read as sRGB over white.
  private static func lab(_ pixel: UInt32) -> LabColor {
    let (r, g, b) = channels(pixel)
    return SRGBToLab.lab(red: UInt8(r.rounded()), green: UInt8(g.rounded()), blue: UInt8(b.rounded()))
  }
}

extension DifferenceClass {
  /// As `compare --json` writes it: `{"kind": "shifted", "group": "rendering", "sentence": …, "shift": 2, "row": 88}`.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("kind", .string(kind.rawValue)), ("group", .string(group)), ("sentence", .string(sentence)),
    ]
    if let shift { members.append(("shift", .int(shift))) }
    if let row { members.append(("row", .int(row))) }
    if let move { members.append(("move", move.json)) }
    if let deltaE { members.append(("deltaE", .double((deltaE * 100).rounded() / 100))) }
    if let from { members.append(("from", .string(from))) }
    if let to { members.append(("to", .string(to))) }
    return .object(members)
  }
}
