#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  final class OnboardingSteps: SnapshotSteps {
    let page: OnboardingPage
    let factory: PageFactory

    init(factory: PageFactory) {
      self.factory = factory
      page = factory.onboarding
    }

    @discardableResult
    func waitUntilShown() -> Self {
      XCTAssertTrue(page.waitForAppearance(), "onboarding did not appear")
      return self
    }

    @discardableResult
    func next() -> Self {
      page.tap(page.nextButton)
      return self
    }

    enum SnapshotName: SnapshotValue {
      static let id = "Onboarding"

      case view
      case next

      var name: String {
        switch self {
        case .view:
          return "Onboarding"
        case .next:
          return "Onboarding - next step"
        }
      }
    }
  }

  final class ProfileSteps: SnapshotSteps {
    let page: ProfilePage
    let factory: PageFactory

    init(factory: PageFactory) {
      self.factory = factory
      page = factory.profile
    }

    enum SnapshotName: SnapshotValue {
      static let id = "Profile"

      case view

      var name: String { "Profile" }
    }
  }
#endif
