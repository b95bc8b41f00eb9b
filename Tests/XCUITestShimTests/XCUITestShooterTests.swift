#if os(Linux)
  import Foundation
  import SnapdiffModel
  import SnapdiffTestSupport
  import SnapdiffTesting
  import XCTest

  /// The XCUITest shooter driven through the shim: element types by Apple's numbering, trees shaped
  /// like real dumps converted in points with the screenshot's scale, the status bar, and
  /// `XCUIElement`s as ignored elements. XCTest, because XCUITest runs test bodies on the main
  /// thread, where the shooter reads XCUITest's values.
  final class XCUITestShooterTests: XCTestCase {
    func test_elementTypesFollowApplesNumbering() {
      for raw in UInt(0)...82 {
        let apple = XCUIElement.ElementType(rawValue: raw)!
        XCTAssertEqual(ElementType(apple).rawValue, "\(apple)", "raw value \(raw)")
        XCTAssertEqual(ElementType(xcuiRawValue: raw).rawValue, "\(apple)")
      }
      XCTAssertNil(XCUIElement.ElementType(rawValue: 83))
      // A type newer than the list is `other`, not a crash or a wrong type.
      XCTAssertEqual(ElementType(xcuiRawValue: 83), .other)
      XCTAssertEqual(ElementType.allCases.count, 83)
    }

    func test_treesShapedLikeRealDumpsConvertInPoints() throws {
      for name in ["testpilot-iphone-tabbar.txt", "ax-iphone-lldb.txt"] {
        let dump = try ShimScreen.dumpTree(name)
        let frame = try MainActor.assumeIsolated {
          ShimScreen.show(
            dump,
            screenshot: TestPNG.rgb(width: Int(dump.screen.width), height: Int(dump.screen.height)) { _, _ in (1, 2, 3)
            })
          return try SnapShooter.xcuiScreen(XCUIApplication(), statusBar: .keep).capture()
        }
        var expected = dump
        expected.root.frame = ElementFrame(x: 0, y: 0, width: dump.screen.width, height: dump.screen.height)
        XCTAssertEqual(frame.tree, expected, name)
        XCTAssertEqual(frame.tree?.scale, 1)
        XCTAssertEqual(frame.pixelSize, PixelSize(width: Int(dump.screen.width), height: Int(dump.screen.height)))
        XCTAssertEqual(frame.source, "XCUIScreen")
        XCTAssertTrue(frame.ignoredAreas.isEmpty)
      }
    }

    func test_scaleIsTheScreenshotsPixelsPerPoint() throws {
      let screen = ElementTree.Size(width: 390, height: 844)
      XCTAssertEqual(try XCUICapture.scale(pixels: PixelSize(width: 1170, height: 2532), points: screen), 3)
      XCTAssertEqual(try XCUICapture.scale(pixels: PixelSize(width: 780, height: 1688), points: screen), 2)
      XCTAssertThrowsError(try XCUICapture.scale(pixels: PixelSize(width: 1000, height: 2532), points: screen)) {
        error in
        XCTAssertEqual(
          "\(error)",
          "the screenshot is 1000×2532 pixels but the screen 390×844 points: not 1, 2 or 3 pixels a point (was the screenshot taken of another element than the app?)"
        )
      }
    }

    func test_statusBarMaskedFromSpringBoardsFrame() throws {
      let bar = CGRect(x: 0, y: 0, width: 120, height: 10)
      let (masked, kept, band) = try MainActor.assumeIsolated {
        ShimApp.show()
        XCUIShimWorld.statusBarFrame = bar
        return (
          try SnapShooter.xcuiScreen(XCUIApplication()).capture().ignoredAreas,
          try SnapShooter.xcuiScreen(XCUIApplication(), statusBar: .keep).capture().ignoredAreas,
          try SnapShooter.xcuiScreen(XCUIApplication(), statusBar: .maskTop(points: 20)).capture().ignoredAreas
        )
      }
      XCTAssertEqual(masked, [.points(ElementFrame(x: 0, y: 0, width: 120, height: 10))])
      XCTAssertEqual(kept, [])
      XCTAssertEqual(band, [.points(ElementFrame(x: 0, y: 0, width: 120, height: 20))])
      // In pixels at the screen's scale, rounded outward.
      XCTAssertEqual(
        SnapshotMasks([.points(ElementFrame(x: 0.5, y: 0, width: 120, height: 10.2))], scale: 2).regions,
        [PixelRect(x: 1, y: 0, width: 240, height: 21)])
    }

    func test_xcuiElementsAreIgnoredByTheirFrameWhenTheSnapshotIsTaken() {
      let (clock, missing) = MainActor.assumeIsolated {
        ShimApp.show()
        return (app.staticTexts["clock"].ignoredArea, app.staticTexts["noSuchElement"].ignoredArea)
      }
      XCTAssertEqual(clock, .points(ElementFrame(x: 4, y: 2, width: 40, height: 16)))
      XCTAssertNil(missing)
    }
  }
#endif
