/// The pixels a comparison draws in a colour of their own (a difference, anti-aliasing, a
/// difference hidden by an ignore region), recorded while it counts, so that the diff image of a
/// failed comparison is drawn from the baseline's faded gray and these marks instead of by a
/// second comparison (`DiffOutcome`).
///
/// Bounded: past `limit` marks it stops recording and says so (`isComplete` false), and the
/// diff image is then drawn by a second, drawing pass. The bound keeps a screen that changed
/// everywhere (a theme switch) from holding 8 bytes a pixel beside its two images.
struct DiffMarks {
  /// Each mark: the pixel's index (row-major) in the high 32 bits, the drawn RGBA word (little
  /// endian, as stored) in the low 32.
  private(set) var marks: [UInt64] = []
  /// 0: not recording (counting only).
  let limit: Int
  private(set) var overflowed = false

  /// Not recording: what a count-only comparison carries.
  static let none = DiffMarks(limit: 0)

  private init(limit: Int) {
    self.limit = limit
  }

  /// Recording up to an eighth of the image's pixels (1 byte a pixel at most); none for an image
  /// whose indexes do not fit in 32 bits.
  init(pixelCount: Int) {
    limit = pixelCount <= Int(UInt32.max) ? max(pixelCount / 8, 1) : 0
    overflowed = limit == 0
  }

  /// Whether every marked pixel was recorded.
  var isComplete: Bool { limit > 0 && !overflowed }

  @inline(__always)
  mutating func record(_ word: UInt32, at index: Int) {
    if marks.count < limit {
      marks.append(UInt64(truncatingIfNeeded: index) << 32 | UInt64(word))
    } else if limit > 0 {
      overflowed = true
    }
  }

  /// Calls `body(index, word)` for each mark, in the order drawn.
  @inline(__always)
  func forEachMark(_ body: (Int, UInt32) -> Void) {
    for mark in marks { body(Int(truncatingIfNeeded: mark >> 32), UInt32(truncatingIfNeeded: mark)) }
  }
}
