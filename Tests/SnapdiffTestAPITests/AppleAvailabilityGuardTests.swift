import Foundation
import SnapdiffTestSupport
import Testing

/// scripts/check_apple_availability.py, CI's stand-in for an Xcode build of the test API: it
/// refuses a file using each API of its kept list (newer than iOS 15 / tvOS 15, or than the macOS
/// minimum) and each Linux-only spelling outside a Linux branch, passes their look-alikes and
/// uses behind `#available` or a Linux branch, and passes the tree itself.
@Suite("the Apple availability guard")
struct AppleAvailabilityGuardTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let script = root + "/scripts/check_apple_availability.py"
  static let hasPython = ExternalTool.path(["python3"]) != nil

  /// One use of each API the guard keeps, as code an Xcode build for iOS 15 would reject, and
  /// the name the guard gives it.
  static let uses: [(name: String, code: String, reported: String)] = [
    ("validating", "let text = String(validating: bytes, as: UTF8.self)", "String(validating:as:)"),
    ("split", #"let pairs = inner.split(separator: "},{", omittingEmptySubsequences: false)"#, "split(separator:)"),
    ("filePath", #"let url = URL(filePath: "/tmp/a.png")"#, "URL(filePath:)"),
    ("percentEncoded", "let path = url.path(percentEncoded: false)", "URL.path(percentEncoded:)"),
    ("appending", #"let file = folder.appending(path: "a.png")"#, "URL.appending(path:)"),
    ("temporaryDirectory", "let folder = URL.temporaryDirectory", "URL.temporaryDirectory"),
    ("regex", #"let digits = try Regex("[0-9]+")"#, "Regex"),
    ("regexLiteral", "let match = text.wholeMatch(of: #/[0-9]+/#)", "Regex"),
    ("ranges", #"let found = text.ranges(of: "ab")"#, "ranges(of:)"),
    ("replacing", #"let cleaned = text.replacing("a", with: "b")"#, "replacing(_:with:)"),
    ("duration", "let wait: Duration = .seconds(2)", "Duration"),
    ("clock", "let clock = ContinuousClock()", "ContinuousClock"),
    ("sleep", "try await Task.sleep(for: .seconds(1))", "Task.sleep(for:)"),
    ("mtim", "let modified = status.st_mtim.tv_sec", "st_mtim"),
    ("glibc", "import Glibc", "import Glibc"),
    ("networking", "import FoundationNetworking", "import FoundationNetworking"),
  ]

  /// Look-alikes that every platform compiles: Character separators (`\r\n` is one Character),
  /// Foundation's older spellings, uses behind `#available` and in a Linux branch, `formatted`
  /// (iOS 15 / macOS 12), and the APIs' names in comments and strings.
  static let clean = #"""
    #if canImport(Glibc)
      import Glibc
    #elseif canImport(Darwin)
      import Darwin
    #endif
    #if canImport(FoundationNetworking)
      import FoundationNetworking
    #endif

    // String(validating: bytes, as: UTF8.self) and URL(filePath:) in a comment
    func lookAlikes(text: String, url: URL, status: stat) async throws -> [Substring] {
      let message = "use URL(filePath:) or text.split(separator: \"ab\")"
      let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
      let fields = text.split(separator: ",")
      let units = text.split(separator: "\u{1F}")
      let replaced = text.replacingOccurrences(of: "a", with: "b")
      let path = url.path
      let file = url.appendingPathComponent("a.png")
      let stamp = Date().formatted()
      let wait = DispatchTimeInterval.seconds(2)
      if #available(iOS 16, macOS 13, tvOS 16, *) {
        let digits = try Regex("[0-9]+")
        try await Task.sleep(for: .seconds(1))
      }
      #if canImport(Darwin)
        let modified = status.st_mtimespec.tv_sec
      #else
        let modified = status.st_mtim.tv_sec
      #endif
      return lines + fields + units
    }

    @available(iOS 16, macOS 13, tvOS 16, *)
    func newer(url: URL) -> String {
      url.path(percentEncoded: false)
    }
    """#

  private func check(_ files: [String]) throws -> ProcessOutput {
    try ExternalTool.run(["python3", Self.script, "--files"] + files)
  }

  @Test("refuses each API of its list, each in a file of its own", .enabled(if: hasPython))
  func refusesEachUse() throws {
    try withTemporaryDirectory("snapdiff-availability") { folder in
      for use in Self.uses {
        let path = folder + "/\(use.name).swift"
        try "import Foundation\n\nfunc use() async throws {\n  \(use.code)\n}\n".write(
          toFile: path, atomically: true, encoding: .utf8)
        let run = try check([path])
        #expect(run.status == 1, "\(use.name): \(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("\(use.name).swift:4: "), "\(use.name): \(run.standardOutput)")
        #expect(run.standardOutput.contains(use.reported), "\(use.name): \(run.standardOutput)")
      }
    }
  }

  @Test("names the versions, the minimum and Apple's page", .enabled(if: hasPython))
  func message() throws {
    try withTemporaryDirectory("snapdiff-availability") { folder in
      let path = folder + "/Validating.swift"
      try "let text = String(validating: bytes, as: UTF8.self)\n".write(toFile: path, atomically: true, encoding: .utf8)
      let run = try check([path])
      #expect(
        run.standardOutput.contains(
          "Validating.swift:1: String(validating:as:) is iOS 18 / tvOS 18 / macOS 15, later than the minimum iOS 15, "
        ), "\(run.standardOutput)")
      #expect(
        run.standardOutput.contains("https://developer.apple.com/documentation/swift/string/init(validating:as:)"),
        "\(run.standardOutput)")
    }
  }

  @Test("passes look-alikes, #available scopes and Linux branches", .enabled(if: hasPython))
  func passesLookAlikes() throws {
    try withTemporaryDirectory("snapdiff-availability") { folder in
      let path = folder + "/Clean.swift"
      try Self.clean.write(toFile: path, atomically: true, encoding: .utf8)
      let run = try check([path])
      #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    }
  }

  @Test("passes the test API's Apple closures as they are", .enabled(if: hasPython))
  func passesTheTree() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["SNAPDIFF_TEST_API_ONLY"] = nil
    let run = try ExternalTool.run(["python3", Self.script], in: Self.root, environment: environment)
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    #expect(run.standardOutput.contains("Swift files of the test API's Apple closures use nothing newer than"))
  }
}
