#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where commands write: results to standard output, problems to standard error.
enum Console {
  static func error(_ message: String) {
    writeToStandardError("snapdiff: error: \(message)\n")
  }

  static func warning(_ message: String) {
    writeToStandardError("snapdiff: warning: \(message)\n")
  }

  /// Text on standard error as is (progress lines).
  static func status(_ text: String) {
    writeToStandardError(text)
  }

  private static func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// Numbers as people read them in a verdict line.
enum Format {
  /// `1234567` → `"1,234,567"`.
  static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return value < 0 ? "-" + grouped : grouped
  }

  /// A fraction as a percentage with up to three decimals: `0.00123` → `"0.123%"`.
  static func percent(_ fraction: Double) -> String {
    let thousandths = (fraction * 100_000).rounded()
    if thousandths == 0 && fraction > 0 { return "<0.001%" }
    var text = String(Int(thousandths) / 1000)
    var decimals = String(Int(thousandths) % 1000)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    if !decimals.isEmpty { text += "." + decimals }
    return text + "%"
  }
}
