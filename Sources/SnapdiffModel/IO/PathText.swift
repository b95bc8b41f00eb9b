/// Paths split the way the file system splits them: on the `/` byte. Swift's `Character`s are
/// grapheme clusters, and a `/` followed by a combining mark (`/` + U+0301) is one `Character`
/// that is not `/`, so `split(separator: "/")` and `contains("/")` on a `String` miss it, while
/// the kernel still sees a separator: `../\u{301}x` would pass as one name and lead up a folder.
public enum PathText {
  /// The components of `path` between `/` bytes.
  public static func components(_ path: String, omittingEmpty: Bool = true) -> [Substring] {
    path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: omittingEmpty).map(Substring.init)
  }

  /// Whether `text` holds a `/` byte anywhere.
  public static func containsSeparator(_ text: some StringProtocol) -> Bool {
    text.utf8.contains(UInt8(ascii: "/"))
  }

  /// A file name's bytes as text for messages: valid UTF-8 as it is, every other byte escaped
  /// (`caf\xE9.png`).
  public static func shown(_ bytes: [UInt8]) -> String {
    var text = ""
    var index = 0
    scan: while index < bytes.count {
      for length in 1...4 where index + length <= bytes.count {
        if let piece = UTF8Text.decode(bytes[index..<index + length]) {
          text += piece
          index += length
          continue scan
        }
      }
      let hex = String(bytes[index], radix: 16, uppercase: true)
      text += "\\x" + (hex.count == 1 ? "0" : "") + hex
      index += 1
    }
    return text
  }

  /// A name for messages with its control characters (C0 and DEL) shown as `?`, so that a key,
  /// branch or glob cannot move the cursor or end the line of the message that names it.
  public static func withControlsHidden(_ text: some StringProtocol) -> String {
    text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : String($0) }.joined()
  }

  /// Whether `component` is `.` or `..` byte for byte.
  public static func isDotOrDotDot(_ component: some StringProtocol) -> Bool {
    component.utf8.elementsEqual(".".utf8) || component.utf8.elementsEqual("..".utf8)
  }

  /// The folder part of `path`: everything before its last `/` byte (`a/b/c.png` → `a/b`), `/`
  /// for a file at the root, and `.` for a name without a folder.
  public static func parent(of path: String) -> String {
    let bytes = Array(path.utf8)
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    if slash == 0 { return "/" }
    return String(decoding: bytes[..<slash], as: UTF8.self)
  }
}
