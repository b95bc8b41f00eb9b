import Foundation
import SnapdiffModel
import SnapdiffTestSupport
import SnapdiffTesting
import Testing

/// A screen a page snapshots: PNG bytes (as XCUITest hands them out) and its tree.
final class Screen: @unchecked Sendable {
  var buttonBlue: UInt8 = 255
  var clockShade: UInt8 = 90

  /// 60×100 points at scale 1: a clock at (2, 2, 20×8), a button at (5, 70, 50×15).
  func tree() -> ElementTree {
    ElementTree(
      scale: 1, screen: .init(width: 60, height: 100),
      root: Element(
        elementType: .window, frame: ElementFrame(x: 0, y: 0, width: 60, height: 100),
        children: [
          Element(
            identifier: "clock", elementType: .staticText, label: "9:41",
            frame: ElementFrame(x: 2, y: 2, width: 20, height: 8)),
          Element(
            identifier: "okButton", elementType: .button, label: "OK",
            frame: ElementFrame(x: 5, y: 70, width: 50, height: 15)),
        ]))
  }

  func png() -> [UInt8] {
    let (clock, blue) = (clockShade, buttonBlue)
    return [UInt8](
      TestPNG.rgb(width: 60, height: 100) { x, y in
        if (2..<22).contains(x) && (2..<10).contains(y) { return (clock, clock, clock) }
        if (5..<55).contains(x) && (70..<85).contains(y) { return (0, 122, blue) }
        return (250, 250, 250)
      })
  }
}

final class HomePage: SnapshotPage {
  let screen: Screen
  init(screen: Screen) { self.screen = screen }
  var id: String { "home" }
  var snapShooter: SnapShooter? {
    let screen = self.screen
    return .capture { CapturedFrame(png: screen.png(), tree: screen.tree(), source: "screen") }
  }
  var ignoredElements: [ElementIdentifier] { [ElementIdentifier(id: "clock", type: .staticText)] }
}

/// A page whose masks are of a type snapdiff cannot use: a loud failure, never nothing masked.
final class WrongMasksPage: SnapshotPage {
  var id: String { "wrong" }
  var snapShooter: SnapShooter? { .capture { CapturedFrame(png: nil, tree: Screen().tree(), source: "screen") } }
  var ignoredElements: [Int] { [1] }
}

/// A factory that makes a new page on every access, without conforming to anything.
final class Factory {
  let screen = Screen()
  var snapshotController: SnapshotController?
  var home: HomePage { HomePage(screen: screen) }
  var wrong: WrongMasksPage { WrongMasksPage() }
}

prefix func ^ <P: Page>(_ keyPath: KeyPath<Factory, P>) -> (Factory) -> any Page { { $0[keyPath: keyPath] } }

final class HomeSteps: SnapshotSteps {
  let factory: Factory
  init(factory: Factory) { self.factory = factory }
  var page: HomePage { factory.home }
  enum SnapshotName: SnapshotValue {
    static let id = "Home"
    case view
    var name: String { "Home" }
  }
}

final class WrongSteps: SnapshotSteps {
  let factory: Factory
  init(factory: Factory) { self.factory = factory }
  var page: WrongMasksPage { factory.wrong }
  enum SnapshotName: SnapshotValue {
    static let id = "Wrong"
    case view
    var name: String { "Wrong" }
  }
}

