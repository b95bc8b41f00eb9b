#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  final class OnboardingPage: SnapshotPage {
    var id: String { "onboarding" }
    var type: XCUIElement.ElementType { .other }

    var snapShooter: SnapShooter? { .xcuiScreen(app) }

    var ignoredElements: [XCUIElement] { [app.staticTexts["clock"]] }

    var nextButton: XCUIElement { app.buttons["nextButton"] }
  }

  final class AutosuggestPage: SnapshotPage {
    var id: String { "autosuggest" }
    var snapShooter: SnapShooter? { .xcuiScreen(app) }
  }

  final class AutosuggestWithSkillsPage: SnapshotPage {
    var id: String { "autosuggestWithSkills" }
    var snapShooter: SnapShooter? { .xcuiScreen(app) }
  }

  /// Not in the onboarding tests' allowed pages: its snapshots are skipped there.
  final class ProfilePage: SnapshotPage {
    var id: String { "profile" }
    var snapShooter: SnapShooter? { .xcuiScreen(app) }
  }
#endif
