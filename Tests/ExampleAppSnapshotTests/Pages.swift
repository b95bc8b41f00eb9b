import ExampleApp
import SnapdiffCore
import SnapdiffTesting

// Page objects in the page-object suites' style: each page knows its screen and how to snapshot it.

extension ElementIdentifier {
  static let clock = ElementIdentifier(id: "clock", type: .staticText)
  static let adBanner = ElementIdentifier(id: "adBanner", type: .other)
}

/// Every page of the example app snapshots the app's current screen and masks the status bar's
/// clock, which shows the real time.
class AppPage: SnapshotPage {
  let app: ExampleApp
  var id: String { "" }
  init(app: ExampleApp) { self.app = app }

  var snapShooter: SnapShooter? {
    let app = self.app
    return .tree { app.currentTree() }
  }

  var ignoredElements: [ElementIdentifier] { [.clock] }
}

final class OnboardingPage: AppPage {
  override var id: String { "onboarding" }
}

final class ResultListPage: AppPage {
  override var id: String { "resultList" }
}

final class ProfilePage: AppPage {
  override var id: String { "profile" }
  /// The ad changes with every run: masked by identifier, and anything inside it with it.
  override var ignoredElements: [ElementIdentifier] { [.clock, .adBanner] }
}

/// A page-object suite's `^`: a key path to a page of the factory, as an allow-list entry (`^\.profile`).
prefix func ^ <P: Page>(_ keyPath: KeyPath<PageFactory, P>) -> (PageFactory) -> any Page {
  { $0[keyPath: keyPath] }
}

/// A page-object suite's `PageFactory`: every page, and the test's snapshot controller.
final class PageFactory: SnapshotPageFactory {
  let onboarding: OnboardingPage
  let resultList: ResultListPage
  let profile: ProfilePage
  var snapshotController: SnapshotController?

  init(app: ExampleApp) {
    onboarding = OnboardingPage(app: app)
    resultList = ResultListPage(app: app)
    profile = ProfilePage(app: app)
  }
}
