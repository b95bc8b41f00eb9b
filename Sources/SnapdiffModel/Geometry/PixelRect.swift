/// A rectangle in pixels: `x`, `y` of its top-left corner, `width` and `height`. The one
/// rectangle of snapdiff: the engine's regions, `run.json`'s, settings files' and the API's
/// (`{"x", "y", "width", "height"}` in JSON, any other field refused).
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Parses `"X,Y,W,H"` as the CLI's `--ignore` takes it; `nil` when malformed or negative.
  public init?(commaSeparated text: String) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var values: [Int] = []
    for part in parts {
      guard let value = Int(part.trimmingWhitespace()), value >= 0 else { return nil }
      values.append(value)
    }
    self.init(x: values[0], y: values[1], width: values[2], height: values[3])
  }

  enum CodingKeys: String, CodingKey, CaseIterable { case x, y, width, height }

  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    x = try container.decode(Int.self, forKey: .x)
    y = try container.decode(Int.self, forKey: .y)
    width = try container.decode(Int.self, forKey: .width)
    height = try container.decode(Int.self, forKey: .height)
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var isEmpty: Bool { width <= 0 || height <= 0 }
  public var area: Int { isEmpty ? 0 : width * height }

  /// The part of this rectangle inside `0..<width × 0..<height` (empty when none is).
  /// A region from `--ignore` or a settings file may hold any `Int`, so the far edges saturate
  /// instead of overflowing.
  public func clamped(toWidth width: Int, height: Int) -> PixelRect {
    let left = min(max(x, 0), width)
    let top = min(max(y, 0), height)
    let right = min(max(Self.saturatingSum(x, self.width), left), width)
    let bottom = min(max(Self.saturatingSum(y, self.height), top), height)
    return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int.max : Int.min) : sum
  }

  /// The smallest rectangle holding both.
  public func union(_ other: PixelRect) -> PixelRect {
    let left = min(x, other.x)
    let top = min(y, other.y)
    return PixelRect(
      x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
  }

  /// Whether the two share a pixel, or lie within `gap` pixels of each other.
  public func touches(_ other: PixelRect, gap: Int = 0) -> Bool {
    x < other.maxX + gap && other.x < maxX + gap && y < other.maxY + gap && other.y < maxY + gap
  }

  public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

/// The size of an image in pixels (`{"width", "height"}` in JSON).
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var area: Int { width * height }
  public var description: String { "\(width)×\(height)" }
}
