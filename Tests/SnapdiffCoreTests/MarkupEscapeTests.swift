import SnapdiffCore
import Testing

/// The reports' escaping, written over UTF-8 bytes for speed, gives the bytes the rule gives
/// scalar by scalar (the reference below): references for `& < >` (and `" '` and tab, line feed,
/// carriage return in attributes), U+FFFD for what XML 1.0 forbids.
@Suite("markup escaping")
struct MarkupEscapeTests {
  /// The rule, one scalar at a time.
  static func reference(_ text: String, attribute: Bool) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"" where attribute: escaped += "&quot;"
      case "'" where attribute: escaped += "&#39;"
      case "\t" where attribute, "\n" where attribute, "\r" where attribute: escaped += "&#\(scalar.value);"
      default:
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: escaped.unicodeScalars.append(scalar)
        default: escaped += "\u{FFFD}"
        }
      }
    }
    return escaped
  }

  @Test("the same bytes as the scalar rule, on every kind of character and on random text")
  func sameAsTheRule() {
    var samples = [
      "", "plain", "a & b < c > d \"q\" 'a'", "tab\there\nline\rcr", "\u{0}\u{1}\u{1F}\u{7F}\u{80}\u{9F}",
      "\u{FFFD}\u{FFFE}\u{FFFF}\u{FFFE}", "ends with \u{FFFF}", "\u{EFBF}\u{EFBE}", "é e\u{301} 中文 👩‍👩‍👧 \u{10FFFF}",
      "\u{E000}\u{D7FF}", String(repeating: "<&>", count: 1000),
    ]
    var generator = SystemRandomNumberGenerator()
    let alphabet: [Unicode.Scalar] = [
      "a", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{1B}", "\u{7F}", "é", "\u{FFFE}", "\u{FFFF}",
      "\u{FFFD}", "\u{EFFF}", "\u{1F600}", "中",
    ]
    for _ in 0..<200 {
      var text = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        text.append(alphabet.randomElement(using: &generator)!)
      }
      samples.append(String(text))
    }
    for sample in samples {
      #expect(HTMLReport.escapedText(sample) == Self.reference(sample, attribute: false), "\(sample.debugDescription)")
      #expect(
        HTMLReport.escapedAttribute(sample) == Self.reference(sample, attribute: true), "\(sample.debugDescription)")
    }
  }
}
