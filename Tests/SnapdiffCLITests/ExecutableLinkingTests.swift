import Foundation
import Testing

/// What the `snapdiff` a user builds loads at each start (`Package.swift`, SNAPDIFF_LINK): every
/// `compare` pays for it, and a suite that runs the CLI once per snapshot pays it per snapshot.
@Suite("snapdiff's executable: what it loads at start")
struct ExecutableLinkingTests {
  /// The shared libraries `ldd` lists for the built `snapdiff`, by file name.
  private func sharedLibraries() throws -> [String] {
    let output = try ExternalTool.run(["ldd", SnapdiffProcess.executable])
    try #require(output.status == 0, "ldd \(SnapdiffProcess.executable): \(output.standardError)")
    return output.standardOutput.split(separator: "\n").compactMap {
      $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { String($0.split(separator: "/").last ?? $0) }
    }
  }

  #if os(Linux)
    @Test("no Foundation, no ICU: the CLI stands on FoundationEssentials")
    func noFoundation() throws {
      let libraries = try sharedLibraries()
      #expect(libraries.contains { $0.hasPrefix("libpng16") }, "ldd listed: \(libraries)")
      for name in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
        #expect(!libraries.contains { $0.hasPrefix(name) }, "\(name) is loaded: \(libraries)")
      }
    }

    @Test("the Swift runtime inside the executable unless SNAPDIFF_LINK=dynamic")
    func swiftRuntimeStatic() throws {
      let libraries = try sharedLibraries()
      let dynamic = ProcessInfo.processInfo.environment["SNAPDIFF_LINK"] == "dynamic"
      #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") } == dynamic, "ldd listed: \(libraries)")
      // And it runs: the version, and what the PNG fast path inflates with.
      let version = try SnapdiffProcess.run(["--version"])
      #expect(version.status == 0)
      #expect(version.standardOutput.contains("PNG image data inflated with"))
    }
  #endif
}
