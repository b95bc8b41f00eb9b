/// A part of a frame compared by a rule of its own, as Applitools Eyes' regions are: where
/// pixels are outside every region, the snapshot's match level applies.
///
/// ```json
/// {"kind": "floating", "element": "~badge", "offsets": {"up": 5, "down": 5, "left": 5, "right": 5}}
/// {"kind": "strict", "rect": {"x": 0, "y": 0, "width": 100, "height": 40}}
/// {"kind": "content", "points": {"x": 0, "y": 0, "width": 50, "height": 20}}
/// ```
///
/// On the command line (`--floating`, `--strict-region`, …) an area is written `X,Y,W,H` (pixels),
/// `X,Y,W,Hpt` (points, at the tree's scale) or an element selector (`~badge`, `@button:save`);
/// a floating region adds `:N` (N pixels in every direction) or `:UP,DOWN,LEFT,RIGHT`.
public struct CheckRegion: Sendable, Equatable, Codable, CustomStringConvertible {
  /// How a region's pixels are compared.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The content may move by up to `offsets` and must otherwise be the same, at the snapshot's
    /// level.
    case floating
    /// Compared at `strict` (pixelmatch) whatever the snapshot's level.
    case strict
    /// Compared at `ignore-colors`: brightness only.
    case content
    /// Only structure: the pixels do not count; the elements inside are compared as the
    /// `layout` level compares them (without element trees, the pixels are only ignored).
    case layout
    /// Never counted.
    case ignore
  }

  /// Where a region is.
  public enum Area: Sendable, Equatable, CustomStringConvertible {
    /// A rectangle in pixels of the screenshot.
    case pixels(PixelRect)
    /// A rectangle in points, converted with the element tree's scale (rounded outward).
    case points(ElementFrame)
    /// The elements an element selector picks in the frames' trees.
    case element(String)

    public var description: String {
      switch self {
      case .pixels(let rect): "\(rect.x),\(rect.y),\(rect.width),\(rect.height)"
      case .points(let frame): "\(frame.x),\(frame.y),\(frame.width),\(frame.height)pt"
      case .element(let selector): selector
      }
    }
  }

  /// How far a floating region's content may move, in pixels.
  public struct Offsets: Sendable, Equatable, Codable {
    public var up: Int
    public var down: Int
    public var left: Int
    public var right: Int

    public init(up: Int, down: Int, left: Int, right: Int) {
      self.up = up
      self.down = down
      self.left = left
      self.right = right
    }

    /// `n` pixels in every direction.
    public init(all n: Int) { self.init(up: n, down: n, left: n, right: n) }

    /// The largest offset a floating region may have in one direction: the search tries every
    /// offset within the bounds, (2n + 1)² of them.
    public static let maximum = 200

    var problem: String? {
      for (name, value) in [("up", up), ("down", down), ("left", left), ("right", right)]
      where !(0...Self.maximum).contains(value) {
        return "a floating offset (\(name)) must be between 0 and \(Self.maximum) pixels, not \(value)"
      }
      return nil
    }
  }

  public var kind: Kind
  public var area: Area
  /// For `floating` (required there, refused elsewhere).
  public var offsets: Offsets?

  public init(_ kind: Kind, _ area: Area, offsets: Offsets? = nil) {
    self.kind = kind
    self.area = area
    self.offsets = offsets
  }

  /// A floating region: `area` may move by up to `offsets`.
  public static func floating(_ area: Area, offsets: Offsets) -> CheckRegion {
    CheckRegion(.floating, area, offsets: offsets)
  }

  /// What is wrong with this region, or `nil`: an empty rectangle, a floating region without
  /// offsets, offsets on another kind, an offset out of range.
  public var problem: String? {
    if let problem = area.problem {
      if case .element = area { return "\(kind) region has an empty element selector" }
      return "\(kind) region \(problem)"
    }
    if kind == .floating {
      guard let offsets else { return "floating region \(area) needs its offsets (:N or :UP,DOWN,LEFT,RIGHT)" }
      return offsets.problem
    }
    if offsets != nil { return "\(kind) region \(area) takes no offsets: only floating regions move" }
    return nil
  }

  public var description: String {
    guard let offsets else { return "\(kind) \(area)" }
    return "\(kind) \(area):\(offsets.up),\(offsets.down),\(offsets.left),\(offsets.right)"
  }

  /// Parses the command line's form of a region of `kind`: `X,Y,W,H`, `X,Y,W,Hpt` or a
  /// selector, and for `floating` `:N` or `:UP,DOWN,LEFT,RIGHT` after it.
  ///
  /// - Throws: `ConfigurationError` saying what is malformed.
  public init(_ kind: Kind, spec text: String) throws(ConfigurationError) {
    var areaText = Substring(text)
    var offsets: Offsets?
    if kind == .floating {
      guard let colon = text.lastIndex(of: ":") else {
        throw ConfigurationError(
          "'\(text)': a floating region ends with its offsets, :N (N pixels each way) or :UP,DOWN,LEFT,RIGHT")
      }
      areaText = text[..<colon]
      let numbers = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        .map { Int($0.trimmingWhitespace()) }
      guard numbers.count == 1 || numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
        throw ConfigurationError(
          "'\(text)': the offsets after the last ':' must be N or UP,DOWN,LEFT,RIGHT in whole pixels")
      }
      let values = numbers.map { $0! }
      offsets =
        values.count == 1
        ? Offsets(all: values[0]) : Offsets(up: values[0], down: values[1], left: values[2], right: values[3])
    }
    let area = try Self.area(String(areaText))
    self.init(kind, area, offsets: offsets)
    if let problem { throw ConfigurationError("'\(text)': \(problem)") }
  }

  /// `X,Y,W,H` in pixels, `X,Y,W,Hpt` in points, anything else a selector.
  static func area(_ text: String) throws(ConfigurationError) -> Area {
    let trimmed = String(Substring(text).trimmingWhitespace())
    let inPoints = trimmed.hasSuffix("pt")
    let numbers = inPoints ? String(trimmed.dropLast(2)) : trimmed
    let parts = numbers.split(separator: ",", omittingEmptySubsequences: false)
    // Four comma-separated parts are a rectangle (a selector has no commas): malformed numbers
    // are an error, not a selector that matches nothing.
    guard parts.count == 4 else {
      guard !trimmed.isEmpty else { throw ConfigurationError("an empty region: give X,Y,W,H or an element selector") }
      if trimmed.contains(",") {
        throw ConfigurationError("'\(text)': a rectangle is X,Y,W,H (pixels) or X,Y,W,Hpt (points)")
      }
      return .element(trimmed)
    }
    if inPoints {
      let values = parts.map { Double($0.trimmingWhitespace()) }
      guard values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
        throw ConfigurationError("'\(text)': a rectangle in points is X,Y,W,Hpt with four numbers")
      }
      return .points(ElementFrame(x: values[0]!, y: values[1]!, width: values[2]!, height: values[3]!))
    }
    guard let rect = PixelRect(commaSeparated: numbers) else {
      throw ConfigurationError("'\(text)': a rectangle in pixels is X,Y,W,H with four whole numbers, none negative")
    }
    return .pixels(rect)
  }

  enum CodingKeys: String, CodingKey, CaseIterable { case kind, rect, points, element, offsets }

  /// Decodes a region, refusing unknown fields and an area given twice or not at all.
  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(Kind.self, forKey: .kind)
    let areas: [Area] = [
      try container.decodeIfPresent(PixelRect.self, forKey: .rect).map(Area.pixels),
      try container.decodeIfPresent(ElementFrame.self, forKey: .points).map(Area.points),
      try container.decodeIfPresent(String.self, forKey: .element).map(Area.element),
    ].compactMap { $0 }
    guard areas.count == 1 else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "a region has exactly one of rect (pixels), points or element"))
    }
    area = areas[0]
    offsets = try container.decodeIfPresent(Offsets.self, forKey: .offsets)
    if let problem {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: container.codingPath, debugDescription: problem))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    switch area {
    case .pixels(let rect): try container.encode(rect, forKey: .rect)
    case .points(let frame): try container.encode(frame, forKey: .points)
    case .element(let selector): try container.encode(selector, forKey: .element)
    }
    try container.encodeIfPresent(offsets, forKey: .offsets)
  }
}

