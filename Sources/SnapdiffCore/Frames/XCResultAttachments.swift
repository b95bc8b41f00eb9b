#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A folder of attachments exported from an Xcode result bundle
/// (`xcrun xcresulttool export attachments --path Run.xcresult --output-path DIR`, Xcode 16 and
/// later), read back as a frames folder: the test API attaches each frame's files to the test's
/// results (``FrameAttachmentName``), which is how frames taken on a device reach the Mac.
///
/// The export holds each attachment under a file name of Xcode's and a `manifest.json` listing,
/// per test, its attachments' `exportedFileName` and `suggestedHumanReadableName` (the
/// attachment's name, `_<index>_<UUID>`, an extension). Attachments that are not snapdiff's are
/// left alone.
public enum XCResultAttachments {
  /// Whether `folder` is such an export: it has a `manifest.json` that lists attachments.
  public static func isExport(_ folder: String) -> Bool {
    (try? manifest(folder)) != nil
  }

  /// Writes the snapdiff frames an export holds into `frames` as a frames folder (`<key>.png`,
  /// `<key>.tree.json`, `<key>.snapdiff.json`); when a snapshot was attached more than once (a
  /// test repeated), the last in the manifest's order wins.
  ///
  /// - Returns: the keys written, in order.
  /// - Throws: `FileError` naming the manifest or a file it lists that cannot be read or written.
  @discardableResult
  public static func writeFrames(from folder: String, into frames: String) throws -> [SnapshotKey] {
    let tests = try manifest(folder)
    var keys: [SnapshotKey] = []
    for attachment in tests.flatMap(\.attachments) {
      guard let (key, suffix) = FrameAttachmentName.parse(attachment.suggestedHumanReadableName ?? "")
      else { continue }
      let bytes = try FileIO.read(folder + "/" + attachment.exportedFileName)
      let path = frames + "/" + key.relativePath(suffix: suffix)
      try FileSystem.createDirectories(PathText.parent(of: path))
      try FileIO.writeAtomically(bytes, to: path, synced: false)
      if !keys.contains(key) { keys.append(key) }
    }
    return keys
  }

  private struct Test: Decodable {
    var testIdentifier: String?
    var attachments: [Attachment]
  }

  private struct Attachment: Decodable {
    var exportedFileName: String
    var suggestedHumanReadableName: String?
  }

  private static func manifest(_ folder: String) throws -> [Test] {
    let path = folder + "/manifest.json"
    let bytes = try FileIO.read(path, limit: 1 << 28)
    do {
      return try JSONDecoder().decode([Test].self, from: Data(bytes))
    } catch {
      throw FileError(path: path, message: "not the manifest of an exported result bundle's attachments (\(error))")
    }
  }
}
