/// A move by whole pixels: `dx` to the right, `dy` down (`{"dx", "dy"}` in JSON). What
/// rendering-tolerant found when content moved as an exact copy and nothing else changed
/// (`DiffResult.loneMove`, `DifferenceClass.move`).
public struct PixelShift: Sendable, Hashable, Codable {
  public var dx: Int
  public var dy: Int

  public init(dx: Int, dy: Int) {
    self.dx = dx
    self.dy = dy
  }

  /// "2 px up", "1 px right and 2 px down".
  public var words: String {
    var parts: [String] = []
    if dx != 0 { parts.append("\(dx.magnitude) px \(dx > 0 ? "right" : "left")") }
    if dy != 0 { parts.append("\(dy.magnitude) px \(dy > 0 ? "down" : "up")") }
    return parts.isEmpty ? "0 px" : parts.joined(separator: " and ")
  }

  /// `{"dx": 0, "dy": 2}`, as `compare --json` writes it (`loneMove`, a difference's `move`).
  public var json: JSONValue { .object([("dx", .int(dx)), ("dy", .int(dy))]) }
}
