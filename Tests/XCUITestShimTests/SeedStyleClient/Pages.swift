#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  final class OnboardingPage: SnapshotPage {
    var id: String { "onboarding" }
    var type: XCUIElement.ElementType { .other }

    var snapShooter: SnapShooter? { .xcuiScreen(app) }

    var ignoredElements: [XCUIElement] { [app.staticTexts["clock"]] }

    var nextButton: XCUIElement { screen.buttons["nextButton"] }
    var title: XCUIElement { screen.staticTexts.firstMatch }
    var pageDots: XCUIElementQuery { screen.pageIndicators }
  }

  final class AutosuggestPage: SnapshotPage {
    var id: String { "autosuggest" }
    var snapShooter: SnapShooter? { .xcuiScreen(app) }

    var searchField: XCUIElement { app.searchFields.firstMatch }
    var suggestions: XCUIElementQuery { app.tables.cells }
    var clearButton: XCUIElement { app.buttons.matching(identifier: "clearButton").element(boundBy: 0) }
    var keyboardVisible: Bool { app.keyboards.count > 0 }
    func suggestion(containing text: String) -> XCUIElement {
      suggestions.element(
        matching: NSPredicate { element, _ in ((element as? XCUIElementAttributes)?.label ?? "").contains(text) })
    }
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
