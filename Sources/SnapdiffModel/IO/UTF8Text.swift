/// Bytes as text when they are valid UTF-8, and nil otherwise: what `String(validating:as:)`
/// does, which Apple platforms have only from iOS 18 / macOS 15 (SE-0405), later than the
/// package's minimums. Built on the standard library's UTF-8 parser, which every platform has.
public enum UTF8Text {
  /// `bytes` as a string, or nil when they are not well-formed UTF-8 (nothing is repaired).
  ///
  /// - Complexity: O(n), one validating pass and one decoding pass.
  public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid: continue
      case .emptyInput: return String(decoding: bytes, as: UTF8.self)
      case .error: return nil
      }
    }
  }
}
