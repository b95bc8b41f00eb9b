import Foundation

/// Pages opened in headless Chromium (`ExternalTool.chromium`), their DOM read back once their
/// scripts have run: the reports' and the review page's own self-tests write what they found as
/// attributes of `<body>`.
public enum HeadlessChromium {
  /// Opens `url` with a profile in `profile`, lets its scripts run for `budget` milliseconds of
  /// virtual time, and returns the serialized DOM on standard output. `timeout` (seconds) kills a
  /// browser that hangs.
  public static func dumpDOM(_ url: String, profile: String, budget: Int, timeout: Int) throws -> ProcessOutput {
    guard let chromium = ExternalTool.chromium else {
      return ProcessOutput(status: 127, standardOutput: "", standardError: "no chromium on PATH")
    }
    return try ExternalTool.run([
      "timeout", "--kill-after=5", String(timeout), chromium, "--headless=new", "--no-sandbox",
      "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
      "--user-data-dir=\(profile)", "--virtual-time-budget=\(budget)", "--dump-dom", url,
    ])
  }

  /// The attributes of the first `<body>` tag in serialized HTML, entity references decoded.
  public static func bodyAttributes(_ html: String) -> [String: String]? {
    guard let start = html.range(of: "<body"),
      let end = html[start.upperBound...].firstIndex(of: ">")
    else { return nil }
    let tag = html[start.upperBound..<end]
    var attributes: [String: String] = [:]
    for match in tag.matches(of: #/([a-z-]+)="([^"]*)"/#) {
      attributes[String(match.1)] = String(match.2)
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
    return attributes
  }
}
