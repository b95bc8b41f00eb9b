import SnapdiffModel

/// Where a controller hands each frame's files as it checks them, besides its checker: on Apple
/// platforms the running test's results (``xctest``: `XCTAttachment`s, which `xcodebuild` keeps
/// in the `.xcresult` bundle, so frames taken on a device, which cannot write to the Mac, come
/// back with the results).
///
/// Each file is attached under a name that says which file of a frames folder it is
/// (``FrameAttachmentName``): exported from the result bundle (`xcrun xcresulttool export
/// attachments --path Run.xcresult --output-path DIR`), `snapdiff check DIR` reads them as a
/// frames folder.
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
