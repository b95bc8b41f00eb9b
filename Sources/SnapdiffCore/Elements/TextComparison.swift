#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text compared as text, for the `text-aware` match level: inside the box of a text element
/// the label decides, and the pixels only have to show the same ink.
///
/// Text rasterised another way (hinting, LCD subpixel text, subpixel positioning, a hair of
/// stroke) changes as many pixels as a changed word does, so no pixel count tells them apart
/// (docs/comparison.md). The element tree does: it says what each text element reads. So, for
/// each pair of text elements (paired as `LayoutComparison` pairs them):
///
/// 1. a changed label (or field value) is a change, worded: `label 'Senior iOS Engineer' →
///    'Senior iOS Engineers'`;
/// 2. with the same label, the box's pixels must show the same ink, within what rasterisation
///    changes: every pixel that differs (ΔE00 above `deltaE`) must lie within `reach` pixels of
///    ink in both images (glyphs drawn a little differently), the amount of ink must stay within
///    `maxCoverageChange`, its centre must not move inside the frame, and its glyphs' colour (the
///    most frequent solid ink colour) must stay within `deltaE`. A label that vanishes, is
///    clipped, moves inside its frame, changes colour or sits on a new background fails.
///
/// Moves of the frames themselves are the layout's part (`FrameComparison` checks them to the
/// pixel at this level); pixels outside the boxes are the pixel comparison's.
///
/// ```swift
/// let outcome = TextComparison().compare(baselineImage, baselineTree, currentImage, currentTree)
/// for change in outcome.changes { print(change.sentence) }  // staticText "Total": label '$12' → '$13'
/// ```
public struct TextComparison: Sendable {
  /// The largest ΔE00 under which two pixels are equal: the `perceptual` level's `deltaE`.
  public var deltaE: Double
  /// How much the amount of ink may change, as a fraction of the larger of the two. Default
  /// 0.4: LCD subpixel text and a 0.2-px stroke add up to 25% (measured on the verdicts corpus);
  /// a vanished label loses 100%.
  public var maxCoverageChange: Double
  /// How far, in pixels, the centre of the ink may move inside its frame, plus 1% of the ink's
  /// width: hinting rounds every glyph's advance, which adds up along a line (up to 1.4 px on the
  /// corpus' 230-px field), while a label moved by a pixel moves its centre by a pixel. Default
  /// 0.75.
  public var maxShift: Double

  public init(deltaE: Double = DiffOptions.defaultDeltaE, maxCoverageChange: Double = 0.4, maxShift: Double = 0.75) {
    self.deltaE = deltaE
    self.maxCoverageChange = maxCoverageChange
    self.maxShift = maxShift
  }

  /// A pixel counts as ink when one of its channels is this far (of 255) from the box's
  /// background: faint enough to include a glyph's outermost anti-aliasing and a rounded
  /// corner's fringe (at 0.2 of 255, the corpus' radius noise left 6 fringe pixels unexplained),
  /// above the ±2 levels a colour conversion leaves on flat colour.
  static let inkLevel = 0.05

