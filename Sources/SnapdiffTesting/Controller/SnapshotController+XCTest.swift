#if canImport(XCTest)
  import XCTest

  extension SnapshotController {
    /// snapdiff's controller for an XCTest case: its method's name in keys, local checks, only
    /// the pages you append allowed. The one line that replaces a hosted checker's controller:
    ///
    /// ```swift
    /// override func makeSnapshotController() -> SnapshotController? {
    ///   .snapdiff(test: self).append(allowedPages: ^\.onboarding)
    /// }
    /// ```
    public static func snapdiff(test: XCTestCase, checker: SnapshotChecker = .automatic()) -> SnapshotController {
      SnapshotController(testName: test.name, checker: checker)
    }

    /// A controller for an XCTest case that lets every page take snapshots.
    public static func everyPage(test: XCTestCase, checker: SnapshotChecker = .automatic()) -> SnapshotController {
      SnapshotController(testName: test.name, checker: checker, allowsEveryPage: true)
    }
  }
#endif
