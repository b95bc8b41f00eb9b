#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where commands write: results to standard output, problems to standard error.
package enum Console {
  package static func error(_ message: String) {
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
