import Foundation
import SnapdiffCore
import SnapdiffServer
import SnapdiffTesting
import Testing

/// A `takeSnapshot` call's regions through the service checker: sent in the frame's settings,
/// and what they found back in the test's verdict and failure message.
@Suite("the test-side API's regions through the service")
struct ServiceRegionsCheckerTests {
  static let token = "t0ken"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a call's floating region passes a square moved 3 px; the verdict and a failure carry the region's notes")
  func floatingThroughService() async throws {
    try await withFixture { fixture in
      let square = PixelRect(x: 5, y: 5, width: 8, height: 6)
      try fixture.writeBaseline("Home - test_float/Home", ServerFixture.screen([square]), tree: ServerFixture.tree)
      try await withLoopbackServer(fixture.configuration(token: Self.token)) { port in
        let url = "http://127.0.0.1:\(port)"
        let page = ServicePage(image: ServerFixture.screen([PixelRect(x: 8, y: 5, width: 8, height: 6)]))
        let (passed, failed, messages) = try await offCooperativePool {
          let controller = SnapshotController(
            testName: "test_float", checker: .service(url: url, token: Self.token, runName: "regions"),
            allowsEveryPage: true)
          controller.stableCapture = .off
          var messages: [String] = []
          controller.onFailure = { messages.append($0) }
          let passed = controller.takeSnapshot(
            "Home", id: "Home", page: page, in: page,
            checkRegions: [.floating(square, up: 0, down: 0, left: 0, right: 4)])
          let failed = controller.takeSnapshot(
            "Home", id: "Home", page: page, in: page,
            checkRegions: [.floating(square, up: 0, down: 0, left: 0, right: 1)])
          return (passed, failed, messages)
        }
        #expect(passed.status == .passed, "\(passed.message ?? "")")
        #expect(passed.regionNotes == ["floating region 8×6 at (5, 5): content found moved by (3, 0)"])
        #expect(failed.status == .failed)
        #expect(
          messages.first?.contains(
            "  regions: floating region 8×6 at (5, 5): content not found within its offsets, compared in place")
            == true, "\(messages)")
      }
    }
  }
}
