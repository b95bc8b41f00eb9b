#if os(Linux)  // the shim stands in for XCUITest where there is none
import SnapdiffTesting
import XCTest

class OnboardingApplitoolsTests: BaseTest {
  override func makeSnapshotController() -> SnapshotController? {
    .snapdiff(test: self)  // the one line changed from the seed: .applitools(test: self)
      .append(allowedPages: ^\.onboarding, ^\.autosuggestWithSkills, ^\.autosuggest)
  }

  func test_onboarding() {
    steps.onboarding
      .initializeSnapshot(name: name)
      .takeSnapshot(.view)
    steps.profile
      .takeSnapshot(.view)
  }
}
#endif
