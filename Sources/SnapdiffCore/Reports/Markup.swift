/// Escaping for the XML and HTML reports, and URL paths for their `src` attributes.
///
/// Written without Foundation, so that reports are the same bytes on every platform.
enum Markup {
  /// `text` safe in XML 1.0 and HTML: `&`, `<` and `>` become references, and characters XML 1.0
  /// forbids (controls other than tab, line feed and carriage return, U+FFFE, U+FFFF) become
  /// U+FFFD, so that a damaged name still shows where it was damaged.
  ///
  /// - Parameters:
  ///   - text: Any text.
  ///   - attribute: For a `"`- or `'`-quoted attribute value: also write `"` and `'` as
  ///     references, and tab, line feed and carriage return, which a parser would otherwise
  ///     normalize to spaces. Element content keeps them as they are, easier to read.
  ///
  /// Written over the text's UTF-8 bytes into a byte buffer: a report of thousands of long
  /// error messages escapes tens of megabytes, which appending one scalar at a time to a `String`
  /// made cost about a microsecond a byte.
  static func escape(_ text: String, attribute: Bool = false) -> String {
    var escaped: [UInt8] = []
    escaped.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    var text = text
    text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\"") where attribute: escaped.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'") where attribute: escaped.append(contentsOf: "&#39;".utf8)
        case 0x09 where attribute: escaped.append(contentsOf: "&#9;".utf8)
        case 0x0A where attribute: escaped.append(contentsOf: "&#10;".utf8)
        case 0x0D where attribute: escaped.append(contentsOf: "&#13;".utf8)
        case 0x09, 0x0A, 0x0D: escaped.append(byte)
        case 0x00..<0x20: escaped.append(contentsOf: "\u{FFFD}".utf8)
        case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && bytes[index + 1] >= 0xBE:
          // U+FFFE and U+FFFF (EF BF BE, EF BF BF): the two scalars above U+001F that XML 1.0
          // forbids (a `String` holds no surrogates).
          escaped.append(contentsOf: "\u{FFFD}".utf8)
          index += 2
        default: escaped.append(byte)
        }
      }
    }
    return String(decoding: escaped, as: UTF8.self)
  }

  /// XML 1.0's `Char` production (surrogates cannot occur in a Swift `String`).
  static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }

  /// A `/`-separated relative path as a URL path: each segment percent-encoded as UTF-8, all but
  /// the unreserved characters (`A–Z a–z 0–9 - . _ ~`), so that `#`, `?`, `%`, spaces and
  /// non-ASCII names reach the file system unchanged. `..` segments and a leading `/` are kept.
  ///
  /// `diff/Home - test_search/Sign in & up.png` →
  /// `diff/Home%20-%20test_search/Sign%20in%20%26%20up.png`
  static func urlPath(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
