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

/// How the elements a selector picks are held to contrast, overriding what snapdiff would guess
/// from the element (as Applitools Eyes' accessibility region types do): written
/// `TYPE:SELECTOR`, such as `large-text:@staticText:title` or `ignore:~logo`.
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
  /// An element selector (`ElementSelector`'s grammar).
  public var selector: String

  public init(kind: Kind, selector: String) {
    self.kind = kind
    self.selector = selector
  }

  /// Parses `TYPE:SELECTOR`; the selector is checked where it is resolved.
  ///
  /// - Throws: `ConfigurationError` naming the text and the types there are.
  public init(_ text: String) throws(ConfigurationError) {
    guard let colon = text.firstIndex(of: ":") else {
      throw ConfigurationError("contrast region '\(text)': write TYPE:SELECTOR (\(Self.kindNames))")
    }
    let name = String(text[..<colon])
    guard let kind = Kind(rawValue: name) else {
      throw ConfigurationError("contrast region '\(text)': '\(name)' is not a region type (\(Self.kindNames))")
    }
    let selector = String(text[text.index(after: colon)...])
    guard !selector.isEmpty else { throw ConfigurationError("contrast region '\(text)': the selector is empty") }
    self.init(kind: kind, selector: selector)
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

  public var description: String { "\(kind.rawValue):\(selector)" }
}
