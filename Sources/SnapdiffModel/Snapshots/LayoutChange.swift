/// One element's layout change, as `run.json` keeps it and the service's API sends it (the
/// engine's `LayoutComparison.Change`, flattened for JSON).
public struct LayoutChange: Sendable, Codable, Equatable {
  public var identifier: String
  public var elementType: String
  /// `added`, `removed`, `moved`, `resized`, …
  public var change: String
  public var dx: Double
  public var dy: Double
  public var dWidth: Double
  public var dHeight: Double
  /// The change in words: `button 'loginButton' moved 8 pt down`.
  public var description: String

  public init(
    identifier: String, elementType: String, change: String, dx: Double, dy: Double, dWidth: Double, dHeight: Double,
    description: String
  ) {
    self.identifier = identifier
    self.elementType = elementType
    self.change = change
    self.dx = dx
    self.dy = dy
    self.dWidth = dWidth
    self.dHeight = dHeight
    self.description = description
  }
}
