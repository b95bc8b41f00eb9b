import SnapdiffCore

/// A screen of the app under test: what a test's steps act on. Pages are objects, so a
/// `SnapshotController` can tell them apart by identity.
///
/// ```swift
/// final class HomePage: SnapshotPage {
///   let id = "Home"
///   var snapShooter: SnapShooter? { .tree { app.homeTree() } }
///   var ignoredElements: [ElementIdentifier] { [.clock, "~banner"] }
/// }
/// ```
public protocol Page: AnyObject {
  /// The page's identifier: its screen element's accessibility identifier.
  var id: String { get }
  /// The type of its screen element (default `.any`).
  var type: ElementType { get }
}

extension Page {
  public var type: ElementType { .any }
}

/// A page that can take snapshots: it says how its frame is captured, and which of its elements
/// must not count (a clock, an ad banner, an animation).
public protocol SnapshotPage: Page {
  /// How this page's frame is captured; `nil`: the page cannot take snapshots (they are skipped,
  /// and the skip is reported).
  var snapShooter: SnapShooter? { get }
  /// Elements masked in every snapshot of this page (default: none).
  var ignoredElements: [ElementIdentifier] { get }
}

extension SnapshotPage {
  public var ignoredElements: [ElementIdentifier] { [] }
}

/// An element of a screen: an identifier and a type, as the seed's `ElementIdentifier` pairs
/// them; or, written as a string, any element selector (`"clock"`, `"~banner"`, `"@image"`,
/// `"alert/okButton"`).
///
/// ```swift
/// extension ElementIdentifier {
///   static let clock = ElementIdentifier(id: "clock", type: .staticText)
/// }
/// ```
public struct ElementIdentifier: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The element's accessibility identifier (empty for a selector that is not one).
  public let id: String
  public let type: ElementType
  /// The selector text, when made from one.
  private let pattern: String?

  public init(id: String, type: ElementType = .any) {
    self.id = id
    self.type = type
    pattern = nil
  }

  /// A selector: `clock`, `~banner`, `@image`, `alert/okButton`.
  public init(stringLiteral value: String) {
    id = value
    type = .any
    pattern = value
  }

  /// The elements of `tree` this identifies.
  ///
  /// - Throws: `ConfigurationError` for a malformed selector.
  public func matches(in tree: ElementTree) throws -> [Element] {
    try selector().matches(in: tree)
  }

  public var description: String {
    pattern ?? (type == .any ? id : "\(type.rawValue) '\(id)'")
  }

  /// As an element selector (for masks and settings files).
  public func selector() throws -> ElementSelector {
    if let pattern { return try ElementSelector(pattern) }
    return ElementSelector(identifier: id, type: type)
  }

  /// The selector's text: `clock`, or `@staticText:clock` for an identifier of a given type.
  var selectorText: String {
    if let pattern { return pattern }
    return type == .any ? id : "@\(type.rawValue):\(id)"
  }
}
