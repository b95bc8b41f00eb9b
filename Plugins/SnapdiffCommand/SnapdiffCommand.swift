import Foundation
import PackagePlugin

/// `swift package snapdiff check .snapdiff/frames` (any `snapdiff` command after the verb): builds
/// the package's `snapdiff` executable in release through SwiftPM, then runs it in the package's
/// folder with the arguments given, so that a team that depends on this package needs no
/// separate install step. Release, because the pixel loops run about 20 times slower in a debug
/// build.
@main
struct SnapdiffCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let build = try packageManager.build(
      .product("snapdiff"), parameters: PackageManager.BuildParameters(configuration: .release, logging: .concise))
    guard build.succeeded else {
      Diagnostics.error("swift build of snapdiff failed:\n\(build.logText)")
      throw SnapdiffCommandError("the snapdiff executable did not build")
    }
    guard
      let executable = build.builtArtifacts.first(where: {
        $0.kind == .executable && $0.url.lastPathComponent == "snapdiff"
      })
    else {
      throw SnapdiffCommandError("the build made no snapdiff executable")
    }
    let process = Process()
    process.executableURL = executable.url
    process.arguments = arguments
    process.currentDirectoryURL = context.package.directoryURL
    try process.run()
    process.waitUntilExit()
    // snapdiff's own exit status (1: a snapshot failed, 2: bad input) for CI to act on.
    if process.terminationStatus != 0 { exit(process.terminationStatus) }
  }
}

struct SnapdiffCommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
