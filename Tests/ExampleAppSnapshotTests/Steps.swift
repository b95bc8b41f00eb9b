import ExampleApp
import SnapdiffTesting

// Steps in the page-object suites' style: actions on one page, returning Self to chain, with their
// `SnapshotName` enums.

final class OnboardingSteps: SnapshotSteps {
  let page: OnboardingPage
  let factory: PageFactory

  init(factory: PageFactory) {
    self.factory = factory
    page = factory.onboarding
  }

  enum SnapshotName: SnapshotValue {
    static let id = "Onboarding"
    case welcome, skills

    var name: String {
      switch self {
      case .welcome: "Onboarding - welcome"
      case .skills: "Onboarding - skills"
      }
    }
  }

  @discardableResult
  func tapContinue() -> Self {
    page.app.continueOnboarding()
    return self
  }

  @discardableResult
  func tapShowMyJobs() -> Self {
    page.app.finishOnboarding()
    return self
  }
}

final class ResultListSteps: SnapshotSteps {
  let page: ResultListPage
  let factory: PageFactory

  init(factory: PageFactory) {
    self.factory = factory
    page = factory.resultList
  }

  enum SnapshotName: SnapshotValue {
    static let id = "ResultList"
    case list

    var name: String { "Result list" }
  }

  @discardableResult
  func openProfile() -> Self {
    page.app.openProfile()
    return self
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

/// A page-object suite's `StepsFactory`.
final class StepsFactory {
  let onboarding: OnboardingSteps
  let resultList: ResultListSteps
  let profile: ProfileSteps

  init(pages: PageFactory) {
    onboarding = OnboardingSteps(factory: pages)
    resultList = ResultListSteps(factory: pages)
    profile = ProfileSteps(factory: pages)
  }
}
