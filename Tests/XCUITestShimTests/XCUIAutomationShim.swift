#if os(Linux)  // the shim stands in for XCUITest where there is none
  // A shim of the XCUITest symbols the XCUITest shooter uses, declared as Apple documents them
  // (XCUIAutomation: XCUIElement, XCUIApplication, XCUIElementQuery, XCUIScreen, XCUIScreenshot,
  // XCUIElementAttributes, XCUIElementSnapshot, XCUIElement.ElementType with its raw values), so
  // that Sources/SnapdiffTesting/XCUITest/XCUITestShooter.swift, which cannot be compiled against
  // the real framework on Linux, is type-checked and driven here. The shim's values come from
  // `XCUIShimWorld`, which a test sets to a screen shaped like a real dump. Apple's XCUITest
  // classes come from Objective-C with NS_SWIFT_UI_ACTOR, which Swift imports as @MainActor with
  // @preconcurrency semantics: so they are declared here.
  import Foundation

  /// What the shim's XCUITest reports: the screenshot, the application's element snapshot, and
  /// SpringBoard's status bar.
  @MainActor enum XCUIShimWorld {
    static var screenshotPNG = Data()
    static var application: ShimElementSnapshot?
    static var statusBarFrame: CGRect?

    /// The element with `identifier` in the application's snapshot, depth first.
    static func element(identifier: String) -> ShimElementSnapshot? {
      func find(_ node: ShimElementSnapshot) -> ShimElementSnapshot? {
        if node.identifier == identifier { return node }
        for child in node.shimChildren { if let found = find(child) { return found } }
        return nil
      }
      return application.flatMap(find)
    }
  }

  /// XCUIElementAttributes: "Attributes exposed by UI elements."
  @preconcurrency @MainActor public protocol XCUIElementAttributes {
    var identifier: String { get }
    var frame: CGRect { get }
    var value: Any? { get }
    var title: String { get }
    var label: String { get }
    var elementType: XCUIElement.ElementType { get }
    var isEnabled: Bool { get }
    var placeholderValue: String? { get }
    var isSelected: Bool { get }
  }

  /// XCUIElementSnapshot: "A set of attributes to express a snapshot of an element's attributes and
  /// descendant user interface hierarchy."
  @preconcurrency @MainActor public protocol XCUIElementSnapshot: XCUIElementAttributes {
    var children: [any XCUIElementSnapshot] { get }
    var dictionaryRepresentation: [XCUIElement.AttributeName: Any] { get }
  }

  /// XCUIElementSnapshotProviding: `func snapshot() throws -> any XCUIElementSnapshot`.
  @preconcurrency @MainActor public protocol XCUIElementSnapshotProviding {
    func snapshot() throws -> any XCUIElementSnapshot
  }

  /// XCUIScreenshotProviding: `func screenshot() -> XCUIScreenshot`.
  @preconcurrency @MainActor public protocol XCUIScreenshotProviding {
    func screenshot() -> XCUIScreenshot
  }

  @preconcurrency @MainActor
  open class XCUIElement: NSObject, XCUIElementAttributes, XCUIElementSnapshotProviding, XCUIScreenshotProviding {
    /// XCUIElement.ElementType, `enum ElementType: UInt` in Apple's order (`any` = 0 …
    /// `statusItem` = 82), as XCUIElementTypes.h numbers them.
    public enum ElementType: UInt, Sendable {
      case any = 0
      case other, application, group, window, sheet, drawer, alert, dialog, button, radioButton
      case radioGroup, checkBox, disclosureTriangle, popUpButton, comboBox, menuButton, toolbarButton
      case popover, keyboard, key, navigationBar, tabBar, tabGroup, toolbar, statusBar, table
      case tableRow, tableColumn, outline, outlineRow, browser, collectionView, slider, pageIndicator
      case progressIndicator, activityIndicator, segmentedControl, picker, pickerWheel
      case `switch`, toggle, link, image, icon, searchField, scrollView, scrollBar, staticText
      case textField, secureTextField, datePicker, textView, menu, menuItem, menuBar, menuBarItem
      case map, webView, incrementArrow, decrementArrow, timeline, ratingIndicator, valueIndicator
      case splitGroup, splitter, relevanceIndicator, colorWell, helpTag, matte, dockItem, ruler
      case rulerMarker, grid, levelIndicator, cell, layoutArea, layoutItem, handle, stepper, tab
      case touchBar, statusItem
    }

    /// XCUIElement.AttributeName: string constants keying `dictionaryRepresentation`.
    public struct AttributeName: Hashable, RawRepresentable, Sendable {
      public var rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
    }

    fileprivate let lookup: () -> ShimElementSnapshot?

    fileprivate init(lookup: @escaping () -> ShimElementSnapshot?) {
      self.lookup = lookup
    }

    public var exists: Bool { lookup() != nil }
    public var identifier: String { lookup()?.identifier ?? "" }
    public var frame: CGRect { lookup()?.frame ?? .zero }
    public var value: Any? { lookup()?.value }
    public var title: String { "" }
    public var label: String { lookup()?.label ?? "" }
    public var elementType: ElementType { lookup()?.elementType ?? .any }
    public var isEnabled: Bool { lookup()?.isEnabled ?? false }
    public var placeholderValue: String? { nil }
    public var isSelected: Bool { lookup()?.isSelected ?? false }

    public func snapshot() throws -> any XCUIElementSnapshot {
      guard let node = lookup() else { throw ShimError.noSuchElement }
      return node
    }

    public func screenshot() -> XCUIScreenshot { XCUIScreenshot(png: XCUIShimWorld.screenshotPNG) }

    /// XCUIElementTypeQueryProvider's queries used by the shooter and by pages.
    public var staticTexts: XCUIElementQuery { XCUIElementQuery() }
    public var buttons: XCUIElementQuery { XCUIElementQuery() }
    public var statusBars: XCUIElementQuery { XCUIElementQuery(statusBar: true) }
  }

  @preconcurrency @MainActor public final class XCUIApplication: XCUIElement {
    private let isSpringBoard: Bool

    public init() {
      isSpringBoard = false
      super.init { XCUIShimWorld.application }
    }

    public init(bundleIdentifier: String) {
      isSpringBoard = bundleIdentifier == "com.apple.springboard"
      super.init { bundleIdentifier == "com.apple.springboard" ? nil : XCUIShimWorld.application }
    }

    public func launch() { ShimApp.launch() }
  }

  @preconcurrency @MainActor public final class XCUIElementQuery: NSObject {
    private let statusBar: Bool
    public init(statusBar: Bool = false) { self.statusBar = statusBar }

    public var firstMatch: XCUIElement {
      let statusBar = self.statusBar
      return XCUIElement {
        guard statusBar, let frame = XCUIShimWorld.statusBarFrame else { return nil }
        return ShimElementSnapshot(elementType: .statusBar, frame: frame)
      }
    }

    public subscript(_ identifier: String) -> XCUIElement {
      XCUIElement { XCUIShimWorld.element(identifier: identifier) }
    }
  }

  @preconcurrency @MainActor public final class XCUIScreen: NSObject, XCUIScreenshotProviding {
    public static var main: XCUIScreen { XCUIScreen() }
    public func screenshot() -> XCUIScreenshot { XCUIScreenshot(png: XCUIShimWorld.screenshotPNG) }
  }

  public final class XCUIScreenshot: NSObject, @unchecked Sendable {
    public let pngRepresentation: Data
    public init(png: Data) { pngRepresentation = png }
  }

  enum ShimError: Error { case noSuchElement }

  /// An element snapshot the shim hands out.
  @MainActor public final class ShimElementSnapshot: XCUIElementSnapshot {
    public var identifier: String
    public var frame: CGRect
    public var value: Any?
    public var title = ""
    public var label: String
    public var elementType: XCUIElement.ElementType
    public var isEnabled: Bool
    public var placeholderValue: String?
    public var isSelected: Bool
    public var shimChildren: [ShimElementSnapshot]

    public init(
      elementType: XCUIElement.ElementType, identifier: String = "", label: String = "", value: Any? = nil,
      frame: CGRect, isEnabled: Bool = true, isSelected: Bool = false, children: [ShimElementSnapshot] = []
    ) {
      self.elementType = elementType
      self.identifier = identifier
      self.label = label
      self.value = value
      self.frame = frame
      self.isEnabled = isEnabled
      self.isSelected = isSelected
      shimChildren = children
    }

    public var children: [any XCUIElementSnapshot] { shimChildren }
    public var dictionaryRepresentation: [XCUIElement.AttributeName: Any] { [:] }
  }
#endif
