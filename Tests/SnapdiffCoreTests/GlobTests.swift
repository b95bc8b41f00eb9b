import SnapdiffCore
import Testing

@Suite("globs")
struct GlobTests {
  @Test(
    "matching: * any run (across /), ? one scalar, the rest itself; the whole key",
    arguments: [
      ("a/b", "a/b", true), ("a/*", "a/b/c", true), ("*", "", true), ("", "", true), ("", "a", false),
      ("?", "", false), ("?", "é", true), ("a?c", "abc", true), ("a?c", "ac", false), ("*b", "aab", true),
      ("*b", "aba", false), ("a**b", "ab", true), ("a*b*c", "abbbc", true), ("a*b*c", "acb", false),
      ("*a*a*", "aa", true), ("*a*a*", "a", false), ("Onboarding*", "Onboarding - test_a/Welcome", true),
      ("*/Welcome", "Onboarding - test_a/Welcome", true), ("?*?", "ab", true), ("?*?", "a", false),
      ("a*", "b", false), ("*?*?*?", "ab", false), ("Caf\u{E9}", "Cafe\u{301}", false),
    ])
  func matching(pattern: String, text: String, expected: Bool) throws {
    #expect(try Glob(pattern).matches(text) == expected)
  }

  @Test("positions past 64 (several words of state) carry from word to word")
  func longPatterns() throws {
    let text = String(repeating: "ab", count: 300)
    #expect(try Glob(String(repeating: "a?", count: 300)).matches(text))
    #expect(try Glob(String(repeating: "a?", count: 299) + "b?").matches(text) == false)
    #expect(try Glob(String(repeating: "*b", count: 300)).matches(text))
    #expect(try Glob(String(repeating: "a*", count: 301)).matches(text) == false)
    #expect(try Glob(String(repeating: "?", count: 599) + "*").matches(text))
  }

  @Test("a glob longer than a key's 1024 bytes is refused, by bytes")
  func length() throws {
    #expect(throws: Never.self) { try Glob(String(repeating: "*", count: 1024)) }
    #expect(throws: GlobError.self) { try Glob(String(repeating: "*", count: 1025)) }
    #expect(throws: GlobError.self) { try Glob(String(repeating: "\u{E9}", count: 513)) }
    #expect(try SnapshotKey("a/b").matches(glob: String(repeating: "*", count: 2000)) == false)
  }
}
