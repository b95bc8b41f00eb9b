// The `rendering-tolerant` level's rule for elements moved whole, measured on real iOS
// screenshots (docs/comparison.md, scripts/bench/tolerant_corpus.py `moves`).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Elements moved by whole pixels as exact copies, and which of those moves a renderer makes.
///
/// A pixel whose colour the other image has within 2 px is rendering noise (`RenderingNoise`),
/// so an element nudged by 1 or 2 px in code would pass as noise. What tells the two apart:
/// a renderer moves text lines vertically (a new OS re-lays a navigation title's baseline by a
/// whole pixel: the line moves as an exact copy); sideways, glyphs sit at fractional positions
/// and a re-layout re-rasterises them, so a sideways move that stays an exact copy is a layout
/// constant changed, and an icon, a chevron or a single glyph moved whole is an element moved.
/// So a patch of explained pixels that is an exact copy of the baseline moved by (dx, dy) is a
/// change when it moved sideways (dx ≠ 0), or when the element it belongs to (moved patches
/// with the same shift close together) is less than `lineAspect` times as wide as tall.
/// A vertical move of anything wider (a line of text, a hairline, the whole screen) is noise.
/// A renderer that snaps glyphs to whole pixels (Chromium with subpixel positioning off) moves
/// them sideways as exact copies too, and fails here: with element trees, `text-aware` is the
/// level for such text.
enum MovedElements {
  /// The share of a patch's pixels that must equal the baseline's, byte for byte, at the
  /// shifted place. On the development corpus moved elements score 0.92–1 and every other
  /// patch of 16+ pixels at most 0.27.
  static let exactShare = 0.9
  /// How much wider than tall a moved element must be to be a line of text re-laid: the text
  /// lines moved by rendering noise on the development corpus are 3.1–9.7 times as wide as
  /// tall, the icons and glyphs nudged in code 0.6–1.7.
  static let lineAspect = 2

  /// The shifts tried, nearest first and vertical before sideways, so that a hairline (which
  /// matches itself along its length) is read as moved across it.
  private static let shifts: [(dx: Int, dy: Int)] = {
    let reach = RenderingNoise.radius
    var all: [(dx: Int, dy: Int)] = []
    for dy in -reach...reach {
      for dx in -reach...reach where dx != 0 || dy != 0 { all.append((dx, dy)) }
    }
    return all.sorted {
      ($0.dx.magnitude + $0.dy.magnitude, $0.dx.magnitude) < ($1.dx.magnitude + $1.dy.magnitude, $1.dx.magnitude)
    }
  }()

  /// A patch that is an exact copy moved.
  struct Move {
    var dx: Int
    var dy: Int
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int
  }

  /// The shift by which `patch` (pixel indexes of `b`) is an exact copy of `a`, `nil` if none
  /// reaches `exactShare`.
  static func move(of patch: [Int], _ a: PixelWords, _ b: PixelWords) -> Move? {
    let width = a.width
    let height = a.height
    let allowed = Int(Double(patch.count) * (1 - exactShare))
    var best: (misses: Int, dx: Int, dy: Int)?
    for (dx, dy) in shifts {
      let limit = min(best.map { $0.misses - 1 } ?? allowed, allowed)
      guard limit >= 0 else { break }
      var misses = 0
      for index in patch {
        let x = index % width - dx
        let y = index / width - dy
        if x < 0 || y < 0 || x >= width || y >= height || a[x: x, y: y] != b[index] {
          misses += 1
          if misses > limit { break }
        }
      }
      if misses <= limit { best = (misses, dx, dy) }
    }
    guard let best else { return nil }
    var move = Move(dx: best.dx, dy: best.dy, minX: .max, minY: .max, maxX: .min, maxY: .min)
    for index in patch {
      let x = index % width
      let y = index / width
      move.minX = min(move.minX, x)
      move.maxX = max(move.maxX, x)
      move.minY = min(move.minY, y)
      move.maxY = max(move.maxY, y)
    }
    return move
  }

