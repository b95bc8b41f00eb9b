#if os(Linux)  // the shim stands in for XCUITest where there is none
  import SnapdiffTesting
  import XCTest

  prefix func ^ <P: Page>(_ kp: KeyPath<PageFactory, P>) -> (PageFactory) -> Page {
    { factory in factory[keyPath: kp] }
  }

  final class PageFactory {
    var snapshotController: SnapshotController?

    var onboarding: OnboardingPage { OnboardingPage() }
    var autosuggest: AutosuggestPage { AutosuggestPage() }
    var autosuggestWithSkills: AutosuggestWithSkillsPage { AutosuggestWithSkillsPage() }
    var profile: ProfilePage { ProfilePage() }
  }

  final class StepsFactory {
    let factory: PageFactory
    init(factory: PageFactory) { self.factory = factory }

    var onboarding: OnboardingSteps { OnboardingSteps(factory: factory) }
    var profile: ProfileSteps { ProfileSteps(factory: factory) }
  }
#endif
