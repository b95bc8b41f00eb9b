// The XCUITest shooter: Apple platforms only (XCUIApplication exists in UI-test bundles on iOS,
// tvOS and macOS). It only reads XCUITest's values; every decision is in XCUIElementValues.swift
// (compiled and tested everywhere). On Linux, Tests/XCUITestShimTests compiles this same file
// against a shim that declares these XCUITest symbols as Apple documents them
// (SNAPDIFF_XCUI_SHIM, Linux only; on a Mac that target leaves this file to SnapdiffTesting).
#if SNAPDIFF_XCUI_SHIM || (!SNAPDIFF_XCUI_SHIM_TARGET && canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS)))
  import Foundation
  import SnapdiffModel
  #if SNAPDIFF_XCUI_SHIM
    import SnapdiffTesting
  #else
    import XCTest
  #endif

  extension SnapShooter {
    /// The screen as the app's user sees it: `XCUIScreen.main`'s screenshot (PNG bytes as
    /// XCUITest makes them) and `app`'s element tree from `XCUIApplication.snapshot()`, in
    /// points with the screenshot's scale.
    ///
    /// ```swift
    /// var snapShooter: SnapShooter? { .xcuiScreen(app) }
    /// ```
    ///
    /// - Parameters:
    ///   - app: the application under test.
    ///   - statusBar: what to do with the status bar's clock and battery (default: mask it).
    ///   - includeTree: also capture the element tree (element masks, layout comparison, text
    ///     as text); off, only the screenshot is taken.
    public static func xcuiScreen(
      _ app: XCUIApplication, statusBar: StatusBarPolicy = .mask, includeTree: Bool = true
    ) -> SnapShooter {
      SnapShooter(name: "XCUIScreen") {
        // XCUITest runs a test's body on the main thread, where its elements must be read.
        try MainActor.assumeIsolated {
          let png = [UInt8](XCUIScreen.main.screenshot().pngRepresentation)
          let application = XCUIElementValues(try app.snapshot())
          let tree = try XCUICapture.tree(of: application, screenshotSize: PNGHeaderSize.read(png))
          let statusBarFrame = statusBar == .mask ? XCUIStatusBar.frame() : nil
          let masked = statusBar.ignoredArea(statusBarFrame: statusBarFrame, screenWidth: tree.screen.width)
          return CapturedFrame(
            png: png, tree: includeTree ? tree : nil, source: "XCUIScreen",
            ignoredAreas: masked.map { [$0] } ?? [])
        }
      }
    }
  }

  extension XCUIElementValues {
    /// Reads an element snapshot's attributes and its descendants' (XCUIElementAttributes).
    @MainActor public init(_ snapshot: any XCUIElementSnapshot) {
      self.init(
        elementTypeRawValue: snapshot.elementType.rawValue, identifier: snapshot.identifier, label: snapshot.label,
        value: snapshot.value.map { String(describing: $0) }, placeholderValue: snapshot.placeholderValue,
        frame: ElementFrame(snapshot.frame), isEnabled: snapshot.isEnabled, isSelected: snapshot.isSelected,
        children: snapshot.children.map { XCUIElementValues($0) })
    }
  }

  /// An `XCUIElement` in a page's `ignoredElements` masks its frame when the snapshot is taken;
  /// an element that does not exist then masks nothing.
  extension XCUIElement: IgnorableElement {
    nonisolated public var ignoredArea: IgnoredArea? {
      MainActor.assumeIsolated { exists ? .points(ElementFrame(frame)) : nil }
    }
  }

  extension ElementType {
    /// snapdiff's name for an XCUITest element type (`XCUIElement.ElementType.button` → `.button`).
    public init(_ type: XCUIElement.ElementType) {
      self.init(xcuiRawValue: type.rawValue)
    }
  }

  extension ElementFrame {
    /// An XCUITest frame (a `CGRect` in points).
    public init(_ rect: CGRect) {
      self.init(
        x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width),
        height: Double(rect.size.height))
    }
  }

  /// The system status bar, which on iOS belongs to SpringBoard rather than to the app.
  enum XCUIStatusBar {
    @MainActor static func frame() -> ElementFrame? {
      #if os(iOS) || SNAPDIFF_XCUI_SHIM
        let bar = XCUIApplication(bundleIdentifier: "com.apple.springboard").statusBars.firstMatch
        return bar.exists ? ElementFrame(bar.frame) : nil
      #else
        return nil
      #endif
    }
  }
#endif
