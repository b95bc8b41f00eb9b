// What renderers do to text that the tree and the ink show and that is no change: a frame
// narrowed or widened by hinting, and a shift every text element of a frame shares (baselines
// snapped to whole pixels).
extension TextComparison {
  /// The frames of a pair of elements, in pixels: where the baseline's and the current ink
  /// are measured from.
  typealias Origins = (x: (Double, Double), y: (Double, Double))

  /// How far one text box's ink moved inside its frame, in pixels, across and down (the
  /// profiles' displacement less the frame's), and the whole-pixel move `WholePixelMove` found.
  struct InkShift {
    var dx: Double
    var dy: Double
    var moved: (x: Int, y: Int)?
  }

  func shift(of ink: InkComparison, origins: Origins, moved: (x: Int, y: Int)?) -> InkShift {
    InkShift(dx: ink.shift.x - (origins.x.1 - origins.x.0), dy: ink.shift.y - (origins.y.1 - origins.y.0), moved: moved)
  }

  /// The shift a text box's ink is reported for, or `nil`: the profiles' when past `maxShift`,
  /// else a whole-pixel move's (±1 on its axes).
  func reported(_ shift: InkShift) -> (x: Double, y: Double)? {
    if abs(shift.dx) > maxShift || abs(shift.dy) > maxShift { return (shift.dx, shift.dy) }
    if let moved = shift.moved { return (Double(moved.x), Double(moved.y)) }
    return nil
  }

  /// The fewest text boxes whose shared shift is read as the renderer's: with fewer, a shift is
  /// each label's own.
  static let fewestSnappedBoxes = 3
  /// How far apart, in pixels on either axis, the shifts of boxes that share one may lie. The
  /// profiles' displacement of a box under noise is within 0.35 px across and 0.59 px down of
  /// its true shift (docs/comparison.md), so the shifts of one snap lie within about 0.5 px of
  /// their mean.
  static let snapSpread = 0.5
  /// The largest shared shift, in pixels on either axis: a baseline snapped to the nearest
  /// whole pixel moves by at most one (measured 0.9–1.1 px); half a pixel more for the measure.
  static let largestSnap = 1.5

  /// The shift every text element of a frame shares (a renderer that rounds baselines to whole
  /// pixels), from the shifts of the text boxes whose pixels differ, or `nil`: at least
  /// `fewestSnappedBoxes` boxes and two thirds of them report a shift, and all of those lie
  /// within `snapSpread` of their mean, which is at most `largestSnap`. One label moved inside
  /// its frame (a title in its button) is one box, and the page's other text does not move
  /// with it: it stays a change.
  func sharedShift(_ shifts: [InkShift]) -> (x: Double, y: Double)? {
    let moved = shifts.compactMap(reported)
    guard moved.count >= Self.fewestSnappedBoxes, 3 * moved.count >= 2 * shifts.count else { return nil }
    let mean = (
      x: moved.map(\.x).reduce(0, +) / Double(moved.count), y: moved.map(\.y).reduce(0, +) / Double(moved.count)
    )
    guard abs(mean.x) <= Self.largestSnap, abs(mean.y) <= Self.largestSnap,
      moved.allSatisfy({ abs($0.x - mean.x) <= Self.snapSpread && abs($0.y - mean.y) <= Self.snapSpread })
    else { return nil }
    return mean
  }

  /// Whether a box's shift is the frame's shared one (`sharedShift`).
  func sharesShift(_ snap: (x: Double, y: Double), _ shift: InkShift) -> Bool {
    guard let own = reported(shift) else { return false }
    return abs(own.x - snap.x) <= Self.snapSpread && abs(own.y - snap.y) <= Self.snapSpread
  }

  /// The largest change of a text frame's width, in points, that hinting explains: full
  /// hinting rounds each glyph's advance on its own (measured: labels 1–3 pt narrower).
  public static let largestHintedWidthChange = 3.0
  /// The largest change of a text frame's width per character, in points: an advance rounded
  /// to a whole point moves by at most half of one.
  static let hintedWidthChangePerCharacter = 0.5

  /// By how many points a text element's frame changed width as hinting changes it, or `nil`
  /// when it did not (or changed otherwise): the same text, the same height and line (to
  /// `frameTolerance`), one edge or the centre where it was (text aligned left, right or
  /// centred), and the width changed by more than `frameTolerance` and at most
  /// `largestHintedWidthChange` and `hintedWidthChangePerCharacter` per character. A label
  /// set in another weight or size changes more (a 13-character name bold → regular: 10 pt).
  static func hintedWidth(_ before: Element, _ beforeScale: Int, _ after: Element, _ afterScale: Int) -> Double? {
    guard isTextBox(before), isTextBox(after), let text = shownText(of: before)?.text,
      shownText(of: after)?.text == text
    else { return nil }
    let one = before.frame
    let two = after.frame
    let (s1, s2) = (Double(beforeScale), Double(afterScale))
    func same(_ a: Double, _ b: Double) -> Bool { abs(a * s1 - b * s2) <= frameTolerance }
    let change = two.width - one.width
    guard abs(one.width * s1 - two.width * s2) > frameTolerance, same(one.y, two.y), same(one.height, two.height),
      abs(change) <= min(largestHintedWidthChange, hintedWidthChangePerCharacter * Double(text.count)),
      same(one.x, two.x) || same(one.x + one.width, two.x + two.width)
        || same(one.x + one.width / 2, two.x + two.width / 2)
    else { return nil }
    return change
  }
}
