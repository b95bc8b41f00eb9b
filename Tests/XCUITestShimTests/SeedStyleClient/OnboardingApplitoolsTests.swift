#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  // Its test runs when SeedStyleClientTests calls it, with that driver's folders and record mode,
  // rather than on its own (hence no `test` prefix for XCTest to discover).
  class OnboardingApplitoolsTests: BaseTest {
    override func makeSnapshotController() -> SnapshotController? {
      .snapdiff(test: self)  // the one line changed from the seed: .applitools(test: self)
        .append(allowedPages: ^\.onboarding, ^\.autosuggestWithSkills, ^\.autosuggest)
    }

    func onboarding() {
      steps.onboarding
        .waitUntilShown()
        .initializeSnapshot(name: name)
        .takeSnapshot(.view)
        .next()
      steps.profile
        .takeSnapshot(.view)
    }
  }
#endif
