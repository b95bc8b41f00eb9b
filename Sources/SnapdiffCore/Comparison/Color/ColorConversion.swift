/// A conversion made before comparing: which image was converted from which colour space into
/// sRGB. Reported in the verdict, so a pass after conversion is never mistaken for equal bytes.
public struct ColorConversion: Sendable, Hashable {
  /// The baseline's colour space as read (`sRGB` for an untagged image), e.g. `Display P3 (iCCP)`.
  public var baselineSpace: String
  /// The current image's colour space as read.
  public var currentSpace: String
  /// Whether the baseline's samples were converted to sRGB.
  public var baselineConverted: Bool
  /// Whether the current image's samples were converted to sRGB.
  public var currentConverted: Bool

  public init(
    baselineSpace: String, currentSpace: String, baselineConverted: Bool, currentConverted: Bool
  ) {
    self.baselineSpace = baselineSpace
    self.currentSpace = currentSpace
    self.baselineConverted = baselineConverted
    self.currentConverted = currentConverted
  }

  /// One line for a verdict: `baseline Display P3 (iCCP) → sRGB; current sRGB as is`.
  public var sentence: String {
    func part(_ name: String, _ space: String, _ converted: Bool) -> String {
      converted ? "\(name) \(space) → sRGB" : "\(name) \(space) as is"
    }
    return "colours converted before comparing: "
      + part("baseline", baselineSpace, baselineConverted) + "; "
      + part("current", currentSpace, currentConverted)
  }

  /// `{"to": "sRGB", "baseline": {"space", "converted"}, "current": {…}}`.
  public var json: JSONValue {
    .object([
      ("to", .string("sRGB")),
      ("baseline", .object([("space", .string(baselineSpace)), ("converted", .bool(baselineConverted))])),
      ("current", .object([("space", .string(currentSpace)), ("converted", .bool(currentConverted))])),
    ])
  }
}
