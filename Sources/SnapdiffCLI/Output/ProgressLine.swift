#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Progress on standard error: on a terminal one line redrawn in place; elsewhere (a CI log),
/// with `onTerminal: false`, a line at each tenth of the work.
final class ProgressLine: @unchecked Sendable {
  private let enabled: Bool
  private let redrawn: Bool
  private var lastDrawn = 0

  /// - Parameters:
  ///   - enabled: whether to show anything.
  ///   - onTerminal: redraw one line (standard error is a terminal), else print a line at each
  ///     tenth; `nil` shows progress only on a terminal.
  init(enabled: Bool, onTerminal: Bool? = nil) {
    let terminal = isatty(STDERR_FILENO) != 0
    self.enabled = enabled && (onTerminal != nil || terminal)
    self.redrawn = onTerminal ?? terminal
  }

  var report: @Sendable (Int, Int, String) -> Void {
    { [self] done, total, key in
      let step = redrawn ? max(1, total / 100) : max(1, (total + 9) / 10)
      guard enabled, done == total || done - lastDrawn >= step else { return }
      lastDrawn = done
      let shown = key.count > 60 ? "…" + key.suffix(59) : Substring(key)
      Console.status(redrawn ? "\r\u{1B}[2K[\(done)/\(total)] \(shown)" : "[\(done)/\(total)] \(shown)\n")
    }
  }

  func finish() {
    if enabled && redrawn && lastDrawn > 0 { Console.status("\r\u{1B}[2K") }
  }
}
