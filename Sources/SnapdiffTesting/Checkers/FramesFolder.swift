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
    let files = try Self.files(of: frame, key: key, masks: masks)
    try FileSystem.createDirectories(PathText.parent(of: file(key, ".png")))
    for suffix in [".png", ".tree.json", ".snapdiff.json"] where !files.contains(where: { $0.suffix == suffix }) {
      try FileSystem.remove(file(key, suffix))
    }
    for written in files { try FileIO.writeAtomically(written.bytes, to: file(key, written.suffix)) }
    return file(key, files[0].suffix)
  }

  /// The files of snapshot `key` as a frames folder holds them, in this order: the frame (its
  /// PNG, or its tree alone), the tree beside a PNG, the masks (when there are any). What
  /// ``write(_:key:masks:)`` writes and what a test attaches to its results
  /// (``FrameAttachments``), so both read the same in `snapdiff check`.
  public static func files(of frame: CapturedFrame, key: SnapshotKey, masks: SnapshotMasks) throws -> [FrameFile] {
    var files: [FrameFile] = []
    if let bytes = try pngBytes(of: frame) {
      files.append(FrameFile(key: key, suffix: ".png", bytes: bytes))
    }
    if let tree = frame.tree {
      files.append(FrameFile(key: key, suffix: ".tree.json", bytes: try tree.encoded()))
    }
    if files.isEmpty {
      throw ConfigurationError("snapshot '\(key)' has neither a screenshot nor an element tree")
    }
    if !masks.isEmpty {
      files.append(FrameFile(key: key, suffix: ".snapdiff.json", bytes: try JSONEncoderBox.encode(masks.settings)))
    }
    return files
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

/// One file of a snapshot in a frames folder: `<key>.png`, `<key>.tree.json` or
/// `<key>.snapdiff.json`.
public struct FrameFile: Sendable, Equatable {
  public var key: SnapshotKey
  /// `.png`, `.tree.json` or `.snapdiff.json`.
  public var suffix: String
  public var bytes: [UInt8]

  public init(key: SnapshotKey, suffix: String, bytes: [UInt8]) {
    self.key = key
    self.suffix = suffix
    self.bytes = bytes
  }

  /// Its path inside a frames folder: `Home - test_search/Home.png`.
  public var relativePath: String { key.relativePath(suffix: suffix) }

  /// Its name as an attachment to the test's results (``FrameAttachmentName``): what
  /// `snapdiff check` reads back from a result bundle's exported attachments.
  public var attachmentName: String { FrameAttachmentName.name(key: key, suffix: suffix) }

  /// Its Uniform Type Identifier, for an attachment.
  public var uniformTypeIdentifier: String { suffix == ".png" ? "public.png" : "public.json" }
}
