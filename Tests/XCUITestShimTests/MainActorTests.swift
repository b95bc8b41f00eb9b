#if os(Linux)
  import Foundation
  import SnapdiffModel
  import SnapdiffTestSupport
  import SnapdiffTesting
  import XCTest

  /// A snapshot taken from an `async` test method of a class that is not `@MainActor` runs off
  /// the main thread: the shooter reads XCUITest's `@MainActor` objects on the main actor
  /// (`MainActorHop`) instead of trapping in `MainActor.assumeIsolated`.
  final class MainActorTests: XCTestCase {
    final class HomePage: SnapshotPage {
      let application: XCUIApplication
      init(application: XCUIApplication) { self.application = application }
      var id: String { "onboarding" }
      var snapShooter: SnapShooter? { .xcuiScreen(application) }
      var ignoredElements: [XCUIElement] { [application.staticTexts["clock"]] }
    }

    func test_anAsyncTestOffTheMainThreadTakesSnapshotsWithoutATrap() async throws {
      XCTAssertFalse(Thread.isMainThread, "the test must run off the main thread to prove anything")
      let application = await MainActor.run {
        ShimApp.show()
        XCUIShimWorld.callsOffTheMainThread = 0
        return XCUIApplication()
      }
      let frames = NSTemporaryDirectory() + "snapdiff-async-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: frames) }
      let controller = SnapshotController(testName: "test_async", checker: .frames(frames), allowsEveryPage: true)
      let verdict = controller.takeSnapshot("View", id: "Async", page: HomePage(application: application), in: self)
      XCTAssertFalse(Thread.isMainThread)
      XCTAssertEqual(verdict.status, .written, "\(verdict)")
      let settings = try JSONDecoder().decode(
        SnapshotSettings.self,
        from: Data(contentsOf: URL(fileURLWithPath: frames + "/Async - test_async/View.snapdiff.json")))
      XCTAssertEqual(settings.ignoreRegions, [PixelRect(x: 8, y: 4, width: 80, height: 32)])
      let offMain = await MainActor.run { XCUIShimWorld.callsOffTheMainThread }
      XCTAssertEqual(offMain, 0, "XCUITest was read off the main thread")
    }

    func test_theHopRunsInPlaceOnTheMainThread() {
      XCTAssertTrue(Thread.isMainThread)
      XCTAssertEqual(MainActorHop.run { Thread.isMainThread }, true)
    }
  }
#endif
