/// Groups differing pixels into a handful of bounding boxes a person can read.
///
/// The image is cut into 16×16 cells; each cell remembers the bounding box of its differing
/// pixels. Occupied cells that touch (8-connected) form one area. When there are more areas than
/// `maximumCount`, the grid is coarsened, then the two areas whose union grows least are merged
/// until the count fits.
struct DiffRegions {
  static let maximumCount = 10
  private static let cellShift = 4

  private let columns: Int
  private let rows: Int
  private var minX: [Int32]
  private var minY: [Int32]
  private var maxX: [Int32]
  private var maxY: [Int32]

  init(width: Int, height: Int) {
    columns = (width + (1 << Self.cellShift) - 1) >> Self.cellShift
    rows = (height + (1 << Self.cellShift) - 1) >> Self.cellShift
    minX = [Int32](repeating: .max, count: columns * rows)
    minY = minX
    maxX = [Int32](repeating: -1, count: columns * rows)
    maxY = maxX
  }

  /// Records a differing pixel.
  @inline(__always)
  mutating func add(x: Int, y: Int) {
    let cell = (y >> Self.cellShift) &* columns &+ (x >> Self.cellShift)
    let px = Int32(truncatingIfNeeded: x)
    let py = Int32(truncatingIfNeeded: y)
    if px < minX[cell] { minX[cell] = px }
    if px > maxX[cell] { maxX[cell] = px }
    if py < minY[cell] { minY[cell] = py }
    if py > maxY[cell] { maxY[cell] = py }
  }

  /// Records every pixel of `rect` as differing.
  mutating func add(_ rect: PixelRect) {
    guard !rect.isEmpty else { return }
    let size = 1 << Self.cellShift
    for cellY in (rect.y >> Self.cellShift)...((rect.maxY - 1) >> Self.cellShift) {
      for cellX in (rect.x >> Self.cellShift)...((rect.maxX - 1) >> Self.cellShift) {
        let cell = PixelRect(x: cellX * size, y: cellY * size, width: size, height: size)
        let left = max(rect.x, cell.x)
        let top = max(rect.y, cell.y)
        add(x: left, y: top)
        add(x: min(rect.maxX, cell.maxX) - 1, y: min(rect.maxY, cell.maxY) - 1)
      }
    }
  }

  /// The grouped boxes, top to bottom, then left to right.
  func boxes() -> [PixelRect] {
    var grid: [PixelRect?] = (0..<(columns * rows)).map { cell in
      guard maxX[cell] >= 0 else { return nil }
      return PixelRect(
        x: Int(minX[cell]), y: Int(minY[cell]), width: Int(maxX[cell] - minX[cell]) + 1,
        height: Int(maxY[cell] - minY[cell]) + 1)
    }
    var gridColumns = columns
    var gridRows = rows
    var areas = Self.connectedAreas(grid, columns: gridColumns, rows: gridRows)
    // Noise all over the image: coarsen the grid until the areas are few enough to merge.
    while areas.count > 64 && (gridColumns > 1 || gridRows > 1) {
      (grid, gridColumns, gridRows) = Self.coarsened(grid, columns: gridColumns, rows: gridRows)
      areas = Self.connectedAreas(grid, columns: gridColumns, rows: gridRows)
    }
    areas = Self.mergedOverlapping(areas)
    while areas.count > Self.maximumCount {
      areas = Self.mergingCheapestPair(areas)
    }
    return areas.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
  }

  private static func connectedAreas(_ grid: [PixelRect?], columns: Int, rows: Int) -> [PixelRect] {
    var visited = [Bool](repeating: false, count: grid.count)
    var areas: [PixelRect] = []
    var stack: [Int] = []
    for start in grid.indices where grid[start] != nil && !visited[start] {
      visited[start] = true
      stack.append(start)
      var area = grid[start]!
      while let cell = stack.popLast() {
        area = area.union(grid[cell]!)
        let cx = cell % columns
        let cy = cell / columns
        for ny in max(cy - 1, 0)...min(cy + 1, rows - 1) {
          for nx in max(cx - 1, 0)...min(cx + 1, columns - 1) {
            let neighbour = ny * columns + nx
            if grid[neighbour] != nil && !visited[neighbour] {
              visited[neighbour] = true
              stack.append(neighbour)
            }
          }
        }
      }
      areas.append(area)
    }
    return areas
  }

  private static func coarsened(_ grid: [PixelRect?], columns: Int, rows: Int)
    -> ([PixelRect?], Int, Int)
  {
    let newColumns = (columns + 1) / 2
    let newRows = (rows + 1) / 2
    var coarse = [PixelRect?](repeating: nil, count: newColumns * newRows)
    for cell in grid.indices {
      guard let box = grid[cell] else { continue }
      let target = (cell / columns / 2) * newColumns + (cell % columns) / 2
      coarse[target] = coarse[target].map { $0.union(box) } ?? box
    }
    return (coarse, newColumns, newRows)
  }

  private static func mergedOverlapping(_ areas: [PixelRect]) -> [PixelRect] {
    var result = areas
    var merged = true
    while merged {
      merged = false
      outer: for i in result.indices {
        for j in result.indices where j > i && result[i].touches(result[j]) {
          result[i] = result[i].union(result[j])
          result.remove(at: j)
          merged = true
          break outer
        }
      }
    }
    return result
  }

  private static func mergingCheapestPair(_ areas: [PixelRect]) -> [PixelRect] {
    var best = (i: 0, j: 1, growth: Int.max)
    for i in areas.indices {
      for j in areas.indices where j > i {
        let growth = areas[i].union(areas[j]).area - areas[i].area - areas[j].area
        if growth < best.growth { best = (i, j, growth) }
      }
    }
    var result = areas
    result[best.i] = result[best.i].union(result[best.j])
    result.remove(at: best.j)
    return mergedOverlapping(result)
  }
}
