import SnapdiffModel

/// Leaves every frame in the frames folder for `snapdiff check` to decide afterwards: the
/// checker of a test process with no engine in it and no service to ask (an iOS UI-test bundle
/// without `SNAPDIFF_SERVICE_URL`). Tests do not fail on a mismatch here; `snapdiff check` does,
/// with the same rules as for every other frame.
///
/// ```sh
/// xcodebuild test … TEST_RUNNER_SNAPDIFF_FRAMES="$PWD/.snapdiff/frames"
/// snapdiff check .snapdiff/frames
/// ```
public struct FramesFolderChecker: Sendable {
  public var folder: FramesFolder

  public init(frames: String) {
    folder = FramesFolder(path: frames)
  }

  /// Writes `frame` as snapshot `key` with its masks; the verdict is `written`.
  public func verify(_ frame: CapturedFrame, key rawKey: String, masks: SnapshotMasks = SnapshotMasks()) throws
    -> SnapshotVerdict
  {
    let key = try SnapshotKey(rawKey)
    let path = try folder.write(frame, key: key, masks: masks)
    var verdict = SnapshotVerdict(key: rawKey, status: .written)
    verdict.currentPath = DisplayPath.shown(path)
    return verdict
  }

  public func recordSkip(key rawKey: String, reason: String) throws {
    try folder.writeSkip(key: try SnapshotKey(rawKey), reason: reason)
  }
}
