import Foundation
import SnapdiffCore
import SnapdiffTestSupport
import SnapdiffTesting
import Testing

// A tiny app of two screens for the API's own tests.
final class TestApp: @unchecked Sendable {
  var clock = "9:41"
  var buttonY = 100.0
  var buttonLabel = "OK"

  func tree() -> ElementTree {
    ElementTree(
      scale: 1, screen: .init(width: 120, height: 200),
      root: Element(
        identifier: "root", elementType: .window, frame: ElementFrame(x: 0, y: 0, width: 120, height: 200),
        children: [
          Element(
            identifier: "clock", elementType: .staticText, label: clock,
            frame: ElementFrame(x: 4, y: 2, width: 40, height: 16)),
          Element(
            identifier: "okButton", elementType: .button, label: buttonLabel,
            frame: ElementFrame(x: 10, y: buttonY, width: 100, height: 30)),
        ]))
  }
}

final class TestPage: SnapshotPage {
  let id: String
  let app: TestApp
  var masks: [ElementIdentifier] = ["clock"]
  var hasShooter = true
  init(id: String, app: TestApp) {
    self.id = id
    self.app = app
  }
  var snapShooter: SnapShooter? {
    let app = self.app
    return hasShooter ? .tree { app.tree() } : nil
  }
  var ignoredElements: [ElementIdentifier] { masks }
}

final class Section {
  let settings: TestPage
  init(app: TestApp) { settings = TestPage(id: "settings", app: app) }
}

/// A page-object suite's own `^`, for its factory type: `^\.home` then needs no root type.
prefix func ^ <P: Page>(_ keyPath: KeyPath<TestFactory, P>) -> (TestFactory) -> any Page {
  { $0[keyPath: keyPath] }
}

final class TestFactory: SnapshotPageFactory {
  let home: TestPage
  let detail: TestPage
  let section: Section
  var snapshotController: SnapshotController?
  init(app: TestApp) {
    home = TestPage(id: "home", app: app)
    detail = TestPage(id: "detail", app: app)
    section = Section(app: app)
  }
}

final class HomeSteps: SnapshotSteps {
  let page: TestPage
  let factory: TestFactory
  init(factory: TestFactory) {
    self.factory = factory
    page = factory.home
  }
  enum SnapshotName: SnapshotValue {
    static let id = "Home"
    case view, search
    var name: String {
      switch self {
      case .view: "Home"
      case .search: "Home - search action"
      }
    }
  }
}

/// A project folder for one test: baselines, frames and artifacts in a temporary directory.
struct Scratch {
  let root = temporaryPath("snapdiff-testing")

