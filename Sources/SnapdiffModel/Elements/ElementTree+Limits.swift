/// How deep and how large an element tree may be: every tree that arrives (a `.tree.json`, an
/// XCUITest dump, a service upload) is measured when it is read, and refused past these limits
/// with its file and its size named, before anything walks it recursively (encoding, rendering,
/// masks) or compares it.
///
/// Real screens are tens of levels deep and hold tens to hundreds of elements (the deepest dump
/// among the fixtures, an iPhone tab bar app's, is 17 levels deep). The JSON parser stops at 512 nested
/// containers, which is about 255 element levels (an element and its `children` array are two);
/// 200 levels leave room under it, so every tree that is read can also be written back.
extension ElementTree {
  /// The most levels of elements a tree may have (the root is level 1).
  public static let maximumDepth = 200

  /// The most elements a tree may have: a last line of defence, as pairing the elements of two
  /// trees is near-linear (`ElementPairing`). The service's 4 MiB tree upload holds at most
  /// about 60,000.
  public static let maximumElementCount = 100_000

  /// The tree's depth (the root alone is 1) and its number of elements, counted without
  /// recursion.
  public var measurements: (depth: Int, count: Int) {
    var depth = 0
    var count = 0
    var pending: [(element: Element, level: Int)] = [(root, 1)]
    while let (element, level) = pending.popLast() {
      count += 1
      depth = max(depth, level)
      for child in element.children { pending.append((child, level + 1)) }
    }
    return (depth, count)
  }

  /// What is over a limit, in words to follow "the element tree" (`is 3000 levels deep, over
  /// the limit of 200`, `has 100003 elements, over the limit of 100000`); nil within both.
  public var limitProblem: String? {
    let (depth, count) = measurements
    return Self.limitProblem(depth: depth, count: count)
  }

  static func limitProblem(depth: Int, count: Int) -> String? {
    if depth > maximumDepth { return "is \(depth) levels deep, over the limit of \(maximumDepth)" }
    if count > maximumElementCount { return "has \(count) elements, over the limit of \(maximumElementCount)" }
    return nil
  }

  /// The deepest nesting of JSON objects and arrays in `bytes` (brackets inside strings do not
  /// count), found in one pass without parsing: a tree file nested deeper than its elements may
  /// be is refused before the (recursive) decoder sees it.
  static func jsonNesting(_ bytes: [UInt8]) -> Int {
    var deepest = 0
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
      default: break
      }
    }
    return deepest
  }

  /// The JSON nesting a tree of `maximumDepth` levels needs: the document, an object and a
  /// `children` array per level, and the deepest element's `frame` (2 × levels + 1), with room
  /// for unknown keys' own objects; far under the parser's 512.
  static let maximumJSONNesting = 2 * maximumDepth + 8

  static func nestingProblem(_ nesting: Int) -> String {
    "its JSON nests \(nesting) brackets deep, over the limit of \(maximumJSONNesting) (\(maximumDepth) levels of elements)"
  }
}