  /// One text element that changed.
  public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
      /// Its label (a field: its value) changed.
      case text
      /// Its ink grew or shrank beyond `maxCoverageChange` (a label that vanished).
      case coverage
      /// Its ink moved inside its frame.
      case shifted
      /// Its glyphs' colour changed.
      case color
      /// Pixels differ away from the glyphs of one of the images.
      case ink
    }

    public var kind: Kind
    public var elementType: ElementType
    public var identifier: String
    /// The baseline's text.
    public var text: String
    /// The box compared, in pixels (both frames together, inside both images).
    public var box: PixelRect
    /// What changed, in words: `label 'Track' → 'Trace'`.
    public var detail: String

    /// The element as a tester names it: `button 'saveButton'`, or its text.
    public var name: String {
      if !identifier.isEmpty { return "\(elementType.rawValue) '\(identifier)'" }
      return "\(elementType.rawValue) \"\(text)\""
    }

    /// `staticText "Senior iOS Engineer": label 'Senior iOS Engineer' → 'Senior iOS Engineers'`.
    public var sentence: String { "\(name): \(detail)" }

    /// `{identifier, elementType, text, change, box, description}` for `--json`.
    public var json: JSONValue {
      .object([
        ("identifier", .string(identifier)), ("elementType", .string(elementType.rawValue)),
        ("text", .string(text)), ("change", .string(kind.rawValue)),
        ("box", .object([("x", .int(box.x)), ("y", .int(box.y)), ("width", .int(box.width)), ("height", .int(box.height))])),
        ("description", .string(sentence)),
      ])
    }
  }

  /// What the text comparison found.
  public struct Outcome: Sendable {
    /// The boxes compared as text; the pixel comparison leaves them out.
    public var boxes: [PixelRect]
    /// The text elements that changed, one change each, in the current tree's order.
    public var changes: [Change]
    /// The pixels that differ away from the glyphs, for the diff image.
    public var strayPixels: [(x: Int, y: Int)]
  }

  /// The text `element` shows in its frame and what a verdict calls it: the label of static
  /// texts and of the controls that draw their title inside their frame (buttons, links, tabs,
  /// menu items, pop-up and menu buttons); the value of fields (their placeholder when empty),
  /// whose label names the field rather than showing in it. `nil` for every other type: an
  /// image's, a switch's or a cell's label is read out by VoiceOver, not drawn as text in its
  /// frame. An icon-only button is the exception we cannot see from the tree: its label is not
  /// drawn, and its icon is compared as ink.
  static func shownText(of element: Element) -> (attribute: String, text: String)? {
    switch element.elementType {
    case .staticText, .button, .link, .tab, .menuItem, .menuBarItem, .toolbarButton, .popUpButton, .menuButton:
      return element.label.isEmpty ? nil : ("label", element.label)
    case .textField, .secureTextField, .searchField, .textView, .comboBox:
      if let value = element.value, !value.isEmpty { return ("value", value) }
      if let placeholder = element.placeholderValue, !placeholder.isEmpty { return ("placeholder", placeholder) }
      return nil
    default:
      return nil
    }
  }

  /// Whether `element` is a text box: it shows text and none of its descendants does (a button
  /// holding a static text is compared through the static text, its background as pixels).
  static func isTextBox(_ element: Element) -> Bool {
    shownText(of: element) != nil && !element.children.contains { $0.allElements().contains { shownText(of: $0) != nil } }
  }

  /// Compares the text elements of two frames.
  ///
  /// - Parameter excluded: elements not compared (masked by the caller).
  /// - Complexity: O(pixels of the text boxes × `reach`).
  public func compare(
    _ baseline: RGBAImage, _ baselineTree: ElementTree, _ current: RGBAImage, _ currentTree: ElementTree,
    excluding excluded: (Element) -> Bool = { _ in false }
  ) -> Outcome {
    // The ink is compared in sRGB, as the perceptual level compares colours.
    let (baseline, current, _) = ColorMatching(matchLevel: .perceptual).matched(baseline, current)
    let width = min(baseline.width, current.width)
    let height = min(baseline.height, current.height)
    var outcome = Outcome(boxes: [], changes: [], strayPixels: [])
    let pairs = LayoutComparison().pairedElements(from: baselineTree, to: currentTree)
    for (before, after) in pairs where Self.isTextBox(before) || Self.isTextBox(after) {
      // Masked by the caller: neither its text nor its pixels count.
      if excluded(before) || excluded(after) { continue }
      let full = before.frame.pixels(scale: baselineTree.scale).union(after.frame.pixels(scale: currentTree.scale))
      let box = full.clamped(toWidth: width, height: height)
      // Off screen (a scrolled-away row): nothing of it is seen, so nothing of it can differ.
      if box.isEmpty { continue }
      outcome.boxes.append(box)
      let old = Self.shownText(of: before)
      let new = Self.shownText(of: after)
      var change = Change(
        kind: .text, elementType: after.elementType, identifier: after.identifier.isEmpty ? before.identifier : after.identifier,
        text: old?.text ?? "", box: box, detail: "")
      if old?.text != new?.text {
        // The label decides: whatever the pixels, a different text is a change.
        change.detail = "\(new?.attribute ?? old?.attribute ?? "label") '\(old?.text ?? "")' → '\(new?.text ?? "")'"
        outcome.changes.append(change)
        continue
      }
      // A frame that moved or changed size is the layout's to report (to `frameTolerance` at
      // this level); its ink moved with it, and saying so again would only confuse.
      if Self.frameChanged(before.frame, baselineTree.scale, after.frame, currentTree.scale) { continue }
      // The same bytes in the same frame: the same ink (most text of most frames).
      if Self.samePixels(baseline, current, in: box) { continue }
      let ink = InkComparison(
        baseline: baseline, current: current, box: box,
        clippedAt: full == box ? nil : PixelSize(width: width, height: height), reach: currentTree.scale,
        deltaE: deltaE)
      let origins = (
        x: (before.frame.x * Double(baselineTree.scale), after.frame.x * Double(currentTree.scale)),
        y: (before.frame.y * Double(baselineTree.scale), after.frame.y * Double(currentTree.scale)))
      if let (kind, detail) = verdict(ink, origins: origins) {
        change.kind = kind
        change.detail = detail
        outcome.changes.append(change)
      }
      outcome.strayPixels += ink.strayPixels
    }
    return outcome
  }

  /// The one change of a text box whose label is unchanged, the most telling first, or `nil`.
  private func verdict(
    _ ink: InkComparison, origins: (x: (Double, Double), y: (Double, Double))
  ) -> (Change.Kind, String)? {
    let (before, after) = (ink.baseline, ink.current)
    let larger = max(before.coverage, after.coverage)
    // No ink on either side (a transparent label both times): nothing to compare.
    if larger == 0 { return nil }
    if abs(after.coverage - before.coverage) > maxCoverageChange * larger {
      // A label that appears had no ink to compare with: its ratio is ∞ (computed, it would
      // trap converting to Int).
      let percent = before.coverage == 0 ? "∞" : "\(Int((after.coverage / before.coverage * 100).rounded()))"
      let words = after.coverage < before.coverage ? "fell" : "rose"
      let vanished = after.coverage == 0 ? " (the text vanished)" : ""
      return (.coverage, "its ink \(words) to \(percent)% of the baseline's\(vanished)")
    }
    // Both sides have ink here (coverage held): how far the ink moved, against its frame.
    let dx = ink.shift.x - (origins.x.1 - origins.x.0)
    let dy = ink.shift.y - (origins.y.1 - origins.y.0)
    let horizontal = maxShift + 0.01 * Double(before.inkWidth)
    if abs(dx) > horizontal || abs(dy) > maxShift {
      var parts: [String] = []
      if abs(dx) > horizontal { parts.append("\(Self.pixels(abs(dx))) \(dx > 0 ? "right" : "left")") }
      if abs(dy) > maxShift { parts.append("\(Self.pixels(abs(dy))) \(dy > 0 ? "down" : "up")") }
      return (.shifted, "its ink moved \(parts.joined(separator: " and ")) inside its frame")
    }
    if let one = before.color, let two = after.color {
      var perceptual = PerceptualDelta()
      let difference = abs(perceptual.delta(one, two))
      if difference > deltaE {
        let shown = "\(Self.hex(one)) → \(Self.hex(two)) (ΔE00 \(ElementFrame.format((difference * 10).rounded() / 10)))"
        return (.color, "its text colour changed \(shown)")
      }
    }
    if ink.strayCount > 0 {
      return (.ink, "\(ink.strayCount) pixel\(ink.strayCount == 1 ? "" : "s") differ away from its glyphs")
    }
    return nil
  }

  /// How far, in pixels, a frame may move or change size at the text-aware level: half a pixel,
  /// so a move of one pixel is a change (`--match layout`'s 1-point default lets 1 to 3 pixels
  /// pass). Frames come from the layout, not the rasteriser: on the verdicts corpus they are
  /// equal to the bit under every kind of noise.
  public static let frameTolerance = 0.5

  /// Whether a frame moved or changed size by more than `frameTolerance`.
  static func frameChanged(_ before: ElementFrame, _ beforeScale: Int, _ after: ElementFrame, _ afterScale: Int) -> Bool {
    let one = [before.x, before.y, before.width, before.height].map { $0 * Double(beforeScale) }
    let two = [after.x, after.y, after.width, after.height].map { $0 * Double(afterScale) }
    return zip(one, two).contains { abs($0 - $1) > frameTolerance }
  }

  /// Whether the two images hold the same bytes in `box` (inside both).
  static func samePixels(_ a: RGBAImage, _ b: RGBAImage, in box: PixelRect) -> Bool {
    a.pixels.withUnsafeBytes { one in
      b.pixels.withUnsafeBytes { two in
        (box.y..<box.maxY).allSatisfy { y in
          memcmp(one.baseAddress! + (y * a.width + box.x) * 4, two.baseAddress! + (y * b.width + box.x) * 4, box.width * 4) == 0
        }
      }
    }
  }

  /// `#RRGGBB` (with alpha when not opaque) of a little-endian RGBA word.
  static func hex(_ word: UInt32) -> String {
    HexColor(RGBAColor(red: UInt8(word & 0xff), green: UInt8((word >> 8) & 0xff), blue: UInt8((word >> 16) & 0xff), alpha: UInt8(word >> 24))).description
  }

  static func pixels(_ value: Double) -> String { "\(ElementFrame.format((value * 10).rounded() / 10)) px" }
}

