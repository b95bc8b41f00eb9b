// Frames attached to the test results: Apple platforms only (XCTAttachment is not in
// swift-corelibs-xctest). On Linux, Tests/XCUITestShimTests compiles this same file against the
// shim's XCTContext and XCTAttachment (SNAPDIFF_XCUI_SHIM), as it does XCUITestShooter.swift.
#if SNAPDIFF_XCUI_SHIM || (!SNAPDIFF_XCUI_SHIM_TARGET && canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS)))
  import Foundation
  import SnapdiffModel
  #if SNAPDIFF_XCUI_SHIM
    import SnapdiffTesting
  #else
    import XCTest
  #endif

  extension FrameAttachments {
    /// Each frame's files attached to the running test, in an activity `snapdiff: <key>`, kept
    /// even when the test passes (`lifetime = .keepAlways`: `xcodebuild` drops the attachments
    /// of passing tests otherwise), each named for `snapdiff check` to read back
    /// (``FrameFile/attachmentName``: `snapdiff-frame-<key>`, `snapdiff-tree-<key>`,
    /// `snapdiff-masks-<key>`).
    public static var xctest: FrameAttachments {
      FrameAttachments { key, files in
        // XCTContext.runActivity is @MainActor: reached from whatever thread the test runs on.
        MainActorHop.run {
          XCTContext.runActivity(named: "snapdiff: \(key.rawValue)") { activity in
            for file in files {
              let attachment = XCTAttachment(
                data: Data(file.bytes), uniformTypeIdentifier: file.uniformTypeIdentifier)
              attachment.name = file.attachmentName
              attachment.lifetime = .keepAlways
              activity.add(attachment)
            }
          }
        }
      }
    }
  }
#endif
