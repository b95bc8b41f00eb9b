/// The name a frame's file is attached to a test's results under, and how `snapdiff check` reads
/// it back from an exported result bundle. Xcode exports an attachment under a file name of its
/// own and suggests a human-readable one: the attachment's name, then `_<index>_<UUID>`, then an
/// extension (`snapdiff-frame-Home%20-%20test_search%2FHome_0_6F9A…-….png`). So the name holds
/// no `/`, `.` or space, which such a name may not keep: the kind of file, then the snapshot key
/// percent-encoded (`.` too).
public enum FrameAttachmentName {
  private static let prefix = "snapdiff-"
  /// Each file of a frames folder, by suffix, and the word its attachment's name uses.
  private static let kinds: [(suffix: String, word: String)] = [
    (".png", "frame"), (".tree.json", "tree"), (".snapdiff.json", "masks"),
  ]

  /// `snapdiff-frame-<key>`, `snapdiff-tree-<key>` or `snapdiff-masks-<key>` for the file
  /// `<key><suffix>` of a frames folder.
  public static func name(key: SnapshotKey, suffix: String) -> String {
    let word = kinds.first { $0.suffix == suffix }?.word ?? "file"
    var encoded = ""
    for character in PercentEncoding.segment(key.rawValue) {
      encoded += character == "." ? "%2E" : String(character)
    }
    return prefix + word + "-" + encoded
  }

  /// The key and suffix of the frames-folder file an attachment stands for, from its name or the
  /// name Xcode suggests for it on export; nil for any other attachment.
  public static func parse(_ name: String) -> (key: SnapshotKey, suffix: String)? {
    // Our names have no `.`: anything from the first one on is the extension Xcode added.
    var stem = Substring(name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
    if parts.count >= 3, isUUID(parts[parts.count - 1]), !parts[parts.count - 2].isEmpty,
      parts[parts.count - 2].allSatisfy(\.isASCIIDigit)
    {
      stem = stem.dropLast(parts[parts.count - 1].count + parts[parts.count - 2].count + 2)
    }
    guard stem.hasPrefix(prefix) else { return nil }
    let rest = stem.dropFirst(prefix.count)
    for kind in kinds where rest.hasPrefix(kind.word + "-") {
      guard let raw = PercentEncoding.decode(rest.dropFirst(kind.word.count + 1)),
        let key = try? SnapshotKey(raw)
      else { return nil }
      return (key, kind.suffix)
    }
    return nil
  }

  /// `8-4-4-4-12` hexadecimal digits.
  private static func isUUID(_ text: Substring) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