extension CheckRegion.Area {
  /// Parses an area as the command line writes it: `X,Y,W,H` (pixels), `X,Y,W,Hpt` (points) or
  /// an element selector (the one grammar of regions and contrast regions).
  ///
  /// - Throws: `ConfigurationError` for a malformed rectangle or an empty text.
  public init(spec text: String) throws(ConfigurationError) {
    self = try CheckRegion.area(text)
  }

  /// What is wrong with this area, or `nil`: an empty or negative rectangle, one larger than
  /// ``ElementFrame/maximumExtent`` points, an empty selector. (A selector's grammar is checked
  /// where it is resolved.)
  public var problem: String? {
    switch self {
    case .pixels(let rect) where rect.isEmpty || rect.x < 0 || rect.y < 0:
      return "\(self) is empty or negative: give a width and a height above 0"
    case .points(let frame) where !(frame.width > 0 && frame.height > 0 && frame.x >= 0 && frame.y >= 0):
      return "\(self) is empty or negative: give a width and a height above 0"
    case .points(let frame)
    where [frame.x, frame.y, frame.width, frame.height].contains(where: { !($0 <= ElementFrame.maximumExtent) }):
      return "\(self) is larger than \(Int(ElementFrame.maximumExtent)) points"
    case .element(let selector) where selector.isEmpty:
      return "the element selector is empty"
    default:
      return nil
    }
  }
}
