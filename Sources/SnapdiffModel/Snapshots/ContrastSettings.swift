/// The WCAG 2.x conformance level that text contrast is checked against: `AA` (4.5:1, large
/// text 3:1) or `AAA` (7:1, large text 4.5:1). The rule itself is `ContrastCheck` (SnapdiffCore).
public enum ContrastLevel: String, Sendable, Codable, CaseIterable {
  case aa = "AA"
  case aaa = "AAA"

  /// Parses `AA` or `AAA`, in any case.
  public init?(text: String) {
    self.init(rawValue: text.uppercased())
  }
}

/// How the elements of a region are held to contrast, overriding what snapdiff would guess from
/// the element (as Applitools Eyes' accessibility region types do): written `TYPE:AREA`, such as
/// `large-text:@staticText:title`, `ignore:~logo` or `graphical-object:16,40,24,24pt`. The area
/// is an element selector (the elements it picks) or a rectangle in pixels (`X,Y,W,H`) or points
/// (`X,Y,W,Hpt`): the elements lying wholly inside it.
public struct ContrastRegion: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A region type, after Eyes' `AccessibilityRegionType`.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// Text held to the regular-text ratio, whatever its size.
    case regularText = "regular-text"
    /// Text held to the large-text ratio, whatever its size.
    case largeText = "large-text"
    /// Bold text: large from 14 pt instead of 18 pt.
    case boldText = "bold-text"
    /// A graphical object or user-interface component (WCAG 1.4.11): 3:1 at either level, text
    /// or not.
    case graphicalObject = "graphical-object"
    /// Not checked.
    case ignore
  }

  public var kind: Kind
  /// The elements it holds: those an element selector picks (`ElementSelector`'s grammar), or
  /// those lying wholly inside a rectangle.
  public var area: CheckRegion.Area

  public init(kind: Kind, area: CheckRegion.Area) {
    self.kind = kind
    self.area = area
  }

  /// The elements `selector` picks.
  public init(kind: Kind, selector: String) {
    self.init(kind: kind, area: .element(selector))
  }

  /// The element selector, for a region given by one.
  public var selector: String? {
    if case .element(let selector) = area { return selector }
    return nil
  }

  /// Parses `TYPE:AREA`; a selector's grammar is checked where it is resolved (``validated()``).
  ///
  /// - Throws: `ConfigurationError` naming the text and the types there are.
  public init(_ text: String) throws(ConfigurationError) {
    guard let colon = text.firstIndex(of: ":") else {
      throw ConfigurationError("contrast region '\(text)': write TYPE:SELECTOR or TYPE:X,Y,W,H (\(Self.kindNames))")
    }
    let name = String(text[..<colon])
    guard let kind = Kind(rawValue: name) else {
      throw ConfigurationError("contrast region '\(text)': '\(name)' is not a region type (\(Self.kindNames))")
    }
    let areaText = String(text[text.index(after: colon)...])
    guard !areaText.isEmpty else { throw ConfigurationError("contrast region '\(text)': the selector is empty") }
    let area: CheckRegion.Area
    do {
      area = try CheckRegion.Area(spec: areaText)
    } catch {
      throw ConfigurationError("contrast region '\(text)': \(error.message)")
    }
    if let problem = area.problem { throw ConfigurationError("contrast region '\(text)': \(problem)") }
    self.init(kind: kind, area: area)
  }

  /// Checks what can be checked before a frame is seen: the selector's grammar, a rectangle
  /// that is not empty.
  ///
  /// - Throws: `ConfigurationError` naming the region.
  public func validated() throws(ConfigurationError) {
    if let problem = area.problem { throw ConfigurationError("contrast region '\(self)': \(problem)") }
    if let selector { _ = try ElementSelector(selector) }
  }

  private static var kindNames: String { Kind.allCases.map(\.rawValue).joined(separator: ", ") }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  public var description: String { "\(kind.rawValue):\(area)" }

  // The area's frame in points is Equatable only: regions hash by their text, which equal
  // regions share.
  public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
