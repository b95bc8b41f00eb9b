/// What kind of difference a failed comparison found, in words a reviewer acts on: after an
/// Xcode update, "212 snapshots differ only by rendering" is one group to approve, and the few
/// real changes stand apart. The engine's `DifferenceClassifier` decides it; `run.json`, the
/// service's answers, the reports and the review page carry it.
public struct DifferenceClass: Sendable, Codable, Equatable, Hashable {
  /// The kinds, from what a renderer does to what a person did.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// Every differing pixel is anti-aliasing (an edge's blend), by pixelmatch's test.
    case antialiasing = "anti-aliasing"
    /// Every differing pixel has a close match within one pixel in the other image and the
    /// other way round: glyphs and edges rasterised again, nothing added or removed.
    case rerendered = "re-rendered"
    /// The content below a row moved up or down by whole pixels (`shift`, below `row`).
    case shifted
    /// Content moved by a pixel or two (`move`), an exact copy, and nothing else changed, not
    /// even by rendering (rendering-tolerant's lone move): an element nudged in code, or a title
    /// a new OS laid lower and nothing else. Pixels alone cannot tell the two apart, so it fails
    /// and says so.
    case moved
    /// Only lines one or two pixels thin changed colour (separators, borders).
    case hairline
    /// Areas kept their shape and changed colour, by `deltaE` (ΔE00).
    case color
    /// Something was added, removed or redrawn.
    case element
    /// The two images differ in size.
    case size
  }

  public var kind: Kind
  /// For `shifted`: pixels moved, positive down; `row`: the first row that moved.
  public var shift: Int?
  public var row: Int?
  /// For `moved`: by how much.
  public var move: PixelShift?
  /// For `color` and `hairline`: the ΔE00 between the most common colour before and after.
  public var deltaE: Double?
  /// For `color` and `hairline`: that colour before and after, `#RRGGBB` (`#RRGGBBAA` when not
  /// opaque), so that the same colour replaced by the same colour on many screens is one group.
  public var from: String?
  public var to: String?

  public init(
    kind: Kind, shift: Int? = nil, row: Int? = nil, move: PixelShift? = nil, deltaE: Double? = nil,
    from: String? = nil, to: String? = nil
  ) {
    self.kind = kind
    self.shift = shift
    self.row = row
    self.move = move
    self.deltaE = deltaE
    self.from = from
    self.to = to
  }

  /// The most a shift may be for the snapshot to count as differing only by rendering: what an
  /// OS or Xcode update does to a title (1–2 px), not a moved layout.
  public static let renderingShift = 2

  /// Whether the difference is rendering alone (anti-aliasing, re-rasterised glyphs and edges,
  /// content moved by at most ``renderingShift`` pixels): what an OS, simulator or Xcode update
  /// does, one group to approve.
  public var isRenderingOnly: Bool {
    switch kind {
    case .antialiasing, .rerendered: return true
    case .shifted: return abs(shift ?? Int.max) <= Self.renderingShift
    case .moved, .hairline, .color, .element, .size: return false
    }
  }

  /// The group a run's summary and the review page put the snapshot in: `rendering` for
  /// ``isRenderingOnly``, else the kind's name.
  public var group: String { isRenderingOnly ? "rendering" : kind.rawValue }

  /// Every group name: `rendering`, then each kind that is not rendering alone by itself.
  public static let groups =
    ["rendering"] + Kind.allCases.filter { $0 != .antialiasing && $0 != .rerendered }.map(\.rawValue)

  /// The group in words, for a count of snapshots: `differ only by rendering`.
  public static func groupDescription(_ group: String) -> String {
    switch group {
    case "rendering":
      return "differ only by rendering (anti-aliasing, text or edges re-rendered, shifts of 1–\(renderingShift) px)"
    case Kind.shifted.rawValue: return "have content shifted"
    case Kind.moved.rawValue: return "moved content by a pixel or two and re-rendered nothing else"
    case Kind.hairline.rawValue: return "changed a hairline's colour"
    case Kind.color.rawValue: return "changed colour"
    case Kind.size.rawValue: return "changed size"
    default: return "changed an element"
    }
  }

  /// The difference in words: `content shifted down by 2 px below y=88`.
  public var sentence: String {
    switch kind {
    case .antialiasing: return "anti-aliasing only"
    case .rerendered: return "text or edges re-rendered (every differing pixel has a match within 1 px)"
    case .shifted:
      let amount = shift ?? 0
      return "content shifted \(amount > 0 ? "down" : "up") by \(abs(amount)) px below y=\(row ?? 0)"
    case .moved:
      return "content moved \(move?.words ?? "by a pixel or two") as an exact copy, and nothing else re-rendered"
    case .hairline: return "hairline colour changed" + Self.deltaText(deltaE)
    case .color: return "colour changed" + Self.deltaText(deltaE)
    case .element: return "element changed"
    case .size: return "size changed"
    }
  }

  private static func deltaText(_ deltaE: Double?) -> String {
    guard let deltaE else { return "" }
    return " by ΔE00 \((deltaE * 10).rounded() / 10)"
  }
}
