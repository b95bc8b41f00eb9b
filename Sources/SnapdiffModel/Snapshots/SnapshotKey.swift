/// The name of a snapshot: its path in the baseline store without `.png`, `/`-separated, as the
/// test-side API builds it: `<id> - <test name>/<name>` (`Home - test_search/Home - search action`).
///
/// The same key names a frame under the current folder, a baseline, a snapshot in `run.json`,
/// and what `approve` and `reject` take. A key can never point outside the store.
public struct SnapshotKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let rawValue: String

  /// The longest key, in UTF-8 bytes, and the longest component: a file name may have 255
  /// bytes on most systems, and the longest name a key's files get is `NAME.snapdiff.json`.
  public static let maximumLength = 1024
  public static let maximumComponentLength = 240

  /// Validates `rawValue`.
  ///
  /// - Throws: `KeyError` for an empty key or component, a `.` or `..` component, a leading or
  ///   trailing `/`, a backslash, NUL or another control character, or a name that is too long.
  public init(_ rawValue: String) throws(KeyError) {
    func fail(_ problem: String) -> KeyError { KeyError(key: rawValue, problem: problem) }
    if rawValue.isEmpty { throw fail("is empty") }
    if rawValue.utf8.count > Self.maximumLength {
      throw fail("is longer than \(Self.maximumLength) bytes")
    }
    // On bytes, as every test of `/` here: see `PathText`.
    if rawValue.utf8.first == UInt8(ascii: "/") { throw fail("starts with '/': keys are relative to the store") }
    if rawValue.utf8.last == UInt8(ascii: "/") { throw fail("ends with '/'") }
    for scalar in rawValue.unicodeScalars {
      if scalar == "\\" { throw fail("contains a backslash: use '/' between folders") }
      if scalar.value == 0 { throw fail("contains a NUL character") }
      if scalar.value < 0x20 || scalar.value == 0x7f {
        throw fail("contains a control character (U+\(String(scalar.value, radix: 16, uppercase: true)))")
      }
    }
    for component in PathText.components(rawValue, omittingEmpty: false) {
      if component.isEmpty { throw fail("has an empty folder name ('//')") }
      if PathText.isDotOrDotDot(component) {
        throw fail("has a '\(component)' component: keys cannot leave the store")
      }
      if component.utf8.count > Self.maximumComponentLength {
        throw fail("has a name longer than \(Self.maximumComponentLength) bytes")
      }
    }
    self.rawValue = rawValue
  }

  /// The key of a file found at `relativePath` (`/`-separated) under a frames folder:
  /// the path without its `.png` extension.
  public init(relativeImagePath relativePath: String) throws(KeyError) {
    guard relativePath.lowercased().hasSuffix(".png") else {
      throw KeyError(key: relativePath, problem: "is not a .png file")
    }
    try self.init(String(relativePath.dropLast(4)))
  }

  /// The path of the key's file with `suffix` (`.png`, `.tree.json`, `.snapdiff.json`).
  public func relativePath(suffix: String = ".png") -> String { rawValue + suffix }

  /// The first component: the `<id> - <test name>` folder.
  public var group: String { String(PathText.components(rawValue).first ?? "") }

  /// Whether the key matches a shell-style pattern: `*` any characters (across `/`), `?` one.
  public func matches(glob pattern: String) -> Bool {
    Glob.matches(Array(rawValue.unicodeScalars), Array(pattern.unicodeScalars))
  }

  public var description: String { rawValue }

  public static func < (lhs: SnapshotKey, rhs: SnapshotKey) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }

  /// Keys are the same key when their bytes are: `Café` spelled with `é` (NFC) and with `e` and
  /// a combining accent (NFD) are two files on Linux, so two keys, although Swift's `String`
  /// calls them equal.
  public static func == (lhs: SnapshotKey, rhs: SnapshotKey) -> Bool {
    lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8)
  }

  public func hash(into hasher: inout Hasher) {
    for byte in rawValue.utf8 { hasher.combine(byte) }
  }

  /// Why two distinct keys would be one file on macOS's and Windows' file systems, which ignore
  /// letter case and (APFS, HFS+) Unicode normalisation: the message `check` refuses them with.
  public enum Collision: Sendable, Equatable {
    case letterCase
    case normalization

    public var problem: String {
      switch self {
      case .letterCase: "only by letter case"
      case .normalization: "only by Unicode normalisation (the same text in other code points, as é and e + ́)"
      }
    }
  }

  /// Pairs of distinct keys that differ only by letter case or Unicode normalisation: they
  /// would collide on case- and normalisation-insensitive file systems.
  public static func collisions(_ keys: some Sequence<SnapshotKey>) -> [(SnapshotKey, SnapshotKey, Collision)] {
    // String keys compare by canonical equivalence: the fold merges NFC and NFD spellings.
    var seen: [String: SnapshotKey] = [:]
    var collisions: [(SnapshotKey, SnapshotKey, Collision)] = []
    for key in keys.sorted() {
      let folded = key.rawValue.lowercased()
      if let other = seen[folded], other != key {
        let sameLetters = other.rawValue.lowercased().utf8.elementsEqual(folded.utf8)
        collisions.append((other, key, sameLetters ? .letterCase : .normalization))
      } else {
        seen[folded] = key
      }
    }
    return collisions
  }

  /// Refuses a set of keys of which two would be one file on macOS and Windows: the rule of
  /// one run, applied by `check` to a frames folder and by the service to every key a run
  /// receives.
  ///
  /// - Parameters:
  ///   - keys: the run's keys.
  ///   - involving: when given, only collisions of this key count (the key a run receives),
  ///     and it is the key the error names first.
  /// - Throws: `KeyError` naming both keys and how they differ.
  public static func checkNoCollisions(_ keys: some Sequence<SnapshotKey>, involving key: SnapshotKey? = nil)
    throws(KeyError)
  {
    let found = collisions(keys).first { key == nil || $0.0 == key || $0.1 == key }
    if let (first, second, collision) = found {
      let (subject, other) = first == key ? (first, second) : (second, first)
      throw KeyError(
        key: subject.rawValue,
        problem: "differs from '\(other)' \(collision.problem): the two would be one file on macOS and Windows")
    }
  }
}

/// A snapshot key that cannot be used, and why.
public struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
  public var key: String
  public var problem: String

  package init(key: String, problem: String) {
    self.key = key
    self.problem = problem
  }

  public var description: String {
    let shown = key.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : String($0) }.joined()
    return "snapshot key '\(shown)' \(problem)"
  }
}

/// Shell-style matching with `*` and `?`, iterative with backtracking on the last `*`.
enum Glob {
  static func matches(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
    var t = 0
    var p = 0
    var starPattern = -1
    var starText = 0
    while t < text.count {
      if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
        t += 1
        p += 1
      } else if p < pattern.count && pattern[p] == "*" {
        starPattern = p
        starText = t
        p += 1
      } else if starPattern >= 0 {
        p = starPattern + 1
        starText += 1
        t = starText
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
