import Foundation
import SnapdiffModel
import SnapdiffTestSupport
import SnapdiffTesting
import Testing

/// Where frames go when nothing says: an absolute folder derived from the test process's
/// environment, since a UI-test runner's working folder is not the project.
@Suite("the frames folder's default")
struct FramesFolderLocationTests {
  private func resolve(_ environment: [String: String], cwd: String = "/", tmp: String = "/tmp/runner/") -> String {
    FramesFolderLocation.resolve(environment: environment, currentDirectory: cwd, temporaryDirectory: tmp)
  }

  @Test("SNAPDIFF_FRAMES, made absolute from the working folder when relative")
  func variable() {
    #expect(resolve(["SNAPDIFF_FRAMES": "/Users/ci/frames"]) == "/Users/ci/frames")
    #expect(resolve(["SNAPDIFF_FRAMES": "./out/frames"], cwd: "/work/app") == "/work/app/out/frames")
    #expect(resolve(["SNAPDIFF_FRAMES": ""], cwd: "/work/app") == "/work/app/.snapdiff/frames")
  }

  @Test("in a simulator: the Mac's caches folder, which the simulator's processes write")
  func simulator() {
    let environment = [
      "SIMULATOR_HOST_HOME": "/Users/ann", "XCTestConfigurationFilePath": "/tmp/x.xctestconfiguration",
    ]
    #expect(resolve(environment) == "/Users/ann/Library/Caches/snapdiff/frames")
  }

  @Test("another Xcode test runner (a device, macOS): the runner's temporary folder")
  func device() {
    #expect(resolve(["XCTestConfigurationFilePath": "/private/x.xctestconfiguration"]) == "/tmp/runner/snapdiff/frames")
    #expect(
      resolve(["XCTestConfigurationFilePath": "/private/x.xctestconfiguration"], tmp: "/var/mobile/tmp")
        == "/var/mobile/tmp/snapdiff/frames")
    // XCTestBundlePath alone (which other runners may set) is not Xcode's runner.
    #expect(resolve(["XCTestBundlePath": "/private/UITests.xctest"], cwd: "/work") == "/work/.snapdiff/frames")
  }

  @Test("swift test in the package: .snapdiff/frames in the working folder, absolute")
  func package() {
    #expect(resolve([:], cwd: "/work/snapdiff") == "/work/snapdiff/.snapdiff/frames")
    #expect(resolve([:], cwd: "/") == "/.snapdiff/frames")
  }

  @Test("a frames checker from a runner's environment writes to that absolute folder, whatever the working folder")
  func writesThere() throws {
    try withTemporaryDirectory("snapdiff-frames-location") { tmp in
      let folder = resolve(["XCTestConfigurationFilePath": "/private/x.xctestconfiguration"], cwd: "/", tmp: tmp)
      #expect(folder == tmp + "/snapdiff/frames")
      let verdict = try SnapshotChecker.frames(folder).verify(
        CapturedFrame(png: [UInt8](TestPNG.rgb(width: 2, height: 2) { _, _ in (1, 2, 3) }), tree: nil, source: "test"),
        key: "Home - test_home/Home")
      #expect(verdict.status == .written)
      #expect(FileManager.default.fileExists(atPath: tmp + "/snapdiff/frames/Home - test_home/Home.png"))
    }
  }
}
