/// Ignore regions as sorted, merged spans of columns for each row, so the kernel walks a row in
/// segments instead of testing every pixel against every rectangle.
struct IgnoreMask {
  /// For each row, `[start, end)` column spans, sorted and not overlapping.
  private var rows: [[Range<Int>]]
  let isEmpty: Bool

  init(regions: [PixelRect], width: Int, height: Int) {
    let clamped = regions.map { $0.clamped(toWidth: width, height: height) }.filter { !$0.isEmpty }
    isEmpty = clamped.isEmpty
    rows = []
    guard !isEmpty else { return }
    rows = [[Range<Int>]](repeating: [], count: height)
    for y in 0..<height {
      let spans = clamped.filter { $0.y <= y && y < $0.maxY }.map { $0.x..<$0.maxX }
        .sorted { $0.lowerBound < $1.lowerBound }
      var merged: [Range<Int>] = []
      for span in spans {
        if let last = merged.last, span.lowerBound <= last.upperBound {
          merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
        } else {
          merged.append(span)
        }
      }
      rows[y] = merged
    }
  }

  /// Calls `body(start, end, ignored)` for consecutive segments covering columns `0..<width` of
  /// row `y`.
  @inline(__always)
  func forEachSegment(row y: Int, width: Int, _ body: (Int, Int, Bool) -> Void) {
    if isEmpty {
      body(0, width, false)
      return
    }
    var x = 0
    for span in rows[y] {
      if span.lowerBound > x { body(x, span.lowerBound, false) }
      body(span.lowerBound, span.upperBound, true)
      x = span.upperBound
    }
    if x < width { body(x, width, false) }
  }
}
