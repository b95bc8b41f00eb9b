import ExampleApp
import SnapdiffTesting
import XCTest

/// A page-object suite's `BaseTest`: an app, its page and steps factories, and the snapshot controller a
/// subclass makes (switching from the hosted checker is this one line).
class BaseTest: XCTestCase {
  var app: ExampleApp!
  var pages: PageFactory!
  var steps: StepsFactory!

  /// Which pages may snapshot; `nil`: none.
  func makeSnapshotController() -> SnapshotController? { nil }

  override func setUp() {
    super.setUp()
    app = ExampleApp()
    pages = PageFactory(app: app)
    pages.snapshotController = makeSnapshotController()
    steps = StepsFactory(pages: pages)
  }
}
