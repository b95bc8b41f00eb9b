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
    ///
    /// On Apple platforms every checked frame is also attached to the test's results
    /// (``FrameAttachments/xctest``).
    public static func snapdiff(test: XCTestCase, checker: SnapshotChecker = .automatic()) -> SnapshotController {
      attachingFrames(SnapshotController(testName: test.name, checker: checker))
    }

    /// A controller for an XCTest case that lets every page take snapshots.
    public static func everyPage(test: XCTestCase, checker: SnapshotChecker = .automatic()) -> SnapshotController {
      attachingFrames(SnapshotController(testName: test.name, checker: checker, allowsEveryPage: true))
    }

    private static func attachingFrames(_ controller: SnapshotController) -> SnapshotController {
      // XCTAttachment is Apple's XCTest only (swift-corelibs-xctest has none): the same condition
      // as XCUITest/XCTestFrameAttachments.swift.
      #if !SNAPDIFF_XCUI_SHIM_TARGET && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS))
        controller.frameAttachments = .xctest
      #endif
      return controller
    }
  }
#endif