  /// The shift by which everything that differs between `a` and `b` is `a` moved: wherever the
  /// two differ (any byte, outside `mask`), `b` there equals `a` that far back, and `a` there
  /// equals `b` that far on (clamped at the image's edges), byte for byte; `nil` when no shift
  /// of up to `RenderingNoise.radius` px does. Both ways, because content removed leaves the
  /// colour beside it (a divider shortened is its background, which the row above has too) and
  /// only a move carries the old colour along.
  ///
  /// A re-render leaves traces everywhere it touches (glyphs re-rasterised, shades re-blended by
  /// a level or two), so a pair whose only difference is one exact copy moved, and nothing else
  /// re-rendered, is an element nudged in code (`rios-d078`: three header lines 2 px up). An OS
  /// update that moved one line and re-rendered nothing else (six edX navigation titles 2 px
  /// down) fails with it, named as what it is. Each shift tried stops at its first mismatch;
  /// the shift that holds costs one pass over the rows that differ.
  static func loneMove(_ a: PixelWords, _ b: PixelWords, mask: IgnoreMask) -> (dx: Int, dy: Int)? {
    let width = a.width
    let height = a.height
    let rowBytes = width &* 4
    /// Calls `body(index)` for every differing pixel outside `mask`, rows in order, until it
    /// returns false; returns whether it never did.
    func everyDifference(_ body: (Int) -> Bool) -> Bool {
      for y in 0..<height {
        let rowStart = y &* width
        if memcmp(a.base + rowStart &* 4, b.base + rowStart &* 4, rowBytes) == 0 { continue }
        var holds = true
        mask.forEachSegment(row: y, width: width) { start, end, ignored in
          guard holds, !ignored else { return }
          for index in (rowStart &+ start)..<(rowStart &+ end) where a[index] != b[index] {
            if !body(index) {
              holds = false
              return
            }
          }
        }
        if !holds { return false }
      }
      return true
    }
    func copies(_ index: Int, _ shift: (dx: Int, dy: Int)) -> Bool {
      let x = index % width
      let y = index / width
      let back = (x: min(max(x - shift.dx, 0), width - 1), y: min(max(y - shift.dy, 0), height - 1))
      let on = (x: min(max(x + shift.dx, 0), width - 1), y: min(max(y + shift.dy, 0), height - 1))
      return a[x: back.x, y: back.y] == b[index] && b[x: on.x, y: on.y] == a[index]
    }
    var first: Int?
    _ = everyDifference { index in
      first = index
      return false
    }
    guard let first else { return nil }
    for shift in shifts where copies(first, shift) {
      if everyDifference({ copies($0, shift) }) { return shift }
    }
    return nil
  }

  /// Which of `moves` are changes: every move sideways, and every vertical move whose element
  /// is compact. Vertical moves with the same shift are one element when the gap between them
  /// (across or along) is at most twice the taller one's height: a line of text moved shows
  /// pieces of its glyphs' tops and bottoms, a word's space apart (on the corpus up to 1.1 times
  /// the taller piece: the flag of a "1" after "Section").
  static func changes(_ moves: [Move]) -> [Bool] {
    var sets = DisjointSets(count: moves.count)
    for first in moves.indices where moves[first].dx == 0 {
      for second in moves.indices where second > first && moves[second].dx == 0 {
        let (one, two) = (moves[first], moves[second])
        guard one.dy == two.dy else { continue }
        let across = max(one.minX, two.minX) - min(one.maxX, two.maxX) - 1
        let along = max(one.minY, two.minY) - min(one.maxY, two.maxY) - 1
        if max(across, along) <= 2 * max(one.maxY - one.minY, two.maxY - two.minY) + 2 {
          sets.join(first, second)
        }
      }
    }
    var elements: [Int: (minX: Int, minY: Int, maxX: Int, maxY: Int)] = [:]
    for (index, move) in moves.enumerated() where move.dx == 0 {
      let root = sets.root(index)
      let element = elements[root] ?? (move.minX, move.minY, move.maxX, move.maxY)
      elements[root] = (
        min(element.minX, move.minX), min(element.minY, move.minY), max(element.maxX, move.maxX),
        max(element.maxY, move.maxY)
      )
    }
    return moves.indices.map { index in
      guard moves[index].dx == 0, let element = elements[sets.root(index)] else { return true }
      return element.maxX - element.minX + 1 < lineAspect * (element.maxY - element.minY + 1)
    }
  }
}
