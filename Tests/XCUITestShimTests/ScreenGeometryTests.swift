#if os(Linux)
  import Foundation
  import SnapdiffModel
  import SnapdiffTestSupport
  import SnapdiffTesting
  import XCTest

  /// Where the app's frame lies in the screenshot: masks at the screenshot's real scale with or
  /// without a tree, an app narrower than the screen (iPad Split View, Slide Over), landscape,
  /// a macOS window on its display; Display Zoom refused with the reason. Through the shooter
  /// and the shim where XCUITest reads something, through `XCUICapture` where it decides.
  final class ScreenGeometryTests: XCTestCase {
    private var scratch = ""

    override func setUp() {
      super.setUp()
      scratch = NSTemporaryDirectory() + "snapdiff-geometry-\(UUID().uuidString)"
    }

    override func tearDown() {
      try? FileManager.default.removeItem(atPath: scratch)
      super.tearDown()
    }

    /// A page of the shim's app whose masks are an `XCUIElement` and the status bar.
    final class ClockPage: SnapshotPage {
      let includeTree: Bool
      init(includeTree: Bool) { self.includeTree = includeTree }
      var id: String { "clock" }
      var snapShooter: SnapShooter? { .xcuiScreen(app, includeTree: includeTree) }
      var ignoredElements: [XCUIElement] { [app.staticTexts["clock"]] }
    }

    /// A page that declares its regions with `XCUIElement`s, as an iOS suite does.
    final class RegionsPage: SnapshotPage {
      var id: String { "regions" }
      var snapShooter: SnapShooter? { .xcuiScreen(app) }
      var checkRegions: [PageRegion] { [.floating(app.staticTexts["clock"], by: 3)] }
      var contrastRegions: [PageContrastRegion] {
        [.largeText(app.staticTexts["clock"]), .ignoreContrast(app.staticTexts["noSuchElement"])]
      }
    }

    func test_xcuiElementsDeclareRegionsAndContrastRegionsAtTheScreenshotsScale() throws {
      let tree = screen(scale: 2)
      MainActor.assumeIsolated {
        ShimScreen.show(tree, screenshot: ShimScreen.blank(width: 240, height: 400), statusBar: nil)
      }
      let controller = SnapshotController(testName: "test_regions", checker: .frames(scratch), allowsEveryPage: true)
      let callRegion = MainActor.assumeIsolated { PageRegion.ignore(app.staticTexts["clock"]) }
      let verdict = controller.takeSnapshot(
        "Clock", id: "Regions", page: RegionsPage(), in: self, checkRegions: [callRegion])
      XCTAssertEqual(verdict.status, .written, "\(verdict)")
      let settings = try JSONDecoder().decode(
        SnapshotSettings.self,
        from: Data(contentsOf: URL(fileURLWithPath: scratch + "/Regions - test_regions/Clock.snapdiff.json")))
      // The clock (4, 2, 40×16 pt) in pixels at 2×; an element that does not exist holds nothing.
      let clock = PixelRect(x: 8, y: 4, width: 80, height: 32)
      XCTAssertEqual(
        settings.regions, [.floating(.pixels(clock), offsets: .init(all: 3)), CheckRegion(.ignore, .pixels(clock))])
      XCTAssertEqual(settings.contrastRegions, [ContrastRegion(kind: .largeText, area: .pixels(clock))])
    }

    private func screen(scale: Int) -> ElementTree {
      ElementTree(
        scale: scale, screen: .init(width: 120, height: 200),
        root: Element(
          elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 120, height: 200),
          children: [
            Element(
              identifier: "clock", elementType: .staticText, label: "9:41",
              frame: ElementFrame(x: 4, y: 2, width: 40, height: 16))
          ]))
    }

    func test_masksLandAtTheScreenshotsScaleWithAndWithoutATree() throws {
      for scale in [2, 3] {
        for includeTree in [false, true] {
          let tree = screen(scale: scale)
          MainActor.assumeIsolated {
            ShimScreen.show(
              tree, screenshot: ShimScreen.blank(width: 120 * scale, height: 200 * scale),
              statusBar: CGRect(x: 0, y: 0, width: 120, height: 10))
          }
          let controller = SnapshotController(testName: "test_masks", checker: .frames(scratch), allowsEveryPage: true)
          let verdict = controller.takeSnapshot(
            "Clock", id: "Masks", page: ClockPage(includeTree: includeTree), in: self)
          XCTAssertEqual(verdict.status, .written, "\(verdict)")
          let settings = try JSONDecoder().decode(
            SnapshotSettings.self,
            from: Data(contentsOf: URL(fileURLWithPath: scratch + "/Masks - test_masks/Clock.snapdiff.json")))
          // The status bar (120×10 pt) and the clock (4, 2, 40×16 pt), in pixels at the scale.
          XCTAssertEqual(
            settings.ignoreRegions,
            [
              PixelRect(x: 0, y: 0, width: 120 * scale, height: 10 * scale),
              PixelRect(x: 4 * scale, y: 2 * scale, width: 40 * scale, height: 16 * scale),
            ], "scale \(scale), tree \(includeTree)")
          XCTAssertEqual(
            FileManager.default.fileExists(atPath: scratch + "/Masks - test_masks/Clock.tree.json"), includeTree)
        }
      }
    }

    func test_anAppNarrowerThanTheScreenIsPlacedWhereItIs() throws {
      // As on an iPad at 2× (a small screen, 200×300 points, to keep the test's PNG small):
      // Split View, the app in the left half; Slide Over, a narrow window at the right, below
      // the status bar.
      let ipad = ElementTree.Size(width: 200, height: 300)
      for appFrame in [
        CGRect(x: 0, y: 0, width: 99, height: 300), CGRect(x: 130, y: 12, width: 60, height: 280),
      ] {
        let tree = ElementTree(
          scale: 2, screen: ipad,
          root: Element(
            elementType: .application,
            frame: ElementFrame(x: 0, y: 0, width: Double(appFrame.width), height: Double(appFrame.height)),
            children: [
              Element(
                identifier: "clock", elementType: .staticText,
                frame: ElementFrame(x: Double(appFrame.minX) + 10, y: Double(appFrame.minY) + 10, width: 40, height: 16)
              )
            ]))
        let frame = try MainActor.assumeIsolated {
          ShimScreen.show(
            tree, screenshot: ShimScreen.blank(width: 400, height: 600), appFrame: appFrame,
            springBoard: CGRect(x: 0, y: 0, width: 200, height: 300))
          return try SnapShooter.xcuiScreen(XCUIApplication(), statusBar: .keep).capture()
        }
        let captured = try XCTUnwrap(frame.tree)
        XCTAssertEqual(captured.scale, 2)
        XCTAssertEqual(captured.screen, ipad)
        XCTAssertEqual(captured.root.frame, ElementFrame(appFrame))
        let clock = try XCTUnwrap(captured.root.allElements().first { $0.identifier == "clock" })
        XCTAssertEqual(
          SnapshotMasks([.points(clock.frame)], scale: frame.scale).regions,
          [PixelRect(x: 2 * Int(appFrame.minX) + 20, y: 2 * Int(appFrame.minY) + 20, width: 80, height: 32)])
      }
    }

    func test_landscape() throws {
      // A phone in landscape at 3× (160×90 points, to keep the PNG small): frames and screenshot
      // both landscape, SpringBoard's frame portrait.
      let phone = ElementTree(
        scale: 3, screen: .init(width: 160, height: 90),
        root: Element(elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 160, height: 90)))
      let frame = try MainActor.assumeIsolated {
        ShimScreen.show(
          phone, screenshot: ShimScreen.blank(width: 480, height: 270),
          springBoard: CGRect(x: 0, y: 0, width: 90, height: 160))
        return try SnapShooter.xcuiScreen(XCUIApplication(), statusBar: .keep, includeTree: false).capture()
      }
      XCTAssertEqual(frame.scale, 3)
      XCTAssertNil(frame.tree)
      // An iPad in landscape with the app in Split View, SpringBoard's frame portrait.
      let geometry = try XCUICapture.geometry(
        screenshotSize: PixelSize(width: 2732, height: 2048),
        application: ElementFrame(x: 0, y: 0, width: 678, height: 1024), screen: .init(width: 1024, height: 1366))
      XCTAssertEqual(geometry, ScreenGeometry(scale: 2, screen: .init(width: 1366, height: 1024)))
      // Landscape frames in a portrait screenshot: which way to turn them is not known, so the
      // frame is refused rather than masked in the wrong place.
      XCTAssertThrowsError(
        try XCUICapture.geometry(
          screenshotSize: PixelSize(width: 1170, height: 2532),
          application: ElementFrame(x: 0, y: 0, width: 844, height: 390), screen: .init(width: 390, height: 844))
      ) {
        XCTAssertEqual(
          "\($0)",
          "the app's frame 844×390 points at (0, 0) lies outside the screenshot, 390×844 points at scale 3 (is the device rotated while the screenshot is not?)"
        )
      }
    }

    func test_aMacWindowOnItsDisplay() throws {
      // XCUIScreen.main on macOS is the whole display (1512×982 points at 2×); the app's frame a
      // window on it.
      let geometry = try XCUICapture.geometry(
        screenshotSize: PixelSize(width: 3024, height: 1964),
        application: ElementFrame(x: 100, y: 80, width: 800, height: 600), screen: .init(width: 1512, height: 982))
      XCTAssertEqual(geometry, ScreenGeometry(scale: 2, screen: .init(width: 1512, height: 982)))
      // A window without the display's size: no scale can be told, and the message says why.
      XCTAssertThrowsError(
        try XCUICapture.geometry(
          screenshotSize: PixelSize(width: 3024, height: 1964),
          application: ElementFrame(x: 100, y: 80, width: 800, height: 600))
      ) {
        XCTAssertEqual(
          "\($0)",
          "the screenshot is 3024×1964 pixels but the app's frame 800×600 points at (100, 80): not 1, 2 or 3 pixels a point (Display Zoom makes points a fraction of a pixel: set it to Default; or was the screenshot taken of another element than the screen?)"
        )
      }
    }

    func test_displayZoomAndFramesOutsideTheScreenshotAreRefusedWithTheReason() {
      // Display Zoom on a 390×844-point iPhone: the app lays out 375×812 points on 1170×2532 pixels.
      XCTAssertThrowsError(
        try XCUICapture.geometry(
          screenshotSize: PixelSize(width: 1170, height: 2532),
          application: ElementFrame(x: 0, y: 0, width: 375, height: 812), screen: .init(width: 375, height: 812))
      ) { XCTAssertTrue("\($0)".contains("Display Zoom"), "\($0)") }
      XCTAssertThrowsError(
        try XCUICapture.geometry(
          screenshotSize: PixelSize(width: 2048, height: 2732),
          application: ElementFrame(x: 800, y: 0, width: 507, height: 1366), screen: .init(width: 1024, height: 1366))
      ) {
        XCTAssertEqual(
          "\($0)",
          "the app's frame 507×1366 points at (800, 0) lies outside the screenshot, 1024×1366 points at scale 2 (is the device rotated while the screenshot is not?)"
        )
      }
    }
  }

#endif