  func checker(_ mode: RecordMode) -> SnapshotChecker {
    .local(baselines: root + "/baselines", frames: root + "/frames", artifacts: root + "/artifacts", recordMode: mode)
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("snapshot controller")
struct SnapshotControllerTests {
  @Test("allowed pages: allowed, not allowed, appended later, ^ through nested factories")
  func allowedPages() {
    let app = TestApp()
    let factory = TestFactory(app: app)
    let controller = SnapshotController.snapdiff(testName: "test_x").append(allowedPages: ^\.home)
    #expect(controller.isAllowed(page: factory.home, in: factory))
    #expect(!controller.isAllowed(page: factory.detail, in: factory))
    controller.append(allowedPages: ^\.detail, ^\.section.settings)
    #expect(controller.isAllowed(page: factory.detail, in: factory))
    #expect(controller.isAllowed(page: factory.section.settings, in: factory))
    // Pages match by class and id, so a factory that builds a new page object on every access
    // (a computed property) is allowed as one that keeps them; another id of the class is not.
    #expect(controller.isAllowed(page: TestPage(id: "home", app: app), in: factory))
    #expect(
      !SnapshotController.snapdiff(testName: "t").append(allowedPages: ^\.home)
        .isAllowed(page: TestPage(id: "detail", app: app), in: factory))
    #expect(SnapshotController.everyPage(testName: "t").isAllowed(page: factory.detail, in: factory))
  }

  @Test("test names are the method's own, from XCTest on Linux and macOS and from Swift Testing")
  func testNames() {
    #expect(TestName.method(from: "-[HomeTests test_search]") == "test_search")
    // Names that are not XCTest's are kept as they are: a batch named "Search v2.0".
    #expect(TestName.method(from: "Search v2.0") == "Search v2.0")
    #expect(TestName.method(from: "ResultList.empty") == "ResultList.empty")
    #expect(TestName.method(from: "HomeTests.test_search") == "test_search")
    #expect(TestName.method(from: "test_search()") == "test_search")
    #expect(TestName.method(from: "test_search") == "test_search")
  }

  @Test("keys follow <id> - <test name>/<name>; initializeSnapshot names the batch; steps chain")
  func keysAndRecording() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let factory = TestFactory(app: TestApp())
    factory.snapshotController = SnapshotController(
      testName: "HomeTests.test_search", checker: scratch.checker(.missing)
    )
    .append(allowedPages: ^\.home)
    let steps = HomeSteps(factory: factory)
    steps.takeSnapshot(.view).takeSnapshot(.search)
    steps.initializeSnapshot(name: "test_batch").takeSnapshot(.view)
    let verdicts = factory.snapshotController!.verdicts
    #expect(
      verdicts.map(\.key) == [
        "Home - test_search/Home", "Home - test_search/Home - search action", "Home - test_batch/Home",
      ])
    #expect(verdicts.allSatisfy { $0.status == .recorded })
    #expect(FileManager.default.fileExists(atPath: scratch.root + "/baselines/Home - test_search/Home.png"))
    #expect(FileManager.default.fileExists(atPath: scratch.root + "/baselines/Home - test_search/Home.tree.json"))
    #expect(FileManager.default.fileExists(atPath: scratch.root + "/frames/Home - test_search/Home.snapdiff.json"))
  }

  @Test("the clock changes and the snapshot passes; a moved button fails with a message naming it and the paths")
  func masksAndFailureMessage() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = TestFactory(app: app)
    factory.snapshotController = SnapshotController(testName: "test_home", checker: scratch.checker(.missing)).append(
      allowedPages: ^\.home)
    HomeSteps(factory: factory).takeSnapshot(.view)

    app.clock = "10:58"
    let ci = SnapshotController(testName: "test_home", checker: scratch.checker(.never)).append(allowedPages: ^\.home)
    var failures: [String] = []
    ci.onFailure = { failures.append($0) }
    factory.snapshotController = ci
    HomeSteps(factory: factory).takeSnapshot(.view)
    #expect(ci.verdicts.last?.status == .passed)
    #expect(failures.isEmpty)

    app.buttonY = 108
    HomeSteps(factory: factory).takeSnapshot(.view)
    let verdict = try #require(ci.verdicts.last)
    #expect(verdict.status == .failed)
    let message = try #require(failures.first)
    #expect(message.hasPrefix("Snapshot 'Home - test_home/Home' does not match its baseline: "))
    #expect(message.contains("layout: button 'okButton' moved 8 pt down"))
    #expect(message.contains("\n  difference: "), "\(message)")
    #expect(message.contains("baseline: \(scratch.root)/baselines/Home - test_home/Home.png"))
    #expect(message.contains("current:  \(scratch.root)/artifacts/Home - test_home/Home.png"))
    #expect(message.contains("diff:     \(scratch.root)/artifacts/Home - test_home/Home.diff.png"))
    #expect(FileManager.default.fileExists(atPath: verdict.diffPath!))

    // Without the mask, the clock alone fails.
    app.buttonY = 100
    factory.home.masks = []
    HomeSteps(factory: factory).takeSnapshot(.view)
    #expect(ci.verdicts.last?.status == .failed)
  }

  @Test("record modes: never fails a new snapshot, failed re-records, all records")
  func recordModes() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = TestFactory(app: app)
    func run(_ mode: RecordMode) -> SnapshotVerdict {
      let controller = SnapshotController(testName: "test_modes", checker: scratch.checker(mode)).append(
        allowedPages: ^\.home)
      controller.onFailure = { _ in }
      factory.snapshotController = controller
      HomeSteps(factory: factory).takeSnapshot(.view)
      return controller.verdicts[0]
    }
    let never = run(.never)
    #expect(never.status == .failed)
    #expect(never.message?.contains("No baseline for snapshot 'Home - test_modes/Home'") == true)
    #expect(run(.missing).status == .recorded)
    app.buttonY = 120
    #expect(run(.never).status == .failed)
    let rerecorded = run(.failed)
    #expect(rerecorded.status == .failed)
    #expect(rerecorded.message?.contains("re-recorded") == true)
    #expect(run(.never).status == .passed)
    #expect(try RecordMode.fromEnvironment(["SNAPDIFF_RECORD": "all"]) == .all)
    #expect(try RecordMode.fromEnvironment(["CI": "true"]) == .never)
  }

  @Test("a SNAPDIFF_RECORD that is no record mode fails the snapshot, naming the variable and the modes")
  func badRecordVariable() throws {
    #expect(throws: ConfigurationError.self) { try RecordMode.fromVariable(["SNAPDIFF_RECORD": "al"]) }
    #expect(try RecordMode.fromVariable(["SNAPDIFF_RECORD": "Failed"]) == .failed)
    #expect(try RecordMode.fromVariable(["SNAPDIFF_RECORD": ""]) == nil)
    let scratch = Scratch()
    defer { scratch.remove() }
    // The checkers read the process's environment (tests run one at a time: scripts/test.sh).
    setenv("SNAPDIFF_RECORD", "sometimes", 1)
    defer { unsetenv("SNAPDIFF_RECORD") }
    let checkers = [
      SnapshotChecker.local(baselines: scratch.root + "/baselines", frames: scratch.root + "/frames"),
      SnapshotChecker.service(url: "http://127.0.0.1:9"),
    ]
    for checker in checkers {
      let controller = SnapshotController(testName: "test_bad_record", checker: checker).append(allowedPages: ^\.home)
      controller.onFailure = { _ in }
      let factory = TestFactory(app: TestApp())
      factory.snapshotController = controller
      HomeSteps(factory: factory).takeSnapshot(.view)
      let message = try #require(controller.verdicts.first?.message)
      #expect(controller.verdicts.first?.status == .failed)
      #expect(message.contains("SNAPDIFF_RECORD=sometimes is not a record mode: use missing, all, failed or never"))
    }
  }

  @Test("skipped snapshots are reported and recorded in the frames folder")
  func skipped() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let factory = TestFactory(app: TestApp())
    let controller = SnapshotController(testName: "test_skip", checker: scratch.checker(.missing)).append(
      allowedPages: ^\.detail)
    factory.snapshotController = controller
    HomeSteps(factory: factory).takeSnapshot(.view)
    factory.home.hasShooter = false
    controller.append(allowedPages: ^\.home)
    HomeSteps(factory: factory).takeSnapshot(.search)
    #expect(controller.verdicts.map(\.status) == [.skipped, .skipped])
    #expect(controller.verdicts[0].message?.contains("not an allowed page") == true)
    #expect(controller.verdicts[1].message?.contains("has no snapShooter") == true)
    let note = try String(contentsOfFile: scratch.root + "/frames/Home - test_skip/Home.skipped.json", encoding: .utf8)
    #expect(note.contains("\"reason\""))
  }

  @Test("a failure is recorded as a Swift Testing issue")
  func swiftTestingIssue() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let checker = scratch.checker(.missing)
    assertSnapshot(of: .tree(app.tree()), key: "Home - test_issue/Home", checker: checker)
    app.buttonY = 140
    withKnownIssue {
      assertSnapshot(of: .tree(app.tree()), key: "Home - test_issue/Home", ignoring: ["clock"], checker: checker)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("does not match its baseline") }
    }
    #expect(
      verifySnapshot(of: .tree(app.tree()), key: "../escape", checker: checker)?.contains("'..' component") == true)
  }
}
