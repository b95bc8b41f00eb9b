// The `rendering-tolerant` level's rule for elements moved whole, measured on real iOS
// screenshots (docs/comparison.md, scripts/bench/tolerant_corpus.py `moves`).

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
