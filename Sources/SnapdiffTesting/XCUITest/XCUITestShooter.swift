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

  #if os(macOS) && !SNAPDIFF_XCUI_SHIM
    import AppKit
  #endif

  extension SnapShooter {
    /// The screen as the app's user sees it: `XCUIScreen.main`'s screenshot (PNG bytes as
    /// XCUITest makes them) and `app`'s element tree from `XCUIApplication.snapshot()`, in
    /// points with the screenshot's scale. The app may fill the screen or not (iPad Split View,
    /// Slide Over, Stage Manager, a macOS window): its elements are placed where they are in the
    /// screenshot (``XCUICapture/geometry(screenshotSize:application:screen:)``).
    ///
    /// ```swift
    /// var snapShooter: SnapShooter? { .xcuiScreen(app) }
    /// ```
    ///
    /// XCUITest's objects belong to the main actor; the capture reads them there from whatever
    /// thread takes the snapshot (``MainActorHop``), so an `async` test method off the main
    /// thread works as a synchronous one does.
    ///
    /// - Parameters:
    ///   - app: the application under test.
    ///   - statusBar: what to do with the status bar's clock and battery (default: mask it).
    ///   - includeTree: also keep the element tree with the frame (element masks, layout
    ///     comparison, text as text); off, only the screenshot is kept, and masks in points
    ///     still land at the screenshot's scale.
    public static func xcuiScreen(
      _ app: XCUIApplication, statusBar: StatusBarPolicy = .mask, includeTree: Bool = true
    ) -> SnapShooter {
      SnapShooter(name: "XCUIScreen") {
        try MainActorHop.run {
          let png = [UInt8](XCUIScreen.main.screenshot().pngRepresentation)
          let application = XCUIElementValues(try app.snapshot())
          let geometry = try XCUICapture.geometry(
            screenshotSize: PNGHeaderSize.read(png), application: application.frame, screen: XCUIScreenSize.points())
          let tree = XCUICapture.tree(of: application, geometry: geometry)
          let statusBarFrame = statusBar == .mask ? XCUIStatusBar.frame() : nil
          let masked = statusBar.ignoredArea(statusBarFrame: statusBarFrame, screenWidth: tree.screen.width)
          return CapturedFrame(
            png: png, tree: includeTree ? tree : nil, source: "XCUIScreen",
            ignoredAreas: masked.map { [$0] } ?? [], pointScale: Double(geometry.scale))
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
      MainActorHop.run { exists ? .points(ElementFrame(frame)) : nil }
    }
  }

  /// An `XCUIElement` as the target of `takeSnapshot(_:of:)` takes its own screenshot: XCUITest
  /// cuts it to the element's frame, so no PNG is decoded in the test bundle.
  extension XCUIElement: SelfCapturingElement {
    nonisolated public func elementScreenshotPNG() -> [UInt8]? {
      MainActorHop.run { exists ? [UInt8](screenshot().pngRepresentation) : nil }
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

  /// The size of the screen `XCUIScreen.main` takes, in points: SpringBoard's frame on iOS, the
  /// display with the menu bar on macOS; nil where neither is known (then the app must fill the
  /// screenshot).
  enum XCUIScreenSize {
    @MainActor static func points() -> ElementTree.Size? {
      #if os(iOS) || SNAPDIFF_XCUI_SHIM
        let springBoard = XCUIApplication(bundleIdentifier: "com.apple.springboard")
        guard springBoard.exists else { return nil }
        let frame = springBoard.frame
        return frame.width > 0 && frame.height > 0
          ? ElementTree.Size(width: Double(frame.width), height: Double(frame.height)) : nil
      #elseif os(macOS)
        // XCUIScreen.main is "the screen that owns the menu bar": NSScreen.screens' first.
        guard let frame = NSScreen.screens.first?.frame else { return nil }
        return ElementTree.Size(width: Double(frame.width), height: Double(frame.height))
      #else
        return nil
      #endif
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
