import SnapdiffModel

#if canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS))
  import XCTest
#endif

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
///
/// snapdiff reads only `id` (the allow list matches pages by class and `id`; messages name it).
/// `type` is the type of the page's screen element in XCUITest's own type,
/// `XCUIElement.ElementType`, as page-object suites already declare it: their base extension of
/// `Page` (`var type: XCUIElement.ElementType { .any }`, `var screen: XCUIElement { … }`,
/// `waitForAppearance`) compiles unchanged and its default wins over snapdiff's, and a page's own
/// `type` is read through the protocol by that `screen`. Where XCUITest does not exist (Linux,
/// macOS without Xcode) `Page` requires `id` alone, and such an extension's `type` is an ordinary
/// property.
public protocol Page: AnyObject {
  /// The page's identifier: its screen element's accessibility identifier.
  var id: String { get }
  #if canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS))
    /// The type of the page's screen element (default `.any`).
    var type: XCUIElement.ElementType { get }
  #endif
}

#if canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS))
  extension Page {
    public var type: XCUIElement.ElementType { .any }
  }
#endif

/// A page that can take snapshots: it says how its frame is captured, and which of its elements
/// must not count (a clock, an ad banner, an animation).
///
/// `ignoredElements` may hold anything ``IgnorableElement``: ``ElementIdentifier``s, selector
/// strings, rectangles, and on Apple platforms `XCUIElement`s (masked by their frames when the
/// snapshot is taken):
///
/// ```swift
/// final class OnboardingPage: SnapshotPage {
///   var snapShooter: SnapShooter? { .xcuiScreen(app) }
///   var ignoredElements: [XCUIElement] { [app.staticTexts["clock"]] }
/// }
/// ```
///
/// An element type that is not ``IgnorableElement`` fails the snapshot with a message naming the
/// page and the type: a mask is never silently dropped.
///
/// > Note: A subclass of a page class that conforms declares `override var ignoredElements`;
/// > declare `ignoredElements` in the base class (even as `[]`) so that subclasses can override it.
public protocol SnapshotPage: Page {
  /// What `ignoredElements` holds; inferred from the page's declaration.
  associatedtype IgnoredElement = ElementIdentifier
  /// How this page's frame is captured; `nil`: the page cannot take snapshots (they are skipped,
  /// and the skip is reported).
  var snapShooter: SnapShooter? { get }
  /// Elements masked in every snapshot of this page (default: none).
  var ignoredElements: [IgnoredElement] { get }
  /// Regions compared by a rule of their own in every snapshot of this page (default: none):
  /// `.floating("~badge", by: 5)`, `.strict(…)`, `.content(…)`, `.layout(…)` (``PageRegion``).
  var checkRegions: [PageRegion] { get }
  /// Overrides of the contrast rule in every snapshot of this page (default: none):
  /// `.largeText("title")`, `.boldText(…)`, `.regularText(…)`, `.graphicalObject(…)`,
  /// `.ignoreContrast(…)` (``PageContrastRegion``); they refine a contrast check that is on.
  var contrastRegions: [PageContrastRegion] { get }
}

extension SnapshotPage {
  public var ignoredElements: [IgnoredElement] { [] }
  public var checkRegions: [PageRegion] { [] }
  public var contrastRegions: [PageContrastRegion] { [] }

  /// Why the page's `ignoredElements` cannot be masked (a type snapdiff cannot mask), or nil;
  /// known from the type alone, without reading an element.
  var ignoredElementsProblem: IgnoredElementsError? {
    IgnoredElement.self is any IgnorableElement.Type
      ? nil : IgnoredElementsError(page: "\(Swift.type(of: self))", elementType: "\(IgnoredElement.self)")
  }

  /// The page's ignored areas now, or the reason they cannot be used.
  func ignoredAreas() -> Result<[IgnoredArea], IgnoredElementsError> {
    if let ignoredElementsProblem { return .failure(ignoredElementsProblem) }
    return .success(ignoredElements.compactMap { ($0 as? any IgnorableElement)?.ignoredArea })
  }
}

/// A page whose `ignoredElements` hold a type snapdiff cannot mask.
struct IgnoredElementsError: Error, CustomStringConvertible {
  var page: String
  var elementType: String
  var description: String {
    "\(page).ignoredElements holds \(elementType), which snapdiff cannot mask: use ElementIdentifier, "
      + "a selector String, ElementFrame, PixelRect or (on Apple platforms) XCUIElement"
  }
}

/// An element of a screen: an identifier and a type, as a page-object suite's `ElementIdentifier` pairs
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
  public var selectorText: String {
    if let pattern { return pattern }
    return type == .any ? id : "@\(type.rawValue):\(id)"
  }
}
