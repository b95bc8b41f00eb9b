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
  /// (A pattern longer than `Glob.maximumLength` matches nothing; compile a `Glob` once to be
  /// told so, and to match many keys.)
  public func matches(glob pattern: String) -> Bool {
    (try? Glob(pattern))?.matches(self) ?? false
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

    /// How two names (keys, branches) would be one file on macOS and Windows, or nil when they
    /// would not, or are the same bytes.
    public static func between(_ first: String, _ second: String) -> Collision? {
      guard !first.utf8.elementsEqual(second.utf8) else { return nil }
      let (firstFold, secondFold) = (fold(first), fold(second))
      // `String` compares by canonical equivalence: equal folds in other bytes differ by
      // normalisation.
      guard firstFold == secondFold else { return nil }
      return firstFold.utf8.elementsEqual(secondFold.utf8) ? .letterCase : .normalization
    }

    /// What colliding names have in common: the name in lower case, compared as `String`s
    /// compare (by canonical equivalence, so NFC and NFD spellings meet).
    static func fold(_ name: String) -> String { name.lowercased() }
  }

  /// What two keys that would be one file on macOS and Windows have in common: the key in lower
  /// case, compared as `String`s compare (by canonical equivalence, so NFC and NFD spellings
  /// meet). Distinct keys with equal folds collide.
  package var collisionFold: String { Collision.fold(rawValue) }

  /// Pairs of distinct keys that differ only by letter case or Unicode normalisation: they
  /// would collide on case- and normalisation-insensitive file systems.
  public static func collisions(_ keys: some Sequence<SnapshotKey>) -> [(SnapshotKey, SnapshotKey, Collision)] {
    // String keys compare by canonical equivalence: the fold merges NFC and NFD spellings.
    var seen: [String: SnapshotKey] = [:]
    var collisions: [(SnapshotKey, SnapshotKey, Collision)] = []
    for key in keys.sorted() {
      let folded = key.collisionFold
      if let other = seen[folded], let collision = Collision.between(other.rawValue, key.rawValue) {
        collisions.append((other, key, collision))
      } else if seen[folded] == nil {
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
    "snapshot key '\(PathText.withControlsHidden(key))' \(problem)"
  }
}

/// A shell-style pattern over snapshot keys: `*` any characters (across `/`), `?` one (a
/// Unicode scalar), anything else itself.
///
/// Matching is one pass over the key that follows every way the pattern could be matching at
/// once (a bit per pattern position, 64 to a word, as in shift-and): O(key length × pattern
/// length / 64), no backtracking, whatever the pattern. Patterns are at most `maximumLength` bytes, a key's
/// longest: a longer one is refused with `GlobError`.
///
/// ```swift
/// let glob = try Glob("Onboarding*")
/// glob.matches(try SnapshotKey("Onboarding - test_a/Welcome"))  // true
/// ```
public struct Glob: Sendable {
  public static let maximumLength = SnapshotKey.maximumLength

  public let pattern: String
  /// Pattern positions (after folding runs of `*` into one): how many, and `words` words of
  /// bits per mask, position i at bit i % 64 of word i / 64.
  private let positions: Int
  private let words: Int
  /// Where the pattern has `*`; where it has `?`; where it has each other scalar.
  private let stars: [UInt64]
  private let anything: [UInt64]
  private let literals: [Unicode.Scalar: [UInt64]]

  /// - Throws: `GlobError` when the pattern is longer than `maximumLength` bytes.
  public init(_ pattern: String) throws(GlobError) {
    guard pattern.utf8.count <= Self.maximumLength else { throw GlobError(pattern: pattern) }
    self.pattern = pattern
    var scalars: [Unicode.Scalar] = []
    for scalar in pattern.unicodeScalars where !(scalar == "*" && scalars.last == "*") { scalars.append(scalar) }
    positions = scalars.count
    words = (positions + 1 + 63) / 64
    var stars = [UInt64](repeating: 0, count: words)
    var anything = stars
    var literals: [Unicode.Scalar: [UInt64]] = [:]
    for (index, scalar) in scalars.enumerated() {
      let bit: UInt64 = 1 << UInt64(index % 64)
      switch scalar {
      case "*": stars[index / 64] |= bit
      case "?": anything[index / 64] |= bit
      default: literals[scalar, default: [UInt64](repeating: 0, count: words)][index / 64] |= bit
      }
    }
    self.stars = stars
    self.anything = anything
    self.literals = literals
  }

  public func matches(_ key: SnapshotKey) -> Bool { matches(key.rawValue) }

  /// Whether all of `text` matches the pattern.
  public func matches(_ text: String) -> Bool {
    // State i: the first i pattern positions match what has been read; bit i of `states`.
    var states = [UInt64](repeating: 0, count: words)
    var next = states
    states[0] = 1
    // A `*` also matches nothing: the state before it is the state after it too (runs of `*`
    // are one position, so one step is enough).
    func close(_ bits: inout [UInt64]) {
      var carry: UInt64 = 0
      for word in 0..<words {
        let moved = bits[word] & stars[word]
        bits[word] |= moved << 1 | carry
        carry = moved >> 63
      }
    }
    close(&states)
    for scalar in text.unicodeScalars {
      // State i goes to i + 1 through a position that takes this scalar (`?` or the scalar
      // itself), and stays on a `*`.
      let same = literals[scalar]
      var carry: UInt64 = 0
      var alive: UInt64 = 0
      for word in 0..<words {
        let takes = states[word] & (anything[word] | (same?[word] ?? 0))
        next[word] = takes << 1 | carry | (states[word] & stars[word])
        carry = takes >> 63
        alive |= next[word]
      }
      guard alive != 0 else { return false }
      close(&next)
      swap(&states, &next)
    }
    return states[positions / 64] & (1 << UInt64(positions % 64)) != 0
  }
}

/// A glob too long to be one (longer than any key).
public struct GlobError: Error, Sendable, Equatable, CustomStringConvertible {
  public var pattern: String

  public var description: String {
    let shown = PathText.withControlsHidden(String(pattern.unicodeScalars.prefix(40)))
    return "the glob '\(shown)…' is \(pattern.utf8.count) bytes; a glob, like a key, is at most \(Glob.maximumLength)"
  }
}
