import SnapdiffModel

/// Where a controller hands each frame's files as it checks them, besides its checker: on Apple
/// platforms the running test's results (``xctest``: `XCTAttachment`s, which `xcodebuild` keeps
/// in the `.xcresult` bundle, so frames taken on a device, which cannot write to the Mac, come
/// back with the results).
///
/// Each file is attached under its path in a frames folder (`Home - test_search/Home.png`,
/// `….tree.json`, `….snapdiff.json`): exported from the result bundle
/// (`xcrun xcresulttool export attachments`), they are a frames folder again.
public struct FrameAttachments: Sendable {
  private let attachFiles: @Sendable (_ key: SnapshotKey, _ files: [FrameFile]) -> Void

  /// Attachments made by `attach`, called once per snapshot with its files.
  public init(_ attach: @escaping @Sendable (_ key: SnapshotKey, _ files: [FrameFile]) -> Void) {
    attachFiles = attach
  }

  /// Attaches the files of snapshot `key`.
  public func attach(_ key: SnapshotKey, _ files: [FrameFile]) {
    attachFiles(key, files)
  }
}
