#if os(Linux)  // the shim stands in for XCUITest where there is none
  // A shim of XCUITest (XCUIAutomation) and of the XCTest attachments API, declared as Apple
  // documents them (developer.apple.com/documentation/xcuiautomation, …/xctest): the symbols the
  // XCUITest shooter uses, and those a page-object suite written as the seed writes it uses
  // (queries by type and identifier, `descendants(matching:)`, `firstMatch`, taps, typing,
  // swipes, waits, launch arguments), so that Sources/SnapdiffTesting/XCUITest/*.swift, which
  // cannot be compiled against the real framework on Linux, and such a suite are type-checked and
  // driven here. Isolation is Apple's: XCUIElement, XCUIApplication, XCUIElementQuery,
  // XCUIScreen, XCUIScreenshot, XCUIDevice and the XCUIElementAttributes, XCUIElementSnapshot,
  // XCUIElementSnapshotProviding, XCUIScreenshotProviding and XCUIElementTypeQueryProvider
  // protocols are `@MainActor` (Objective-C's NS_SWIFT_UI_ACTOR, imported with @preconcurrency
  // semantics); XCTContext.runActivity is `@MainActor @preconcurrency`. Values come from
  // `XCUIShimWorld`, which a test sets to a screen shaped like a real dump.
  import Foundation
  import SnapdiffTesting
  import XCTest

  /// What the shim's XCUITest reports: the screenshot, the application's element snapshot,
  /// SpringBoard's screen and status bar, and what the test did (actions, launches, attachments).
  @MainActor enum XCUIShimWorld {
    static var screenshotPNG = Data()
    static var application: ShimElementSnapshot?
    static var statusBarFrame: CGRect?
    /// SpringBoard's frame: the whole screen in points (nil: no SpringBoard, as on macOS).
    static var screenFrame: CGRect?
    /// What the test did to elements, in order: `tap nextButton`, `typeText nameField "Ann"`.
    static var actions: [String] = []
    /// The launch arguments and environment of every `launch()`.
    static var launches: [(arguments: [String], environment: [String: String])] = []
    /// Attachments added to XCTContext activities, by activity name.
    static var attachments: [(activity: String, attachment: XCTAttachment)] = []
    /// Whether the main thread ran the XCUITest calls (Apple's XCUITest requires it).
    static var callsOffTheMainThread = 0

    /// The application's snapshot; counts calls made off the main thread.
    static func currentApplication() -> ShimElementSnapshot? {
      if !Thread.isMainThread { callsOffTheMainThread += 1 }
      return application
    }

    static func springBoard() -> ShimElementSnapshot? {
      guard let screen = screenFrame ?? statusBarFrame.map({ CGRect(x: 0, y: 0, width: $0.width, height: 0) })
      else { return nil }
      let bar = statusBarFrame.map { [ShimElementSnapshot(elementType: .statusBar, frame: $0)] } ?? []
      return ShimElementSnapshot(elementType: .application, identifier: "", frame: screen, children: bar)
    }
  }

  // MARK: - Attributes and snapshots

  /// XCUIElementAttributes: "Attributes exposed by UI elements."
  @preconcurrency @MainActor public protocol XCUIElementAttributes {
    var identifier: String { get }
    var frame: CGRect { get }
    var value: Any? { get }
    var title: String { get }
    var label: String { get }
    var elementType: XCUIElement.ElementType { get }
    var isEnabled: Bool { get }
    var horizontalSizeClass: XCUIElement.SizeClass { get }
    var verticalSizeClass: XCUIElement.SizeClass { get }
    var placeholderValue: String? { get }
    var isSelected: Bool { get }
    var hasFocus: Bool { get }
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

  /// XCUIElementTypeQueryProvider: "A type that provides ready-made queries for locating
  /// descendant UI elements": each property is `descendants(matching:)` for one type.
  @preconcurrency @MainActor public protocol XCUIElementTypeQueryProvider {
    var firstMatch: XCUIElement { get }
    var touchBars: XCUIElementQuery { get }
    var groups: XCUIElementQuery { get }
    var windows: XCUIElementQuery { get }
    var sheets: XCUIElementQuery { get }
    var drawers: XCUIElementQuery { get }
    var alerts: XCUIElementQuery { get }
    var dialogs: XCUIElementQuery { get }
    var buttons: XCUIElementQuery { get }
    var radioButtons: XCUIElementQuery { get }
    var radioGroups: XCUIElementQuery { get }
    var checkBoxes: XCUIElementQuery { get }
    var disclosureTriangles: XCUIElementQuery { get }
    var popUpButtons: XCUIElementQuery { get }
    var comboBoxes: XCUIElementQuery { get }
    var menuButtons: XCUIElementQuery { get }
    var toolbarButtons: XCUIElementQuery { get }
    var popovers: XCUIElementQuery { get }
    var keyboards: XCUIElementQuery { get }
    var keys: XCUIElementQuery { get }
    var navigationBars: XCUIElementQuery { get }
    var tabBars: XCUIElementQuery { get }
    var tabGroups: XCUIElementQuery { get }
    var toolbars: XCUIElementQuery { get }
    var statusBars: XCUIElementQuery { get }
    var tables: XCUIElementQuery { get }
    var tableRows: XCUIElementQuery { get }
    var tableColumns: XCUIElementQuery { get }
    var outlines: XCUIElementQuery { get }
    var outlineRows: XCUIElementQuery { get }
    var browsers: XCUIElementQuery { get }
    var collectionViews: XCUIElementQuery { get }
    var sliders: XCUIElementQuery { get }
    var pageIndicators: XCUIElementQuery { get }
    var progressIndicators: XCUIElementQuery { get }
    var activityIndicators: XCUIElementQuery { get }
    var segmentedControls: XCUIElementQuery { get }
    var pickers: XCUIElementQuery { get }
    var pickerWheels: XCUIElementQuery { get }
    var switches: XCUIElementQuery { get }
    var toggles: XCUIElementQuery { get }
    var links: XCUIElementQuery { get }
    var images: XCUIElementQuery { get }
    var icons: XCUIElementQuery { get }
    var searchFields: XCUIElementQuery { get }
    var scrollViews: XCUIElementQuery { get }
    var scrollBars: XCUIElementQuery { get }
    var staticTexts: XCUIElementQuery { get }
    var textFields: XCUIElementQuery { get }
    var secureTextFields: XCUIElementQuery { get }
    var datePickers: XCUIElementQuery { get }
    var textViews: XCUIElementQuery { get }
    var menus: XCUIElementQuery { get }
    var menuItems: XCUIElementQuery { get }
    var menuBars: XCUIElementQuery { get }
    var menuBarItems: XCUIElementQuery { get }
    var maps: XCUIElementQuery { get }
    var webViews: XCUIElementQuery { get }
    var steppers: XCUIElementQuery { get }
    var incrementArrows: XCUIElementQuery { get }
    var decrementArrows: XCUIElementQuery { get }
    var tabs: XCUIElementQuery { get }
    var timelines: XCUIElementQuery { get }
    var ratingIndicators: XCUIElementQuery { get }
    var valueIndicators: XCUIElementQuery { get }
    var splitGroups: XCUIElementQuery { get }
    var splitters: XCUIElementQuery { get }
    var relevanceIndicators: XCUIElementQuery { get }
    var colorWells: XCUIElementQuery { get }
    var helpTags: XCUIElementQuery { get }
    var mattes: XCUIElementQuery { get }
    var dockItems: XCUIElementQuery { get }
    var rulers: XCUIElementQuery { get }
    var rulerMarkers: XCUIElementQuery { get }
    var grids: XCUIElementQuery { get }
    var levelIndicators: XCUIElementQuery { get }
    var cells: XCUIElementQuery { get }
    var layoutAreas: XCUIElementQuery { get }
    var layoutItems: XCUIElementQuery { get }
    var handles: XCUIElementQuery { get }
    var otherElements: XCUIElementQuery { get }
    var statusItems: XCUIElementQuery { get }
  }

  /// What the shim's element and query share: the snapshots they stand for now.
  @preconcurrency @MainActor public protocol ShimQuerySource: XCUIElementTypeQueryProvider {
    func descendants(matching type: XCUIElement.ElementType) -> XCUIElementQuery
  }

  extension ShimQuerySource {
    public var touchBars: XCUIElementQuery { descendants(matching: .touchBar) }
    public var groups: XCUIElementQuery { descendants(matching: .group) }
    public var windows: XCUIElementQuery { descendants(matching: .window) }
    public var sheets: XCUIElementQuery { descendants(matching: .sheet) }
    public var drawers: XCUIElementQuery { descendants(matching: .drawer) }
    public var alerts: XCUIElementQuery { descendants(matching: .alert) }
    public var dialogs: XCUIElementQuery { descendants(matching: .dialog) }
    public var buttons: XCUIElementQuery { descendants(matching: .button) }
    public var radioButtons: XCUIElementQuery { descendants(matching: .radioButton) }
    public var radioGroups: XCUIElementQuery { descendants(matching: .radioGroup) }
    public var checkBoxes: XCUIElementQuery { descendants(matching: .checkBox) }
    public var disclosureTriangles: XCUIElementQuery { descendants(matching: .disclosureTriangle) }
    public var popUpButtons: XCUIElementQuery { descendants(matching: .popUpButton) }
    public var comboBoxes: XCUIElementQuery { descendants(matching: .comboBox) }
    public var menuButtons: XCUIElementQuery { descendants(matching: .menuButton) }
    public var toolbarButtons: XCUIElementQuery { descendants(matching: .toolbarButton) }
    public var popovers: XCUIElementQuery { descendants(matching: .popover) }
    public var keyboards: XCUIElementQuery { descendants(matching: .keyboard) }
    public var keys: XCUIElementQuery { descendants(matching: .key) }
    public var navigationBars: XCUIElementQuery { descendants(matching: .navigationBar) }
    public var tabBars: XCUIElementQuery { descendants(matching: .tabBar) }
    public var tabGroups: XCUIElementQuery { descendants(matching: .tabGroup) }
    public var toolbars: XCUIElementQuery { descendants(matching: .toolbar) }
    public var statusBars: XCUIElementQuery { descendants(matching: .statusBar) }
    public var tables: XCUIElementQuery { descendants(matching: .table) }
    public var tableRows: XCUIElementQuery { descendants(matching: .tableRow) }
    public var tableColumns: XCUIElementQuery { descendants(matching: .tableColumn) }
    public var outlines: XCUIElementQuery { descendants(matching: .outline) }
    public var outlineRows: XCUIElementQuery { descendants(matching: .outlineRow) }
    public var browsers: XCUIElementQuery { descendants(matching: .browser) }
    public var collectionViews: XCUIElementQuery { descendants(matching: .collectionView) }
    public var sliders: XCUIElementQuery { descendants(matching: .slider) }
    public var pageIndicators: XCUIElementQuery { descendants(matching: .pageIndicator) }
    public var progressIndicators: XCUIElementQuery { descendants(matching: .progressIndicator) }
    public var activityIndicators: XCUIElementQuery { descendants(matching: .activityIndicator) }
    public var segmentedControls: XCUIElementQuery { descendants(matching: .segmentedControl) }
    public var pickers: XCUIElementQuery { descendants(matching: .picker) }
    public var pickerWheels: XCUIElementQuery { descendants(matching: .pickerWheel) }
    public var switches: XCUIElementQuery { descendants(matching: .switch) }
    public var toggles: XCUIElementQuery { descendants(matching: .toggle) }
    public var links: XCUIElementQuery { descendants(matching: .link) }
    public var images: XCUIElementQuery { descendants(matching: .image) }
    public var icons: XCUIElementQuery { descendants(matching: .icon) }
    public var searchFields: XCUIElementQuery { descendants(matching: .searchField) }
    public var scrollViews: XCUIElementQuery { descendants(matching: .scrollView) }
    public var scrollBars: XCUIElementQuery { descendants(matching: .scrollBar) }
    public var staticTexts: XCUIElementQuery { descendants(matching: .staticText) }
    public var textFields: XCUIElementQuery { descendants(matching: .textField) }
    public var secureTextFields: XCUIElementQuery { descendants(matching: .secureTextField) }
    public var datePickers: XCUIElementQuery { descendants(matching: .datePicker) }
    public var textViews: XCUIElementQuery { descendants(matching: .textView) }
    public var menus: XCUIElementQuery { descendants(matching: .menu) }
    public var menuItems: XCUIElementQuery { descendants(matching: .menuItem) }
    public var menuBars: XCUIElementQuery { descendants(matching: .menuBar) }
    public var menuBarItems: XCUIElementQuery { descendants(matching: .menuBarItem) }
    public var maps: XCUIElementQuery { descendants(matching: .map) }
    public var webViews: XCUIElementQuery { descendants(matching: .webView) }
    public var steppers: XCUIElementQuery { descendants(matching: .stepper) }
    public var incrementArrows: XCUIElementQuery { descendants(matching: .incrementArrow) }
    public var decrementArrows: XCUIElementQuery { descendants(matching: .decrementArrow) }
    public var tabs: XCUIElementQuery { descendants(matching: .tab) }
    public var timelines: XCUIElementQuery { descendants(matching: .timeline) }
    public var ratingIndicators: XCUIElementQuery { descendants(matching: .ratingIndicator) }
    public var valueIndicators: XCUIElementQuery { descendants(matching: .valueIndicator) }
    public var splitGroups: XCUIElementQuery { descendants(matching: .splitGroup) }
    public var splitters: XCUIElementQuery { descendants(matching: .splitter) }
    public var relevanceIndicators: XCUIElementQuery { descendants(matching: .relevanceIndicator) }
    public var colorWells: XCUIElementQuery { descendants(matching: .colorWell) }
    public var helpTags: XCUIElementQuery { descendants(matching: .helpTag) }
    public var mattes: XCUIElementQuery { descendants(matching: .matte) }
    public var dockItems: XCUIElementQuery { descendants(matching: .dockItem) }
    public var rulers: XCUIElementQuery { descendants(matching: .ruler) }
    public var rulerMarkers: XCUIElementQuery { descendants(matching: .rulerMarker) }
    public var grids: XCUIElementQuery { descendants(matching: .grid) }
    public var levelIndicators: XCUIElementQuery { descendants(matching: .levelIndicator) }
    public var cells: XCUIElementQuery { descendants(matching: .cell) }
    public var layoutAreas: XCUIElementQuery { descendants(matching: .layoutArea) }
    public var layoutItems: XCUIElementQuery { descendants(matching: .layoutItem) }
    public var handles: XCUIElementQuery { descendants(matching: .handle) }
    public var otherElements: XCUIElementQuery { descendants(matching: .other) }
    public var statusItems: XCUIElementQuery { descendants(matching: .statusItem) }
  }

  // MARK: - XCUIElement

  /// CoreGraphics' CGVector (not in swift-corelibs-foundation): a normalized offset for
  /// `coordinate(withNormalizedOffset:)`.
  public struct CGVector: Equatable, Sendable {
    public var dx: CGFloat
    public var dy: CGFloat
    public init(dx: CGFloat, dy: CGFloat) {
      self.dx = dx
      self.dy = dy
    }
  }

  /// XCUIGestureVelocity: points per second (`.default`, `.slow`, `.fast`).
  public struct XCUIGestureVelocity: RawRepresentable, Hashable, Sendable {
    public var rawValue: CGFloat
    public init(rawValue: CGFloat) { self.rawValue = rawValue }
    public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
    public static let `default` = XCUIGestureVelocity(0)
    public static let slow = XCUIGestureVelocity(500)
    public static let fast = XCUIGestureVelocity(2500)
  }

  @preconcurrency @MainActor
  open class XCUIElement: NSObject, XCUIElementAttributes, XCUIElementSnapshotProviding, XCUIScreenshotProviding,
    ShimQuerySource
  {
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

    /// XCUIElement.SizeClass (`unspecified`, `compact`, `regular`).
    public enum SizeClass: Int, Sendable {
      case unspecified = 0
      case compact, regular
    }

    /// XCUIElement.AttributeName: string constants keying `dictionaryRepresentation`.
    public struct AttributeName: Hashable, RawRepresentable, Sendable {
      public var rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
    }

    let lookup: @MainActor () -> ShimElementSnapshot?
    /// How the element reads in `actions` (its identifier, or its label).
    private let name: String

    init(name: String, lookup: @escaping @MainActor () -> ShimElementSnapshot?) {
      self.name = name
      self.lookup = lookup
    }

    public var exists: Bool { lookup() != nil }
    public var isHittable: Bool { lookup().map { $0.isEnabled && $0.frame.width > 0 && $0.frame.height > 0 } ?? false }
    public var identifier: String { lookup()?.identifier ?? "" }
    public var frame: CGRect { lookup()?.frame ?? .zero }
    public var value: Any? { lookup()?.value }
    public var title: String { lookup()?.title ?? "" }
    public var label: String { lookup()?.label ?? "" }
    public var elementType: ElementType { lookup()?.elementType ?? .any }
    public var isEnabled: Bool { lookup()?.isEnabled ?? false }
    public var horizontalSizeClass: SizeClass { .unspecified }
    public var verticalSizeClass: SizeClass { .unspecified }
    public var placeholderValue: String? { lookup()?.placeholderValue }
    public var isSelected: Bool { lookup()?.isSelected ?? false }
    public var hasFocus: Bool { false }
    open override var debugDescription: String { "\(elementType) '\(name)'" }

    /// `firstMatch` of an element: the element itself.
    public var firstMatch: XCUIElement { self }

    public func descendants(matching type: ElementType) -> XCUIElementQuery {
      let lookup = self.lookup
      return XCUIElementQuery { lookup().map { ShimElementSnapshot.descendants(of: $0, matching: type) } ?? [] }
    }

    public func children(matching type: ElementType) -> XCUIElementQuery {
      let lookup = self.lookup
      return XCUIElementQuery {
        lookup()?.shimChildren.filter { type == .any || $0.elementType == type } ?? []
      }
    }

    public func snapshot() throws -> any XCUIElementSnapshot {
      guard let node = lookup() else { throw ShimError.noSuchElement(name) }
      return node
    }

    public func screenshot() -> XCUIScreenshot { XCUIScreenshot(png: XCUIShimWorld.screenshotPNG) }

    /// Waits the specified amount of time for the element to exist (the shim's screen does not
    /// change while a test waits: the answer is immediate).
    public func waitForExistence(timeout: TimeInterval) -> Bool { exists }
    /// Waits the specified amount of time for the element to stop existing.
    public func waitForNonExistence(timeout: TimeInterval) -> Bool { !exists }

    public func tap() { act("tap") }
    public func doubleTap() { act("doubleTap") }
    public func twoFingerTap() { act("twoFingerTap") }
    public func tap(withNumberOfTaps numberOfTaps: Int, numberOfTouches: Int) {
      act("tap \(numberOfTaps)x\(numberOfTouches)")
    }
    public func press(forDuration duration: TimeInterval) { act("press") }
    public func press(forDuration duration: TimeInterval, thenDragTo otherElement: XCUIElement) { act("pressDrag") }
    public func typeText(_ text: String) { act("typeText", "\"\(text)\"") }
    public func swipeUp() { act("swipeUp") }
    public func swipeDown() { act("swipeDown") }
    public func swipeLeft() { act("swipeLeft") }
    public func swipeRight() { act("swipeRight") }
    public func swipeUp(velocity: XCUIGestureVelocity) { act("swipeUp") }
    public func swipeDown(velocity: XCUIGestureVelocity) { act("swipeDown") }
    public func swipeLeft(velocity: XCUIGestureVelocity) { act("swipeLeft") }
    public func swipeRight(velocity: XCUIGestureVelocity) { act("swipeRight") }
    public func pinch(withScale scale: CGFloat, velocity: CGFloat) { act("pinch") }
    public func rotate(_ rotation: CGFloat, withVelocity velocity: XCUIGestureVelocity) { act("rotate") }
    public func adjust(toNormalizedSliderPosition normalizedSliderPosition: CGFloat) { act("adjust") }
    public func adjust(toPickerWheelValue pickerWheelValue: String) { act("adjust", pickerWheelValue) }

    public func coordinate(withNormalizedOffset normalizedOffset: CGVector) -> XCUICoordinate {
      XCUICoordinate(element: self, normalizedOffset: normalizedOffset)
    }

    fileprivate func act(_ action: String, _ detail: String? = nil) {
      XCUIShimWorld.actions.append([action, name, detail].compactMap { $0 }.joined(separator: " "))
    }
  }

  /// XCUICoordinate: a location on screen relative to an element.
  @preconcurrency @MainActor public final class XCUICoordinate: NSObject {
    public let element: XCUIElement
    private let normalizedOffset: CGVector
    init(element: XCUIElement, normalizedOffset: CGVector) {
      self.element = element
      self.normalizedOffset = normalizedOffset
    }
    public var screenPoint: CGPoint {
      let frame = element.frame
      return CGPoint(
        x: frame.minX + frame.width * normalizedOffset.dx, y: frame.minY + frame.height * normalizedOffset.dy)
    }
    public func withOffset(_ offsetVector: CGVector) -> XCUICoordinate { self }
    public func tap() { element.act("tap") }
    public func press(forDuration duration: TimeInterval, thenDragTo otherCoordinate: XCUICoordinate) {
      element.act("pressDrag")
    }
  }

  // MARK: - XCUIApplication

  @preconcurrency @MainActor open class XCUIApplication: XCUIElement {
    /// XCUIApplication.State, as Apple numbers it.
    public enum State: UInt, Sendable {
      case unknown = 0
      case notRunning, runningBackgroundSuspended, runningBackground, runningForeground
    }

    public var launchArguments: [String] = []
    public var launchEnvironment: [String: String] = [:]
    public private(set) var state: State = .notRunning
    public let bundleIdentifier: String?

    public init() {
      bundleIdentifier = nil
      super.init(name: "application") { XCUIShimWorld.currentApplication() }
    }

    public init(bundleIdentifier: String) {
      self.bundleIdentifier = bundleIdentifier
      let springBoard = bundleIdentifier == "com.apple.springboard"
      super.init(name: bundleIdentifier) {
        springBoard ? XCUIShimWorld.springBoard() : XCUIShimWorld.currentApplication()
      }
    }

    public func launch() {
      XCUIShimWorld.launches.append((launchArguments, launchEnvironment))
      state = .runningForeground
      ShimApp.launch()
    }

    public func activate() { state = .runningForeground }
    public func terminate() { state = .notRunning }
    public func wait(for state: State, timeout: TimeInterval) -> Bool { self.state == state }
  }

  // MARK: - XCUIElementQuery

  @preconcurrency @MainActor public final class XCUIElementQuery: NSObject, ShimQuerySource {
    private let resolve: @MainActor () -> [ShimElementSnapshot]

    init(resolve: @escaping @MainActor () -> [ShimElementSnapshot]) {
      self.resolve = resolve
    }

    public var count: Int { resolve().count }
    public var allElementsBoundByIndex: [XCUIElement] { (0..<count).map { element(boundBy: $0) } }
    public var allElementsBoundByAccessibilityElement: [XCUIElement] { allElementsBoundByIndex }

    public var firstMatch: XCUIElement {
      let resolve = self.resolve
      return XCUIElement(name: "firstMatch") { resolve().first }
    }

    /// The query's single matching element (nil behind it when there are none or several).
    public var element: XCUIElement {
      let resolve = self.resolve
      return XCUIElement(name: "element") {
        let all = resolve()
        return all.count == 1 ? all[0] : nil
      }
    }

    public func element(boundBy index: Int) -> XCUIElement {
      let resolve = self.resolve
      return XCUIElement(name: "element \(index)") {
        let all = resolve()
        return index >= 0 && index < all.count ? all[index] : nil
      }
    }

    public func element(matching elementType: XCUIElement.ElementType, identifier: String?) -> XCUIElement {
      matching(elementType, identifier: identifier).firstMatch
    }

    /// A descendant element that matches `key` by identifier, title, label, value or placeholder.
    public subscript(key: String) -> XCUIElement {
      let resolve = self.resolve
      return XCUIElement(name: key) { resolve().first { $0.isIdentified(by: key) } }
    }

    public func matching(identifier: String) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery { resolve().filter { $0.isIdentified(by: identifier) } }
    }

    public func matching(_ elementType: XCUIElement.ElementType, identifier: String?) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery {
        resolve().filter {
          (elementType == .any || $0.elementType == elementType) && (identifier.map($0.isIdentified(by:)) ?? true)
        }
      }
    }

    /// The elements matching `predicate`, evaluated with each element's snapshot (the shim's
    /// Foundation evaluates block predicates; Apple's also evaluates format strings).
    public func matching(_ predicate: NSPredicate) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery { resolve().filter { predicate.evaluate(with: $0) } }
    }

    public func element(matching predicate: NSPredicate) -> XCUIElement {
      matching(predicate).firstMatch
    }

    public func containing(_ predicate: NSPredicate) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery {
        resolve().filter { node in
          ShimElementSnapshot.descendants(of: node, matching: .any).contains { predicate.evaluate(with: $0) }
        }
      }
    }

    public func containing(_ elementType: XCUIElement.ElementType, identifier: String?) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery {
        resolve().filter { node in
          ShimElementSnapshot.descendants(of: node, matching: elementType).contains {
            identifier.map($0.isIdentified(by:)) ?? true
          }
        }
      }
    }

    public func descendants(matching type: XCUIElement.ElementType) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery { resolve().flatMap { ShimElementSnapshot.descendants(of: $0, matching: type) } }
    }

    public func children(matching type: XCUIElement.ElementType) -> XCUIElementQuery {
      let resolve = self.resolve
      return XCUIElementQuery {
        resolve().flatMap { $0.shimChildren.filter { type == .any || $0.elementType == type } }
      }
    }
  }

  // MARK: - Screen, screenshot, device

  @preconcurrency @MainActor public final class XCUIScreen: NSObject, XCUIScreenshotProviding {
    public static var main: XCUIScreen { XCUIScreen() }
    public static var screens: [XCUIScreen] { [XCUIScreen()] }
    public func screenshot() -> XCUIScreenshot { XCUIScreenshot(png: XCUIShimWorld.screenshotPNG) }
  }

  /// XCUIScreenshot: "A captured image of a screen, app, or UI element state" (`@MainActor class`).
  @preconcurrency @MainActor public final class XCUIScreenshot: NSObject {
    public let pngRepresentation: Data
    init(png: Data) { pngRepresentation = png }
  }

  /// UIKit's UIDeviceOrientation, which `XCUIDevice.orientation` reads and sets.
  public enum UIDeviceOrientation: Int, Sendable {
    case unknown = 0
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
  }

  @preconcurrency @MainActor public final class XCUIDevice: NSObject {
    /// XCUIDevice.Button: the device's physical buttons.
    public enum Button: Int, Sendable {
      case home = 1
      case volumeUp, volumeDown
    }
    public static let shared = XCUIDevice()
    public var orientation: UIDeviceOrientation = .portrait
    public func press(_ button: Button) { XCUIShimWorld.actions.append("press \(button)") }
  }

  // MARK: - XCTest attachments (not in swift-corelibs-xctest)

  /// XCTAttachment: "Data from a test method's execution, such as a file, image, screenshot…".
  public final class XCTAttachment: NSObject {
    /// XCTAttachment.Lifetime: whether Xcode keeps the attachment when the test passes.
    public enum Lifetime: Int, Sendable {
      case keepAlways = 0
      case deleteOnSuccess = 1
    }
    public var name: String?
    public var lifetime: Lifetime = .deleteOnSuccess
    public let data: Data
    public let uniformTypeIdentifier: String

    public init(data payload: Data, uniformTypeIdentifier identifier: String) {
      data = payload
      uniformTypeIdentifier = identifier
    }
  }

  extension XCTAttachment {
    /// An attachment of a screenshot (PNG).
    public convenience init(screenshot: XCUIScreenshot) {
      self.init(data: screenshot.pngRepresentation, uniformTypeIdentifier: "public.png")
    }

    /// An attachment of text.
    public convenience init(string: String) {
      self.init(data: Data(string.utf8), uniformTypeIdentifier: "public.plain-text")
    }

    /// An attachment of data.
    public convenience init(data payload: Data) {
      self.init(data: payload, uniformTypeIdentifier: "public.data")
    }
  }

  /// What Apple's XCTestCase adds for UI tests and activities: attachments (Apple's XCTestCase is
  /// an XCTActivity; corelibs' is no NSObject, so only the method is declared here) and UI
  /// interruption monitors.
  extension XCTestCase {
    public func add(_ attachment: XCTAttachment) {
      let name = self.name
      MainActorHop.run { XCUIShimWorld.attachments.append((name, attachment)) }
    }

    @discardableResult
    public func addUIInterruptionMonitor(
      withDescription handlerDescription: String, handler: @escaping (XCUIElement) -> Bool
    ) -> any NSObjectProtocol {
      NSObject()
    }

    public func removeUIInterruptionMonitor(_ monitor: any NSObjectProtocol) {}
  }

  /// XCTActivity: "A named substep of a test method" (`add(_:)` an attachment).
  public protocol XCTActivity: NSObjectProtocol {
    var name: String { get }
    func add(_ attachment: XCTAttachment)
  }

  /// XCTContext: `@MainActor @preconcurrency class func runActivity(named:block:)`.
  public final class XCTContext: NSObject {
    @MainActor @preconcurrency
    public class func runActivity<Result>(named name: String, block: @MainActor (any XCTActivity) throws -> Result)
      rethrows -> Result
    {
      try block(ShimActivity(name: name))
    }
  }

  @MainActor private final class ShimActivity: NSObject, XCTActivity {
    let name: String
    init(name: String) { self.name = name }
    nonisolated func add(_ attachment: XCTAttachment) {
      let name = self.name
      // Apple's XCTActivity.add may be called from any thread.
      MainActor.assumeIsolated { XCUIShimWorld.attachments.append((name, attachment)) }
    }
  }

  // MARK: - Snapshots the shim hands out

  enum ShimError: Error { case noSuchElement(String) }

  /// An element snapshot the shim hands out.
  @MainActor public final class ShimElementSnapshot: XCUIElementSnapshot {
    public var identifier: String
    public var frame: CGRect
    public var value: Any?
    public var title = ""
    public var label: String
    public var elementType: XCUIElement.ElementType
    public var isEnabled: Bool
    public var horizontalSizeClass: XCUIElement.SizeClass = .unspecified
    public var verticalSizeClass: XCUIElement.SizeClass = .unspecified
    public var placeholderValue: String?
    public var isSelected: Bool
    public var hasFocus = false
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

    /// XCUITest's identifying properties: identifier, title, label, value, placeholder.
    func isIdentified(by key: String) -> Bool {
      identifier == key || (!title.isEmpty && title == key) || label == key
        || (value.map { "\($0)" == key } ?? false) || placeholderValue == key
    }

    /// Every descendant of `node` (not `node` itself) of `type`, depth first.
    static func descendants(of node: ShimElementSnapshot, matching type: XCUIElement.ElementType)
      -> [ShimElementSnapshot]
    {
      node.shimChildren.flatMap { child in
        (type == .any || child.elementType == type ? [child] : []) + descendants(of: child, matching: type)
      }
    }
  }
#endif