/// The test API as an iOS UI-test bundle uses it: verdicts from a real `snapdiff serve`, or
/// frames left for `snapdiff check`. These tests pass with and without the engine in the build
/// (CI runs them both ways: SNAPDIFF_TEST_API_ONLY=1 builds the package without it).
@Suite("test API without the engine", .serialized)
struct TestAPIWithoutEngineTests {
  @Test(
    "frames folder: the PNG as captured, its tree and masks; steps through a factory that makes pages on each access")
  func framesFolder() throws {
    let folder = temporaryPath("snapdiff-api")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let factory = Factory()
    factory.snapshotController = SnapshotController(testName: "-[HomeTests test_home]", checker: .frames(folder))
      .append(allowedPages: ^\.home)
    HomeSteps(factory: factory).takeSnapshot(.view)
    let verdicts = factory.snapshotController!.verdicts
    #expect(verdicts.map(\.status) == [.written])
    #expect(verdicts.map(\.key) == ["Home - test_home/Home"])
    let base = folder + "/Home - test_home/Home"
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: base + ".png"))) == factory.screen.png())
    #expect(try ElementTree.load(base + ".tree.json") == factory.screen.tree())
    let masks = try String(contentsOfFile: base + ".snapdiff.json", encoding: .utf8)
    #expect(masks.contains("\"@staticText:clock\""), "\(masks)")
  }

  @Test("ignoredElements of a type snapdiff cannot mask fail the snapshot, naming the page and the type")
  func wrongMaskType() {
    let factory = Factory()
    let controller = SnapshotController(testName: "test_x", checker: .frames(temporaryPath("unused")))
      .append(allowedPages: ^\.wrong)
    var failures: [String] = []
    controller.onFailure = { failures.append($0) }
    factory.snapshotController = controller
    WrongSteps(factory: factory).takeSnapshot(.view)
    #expect(
      failures == [
        "Snapshot 'Wrong - test_x/Wrong' was not taken: WrongMasksPage.ignoredElements holds Int, which snapdiff cannot mask: "
          + "use ElementIdentifier, a selector String, ElementFrame, PixelRect or (on Apple platforms) XCUIElement"
      ])
  }

  @Test(
    "through a real snapdiff serve: recorded, passed with the clock masked, a real change fails at once; tree-only frames"
  )
  func service() throws {
    guard let binary = ServeProcess.binary else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record(
          "snapdiff-serve is not built: set SNAPDIFF_SERVE_BINARY or run swift build --product snapdiff-serve")
      }
      return
    }
    let server = try ServeProcess(binary: binary, token: "api-token", arguments: ["--record", "missing"])
    defer { server.stop() }
    let factory = Factory()
    let sessionsBefore = ServiceSnapshotChecker.urlSessionsMade
    let controller = SnapshotController(
      testName: "test_home", checker: .service(url: server.url, token: "api-token", runName: "api-\(UUID())")
    )
    .append(allowedPages: ^\.home)
    var failures: [String] = []
    controller.onFailure = { failures.append($0) }
    factory.snapshotController = controller
    let steps = HomeSteps(factory: factory)

    steps.takeSnapshot(.view)
    factory.screen.clockShade = 10
    steps.takeSnapshot(.view)
    factory.screen.buttonBlue = 100
    steps.takeSnapshot(.view)
    #expect(controller.verdicts.map(\.status) == [.recorded, .passed, .failed])
    // One URLSession for the checker's three snapshots (and its run), not one per request.
    #expect(ServiceSnapshotChecker.urlSessionsMade - sessionsBefore == 1)
    #expect(failures.count == 1)
    let message = try #require(failures.first)
    #expect(
      message.hasPrefix(
        "Snapshot 'Home - test_home/Home' does not match its baseline on the service: 750 of 6,000 pixels differ (12.5%) in 1 area: 50×15 at (5, 70)"
      ), "\(message)")
    #expect(message.contains("review:   \(server.url)/runs/"), "\(message)")
    #expect(message.contains("\n  difference: "), "\(message)")

    // A frame that is a tree alone is rendered by the service.
    let tree = try SnapshotChecker.service(url: server.url, token: "api-token", runName: "api-trees-\(UUID())")
      .verify(CapturedFrame(png: nil, tree: factory.screen.tree(), source: "tree"), key: "Trees/Home")
    #expect(tree.status == .recorded)

    let summary = try #require(try controller.checker.closeRun())
    #expect(summary.counts["failed"] == 1)
    #expect(!summary.passed)
  }
}
