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

  /// Whether `component` is `.` or `..` byte for byte.
  public static func isDotOrDotDot(_ component: some StringProtocol) -> Bool {
    component.utf8.elementsEqual(".".utf8) || component.utf8.elementsEqual("..".utf8)
  }
}
