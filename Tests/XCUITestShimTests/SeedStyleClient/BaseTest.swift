#if os(Linux)  // the shim stands in for XCUITest where there is none
  // A UI-test layer written in the seed's style (shared/seeds/000: BaseTest, PageFactory,
  // SnapshotPage with `ignoredElements: [XCUIElement]`, Steps/SnapshotSteps with SnapshotName
  // enums, its own `^` operator, OnboardingApplitoolsTests). Moving it from the hosted checker to
  // snapdiff changed one line, marked below in OnboardingApplitoolsTests.swift; the rest is as the
  // seed's team wrote it for the hosted service.
  import SnapdiffTesting
  import XCTest

  let app = XCUIApplication()

  class BaseTest: XCTestCase {
    var pages: PageFactory!
    var steps: StepsFactory!

    func makeSnapshotController() -> SnapshotController? { nil }

    override func setUp() {
      super.setUp()
      continueAfterFailure = false
      app.launchArguments = ["-UITests", "-AppleLanguages", "(en)"]
      app.launchEnvironment["UITEST_DISABLE_ANIMATIONS"] = "1"
      app.launch()
      pages = PageFactory()
      pages.snapshotController = makeSnapshotController()
      steps = StepsFactory(factory: pages)
    }

    override func tearDown() {
      app.terminate()
      super.tearDown()
    }
  }
#endif