/// The ink of one text box in two images: how much, where its centre is, and which differing
/// pixels rasterisation does not explain.
struct InkComparison {
  /// One image's ink in the box.
  struct Ink {
    /// The sum of every pixel's ink weight (0...1).
    var coverage = 0.0
    /// The ink of each column and of each row of the box (sums of weights).
    var columns: [Double] = []
    var rows: [Double] = []
    /// The width of the columns holding ink, in pixels.
    var inkWidth = 0
    /// The glyphs' colour: the most frequent colour of solid ink, `nil` when too little is solid.
    var color: UInt32?
  }

  var baseline = Ink()
  var current = Ink()
  /// How far the current image's ink lies from the baseline's, in pixels: the displacement
  /// that best aligns their column (x) and row (y) profiles.
  var shift = (x: 0.0, y: 0.0)
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
    let (weightsA, colorA, backgroundA) = Self.weights(wordsA)
    let (weightsB, colorB, backgroundB) = Self.weights(wordsB)
    baseline = Self.ink(weightsA, box)
    current = Self.ink(weightsB, box)
    baseline.color = colorA
    current.color = colorB
    shift = (
      Self.displacement(baseline.columns, current.columns, within: 3 * reach),
      Self.displacement(baseline.rows, current.rows, within: 3 * reach))
    // Ink within reach outside the box counts too: boxes of neighbouring runs of text meet
    // inside a pixel, and a glyph's edge can spill over into its neighbour's box.
    let overlap = PixelSize(width: min(a.width, b.width), height: min(a.height, b.height))
    let outer = PixelRect(x: box.x - reach, y: box.y - reach, width: box.width + 2 * reach, height: box.height + 2 * reach)
      .clamped(toWidth: overlap.width, height: overlap.height)
    let nearA = Self.near(Self.weights(Self.words(a, outer), background: backgroundA), box: outer, reach: reach, inside: box, clippedAt: bounds)
    let nearB = Self.near(Self.weights(Self.words(b, outer), background: backgroundB), box: outer, reach: reach, inside: box, clippedAt: bounds)
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
  /// frequent colour), 0...1, 0 under `TextComparison.inkLevel`; the glyphs' colour: the most
  /// frequent colour of solid ink (weight at least half the box's strongest: grey text on a
  /// light background never reaches 0.5); and the background. Rasterisers differ on a glyph's
  /// edges, not its inside: on the verdicts corpus that colour is the same to the byte under
  /// every kind of text noise (LCD text moves the mean ink colour by up to ΔE 14).
  private static func weights(_ words: [UInt32]) -> (weights: [Double], color: UInt32?, background: UInt32?) {
    var counts: [UInt32: Int] = [:]
    for word in words { counts[word, default: 0] += 1 }
    // Ties go to the smaller word, so neither colour depends on the dictionary's order.
    func commonest(_ pairs: [(key: UInt32, value: Int)]) -> (key: UInt32, value: Int)? {
      pairs.max { ($0.value, $1.key) < ($1.value, $0.key) }
    }
    // An empty box has no background and no ink.
    guard let background = commonest(Array(counts))?.key else { return ([], nil, nil) }
    let strongest = counts.keys.map { weight($0, background: background) }.max() ?? 0
    let solid = commonest(counts.filter { weight($0.key, background: background) >= 0.5 * strongest }.map { ($0.key, $0.value) })
    // A colour seen on a handful of pixels is an edge's shade, not the glyphs' colour.
    let color = solid.flatMap { $0.value >= Self.solidPixels && strongest > 0 ? $0.key : nil }
    return (words.map { weight($0, background: background) }, color, background)
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

  private static func ink(_ weights: [Double], _ box: PixelRect) -> Ink {
    var ink = Ink()
    ink.columns = [Double](repeating: 0, count: max(box.width, 0))
    ink.rows = [Double](repeating: 0, count: max(box.height, 0))
    var left = Int.max
    var right = Int.min
    for (index, weight) in weights.enumerated() where weight > 0 {
      let x = index % box.width
      ink.coverage += weight
      ink.columns[x] += weight
      ink.rows[index / box.width] += weight
      left = min(left, x)
      right = max(right, x)
    }
    // Without ink there is no width to compare (coverage tells that story).
    if ink.coverage > 0 { ink.inkWidth = right - left + 1 }
    return ink
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
    guard let best = scores.max(by: { ($0.score, -abs($0.d)) < ($1.score, -abs($1.d)) }), best.score > 0 else { return 0 }
    // At the window's edge the ink may lie farther still: report the edge.
    guard abs(best.d) < limit else { return Double(best.d) }
    let left = overlap(best.d - 1)
    let right = overlap(best.d + 1)
    let curvature = left - 2 * best.score + right
    return Double(best.d) + (curvature < 0 ? 0.5 * (left - right) / curvature : 0)
  }

  /// Whether each pixel of `inner` lies within `reach` pixels (horizontally and vertically) of
  /// ink, from the weights of `box` (which holds `inner`).
  private static func near(
    _ weights: [Double], box: PixelRect, reach: Int, inside inner: PixelRect, clippedAt bounds: PixelSize?
  ) -> [Bool] {
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
          (inner.x == 0 && x < reach) || (inner.maxX == bounds.width && x >= inner.width - reach)
          || (inner.y == 0 && y < reach) || (inner.maxY == bounds.height && y >= inner.height - reach)
        if edge { near[y * inner.width + x] = true }
      }
    }
    return near
  }
}
