import Foundation
import SnapdiffModel

/// Where a test process leaves its frames when nothing says otherwise: always an absolute path,
/// since a UI-test runner's working folder is not the project (often `/`).
///
/// | running in | frames folder |
/// |---|---|
/// | any process with `SNAPDIFF_FRAMES` set | that folder (a relative one taken from the working folder) |
/// | an iOS, tvOS or visionOS simulator (`SIMULATOR_HOST_HOME` set) | `$SIMULATOR_HOST_HOME/Library/Caches/snapdiff/frames` on the Mac: a simulator's processes write the Mac's files |
/// | another Xcode test runner (`XCTestConfigurationFilePath` set, as Xcode and `xcodebuild` do): a device, macOS | the runner's temporary folder + `snapdiff/frames` (on a device, read them from the test results' attachments) |
/// | anything else (`swift test` in the package) | `.snapdiff/frames` in the working folder |
public enum FramesFolderLocation {
  /// The frames folder for a process with `environment`, working in `currentDirectory`, whose
  /// temporary folder is `temporaryDirectory`.
  public static func resolve(
    environment: [String: String], currentDirectory: String, temporaryDirectory: String
  ) -> String {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    if let frames = value("SNAPDIFF_FRAMES") { return absolute(frames, in: currentDirectory) }
    if let host = value("SIMULATOR_HOST_HOME") { return joined(host, "Library/Caches/snapdiff/frames") }
    if value("XCTestConfigurationFilePath") != nil {
      return joined(absolute(temporaryDirectory, in: currentDirectory), "snapdiff/frames")
    }
    return joined(currentDirectory, ".snapdiff/frames")
  }

  /// This process's frames folder.
  public static var current: String {
    resolve(
      environment: ProcessEnvironment.variables, currentDirectory: FileManager.default.currentDirectoryPath,
      temporaryDirectory: NSTemporaryDirectory())
  }

  private static func absolute(_ path: String, in folder: String) -> String {
    path.hasPrefix("/") ? path : joined(folder, path)
  }

  private static func joined(_ folder: String, _ path: String) -> String {
    var base = folder
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var rest = Substring(path)
    while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
    return base == "/" ? "/" + rest : base + "/" + rest
  }
}
