import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// The frames folder `snapdiff check` reads: `<key>.png`, `<key>.tree.json` beside it (or alone,
/// for a frame that is a tree), `<key>.snapdiff.json` with the snapshot's masks, and
/// `<key>.skipped.json` for a snapshot the test skipped. One writer for every checker that
/// leaves frames behind, so a frames folder means the same whoever wrote it.
public struct FramesFolder: Sendable {
  public var path: String

  public init(path: String) {
    self.path = path
  }

  /// Writes `frame` as snapshot `key`, with `masks`; replaces whatever an earlier run left there.
  ///
  /// - Returns: the path of the frame's file (`.png`, or `.tree.json` for a tree alone).
  @discardableResult
  public func write(_ frame: CapturedFrame, key: SnapshotKey, masks: SnapshotMasks) throws -> String {
    try FileSystem.remove(file(key, ".skipped.json"))
    let png = file(key, ".png")
    try FileSystem.createDirectories(PathText.parent(of: png))
    let treePath = file(key, ".tree.json")
    var written = png
    if let bytes = try Self.pngBytes(of: frame) {
      try FileIO.writeAtomically(bytes, to: png)
    } else {
      try FileSystem.remove(png)
      written = treePath
    }
    if let tree = frame.tree {
      try FileIO.writeAtomically(try tree.encoded(), to: treePath)
    } else {
      try FileSystem.remove(treePath)
    }
    let settingsPath = file(key, ".snapdiff.json")
    if masks.isEmpty {
      try FileSystem.remove(settingsPath)
    } else {
      try FileIO.writeAtomically(try JSONEncoderBox.encode(masks.settings), to: settingsPath)
    }
    return written
  }

  /// Writes the skip of `key`, so `snapdiff check` reports it; removes a frame an earlier run
  /// left, which would otherwise be checked as if it had been taken now.
  public func writeSkip(key: SnapshotKey, reason: String) throws {
    for suffix in [".png", ".tree.json", ".snapdiff.json"] { try FileSystem.remove(file(key, suffix)) }
    let path = file(key, ".skipped.json")
    try FileSystem.createDirectories(PathText.parent(of: path))
    let json =
      JSONValue.object([("key", .string(key.rawValue)), ("reason", .string(reason))]).serialized(pretty: true) + "\n"
    try FileIO.writeAtomically(Array(json.utf8), to: path)
  }

  private func file(_ key: SnapshotKey, _ suffix: String) -> String { path + "/" + key.relativePath(suffix: suffix) }

  /// The PNG to write or send for `frame`: its bytes as captured; with the engine, pixels made in
  /// memory are encoded; nil for a tree alone (rendered by whoever compares it).
  static func pngBytes(of frame: CapturedFrame) throws -> [UInt8]? {
    if let png = frame.png { return png }
    #if SNAPDIFF_ENGINE
      if let image = frame.image { return try PNGEncoder().encode(image) }
    #endif
    return nil
  }
}
