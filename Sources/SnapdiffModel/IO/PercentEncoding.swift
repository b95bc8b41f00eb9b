/// Percent-encoding of URL path segments, as the service writes and reads them and its clients
/// build them: a snapshot key with `/` in it travels as one segment (`Home%20-%20t%2FHome`).
public enum PercentEncoding {
  /// `text` encoded as one URL path segment: every byte but the unreserved characters
  /// (`A–Z a–z 0–9 - . _ ~`) escaped.
  public static func segment(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A percent-encoded path (or segment) decoded; `nil` for a bad escape or bytes that are not
  /// UTF-8. `+` stays `+` (it means a space only in forms).
  public static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    func hexValue(_ byte: UInt8?) -> UInt8? {
      switch byte {
      case .some(let b) where (48...57).contains(b): b - 48
      case .some(let b) where (65...70).contains(b): b - 55
      case .some(let b) where (97...102).contains(b): b - 87
      default: nil
      }
    }
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = hexValue(iterator.next()), let low = hexValue(iterator.next()) else { return nil }
        bytes.append(high << 4 | low)
      } else {
        bytes.append(byte)
      }
    }
    return UTF8Text.decode(bytes)
  }
}
