import Foundation
import SnapdiffCore
import SnapdiffTestSupport
import SnapdiffTesting
import Testing

/// A page that declares a floating region around its button.
final class FloatingButtonPage: SnapshotPage {
  let id = "floating"
  let app: TestApp
  var offset: Int
  init(app: TestApp, offset: Int) {
    self.app = app
    self.offset = offset
  }
  var snapShooter: SnapShooter? {
    let app = self.app
    return .tree { app.tree() }
  }
  var checkRegions: [PageRegion] { [.floating("okButton", by: offset)] }
}

@Suite("page regions")
struct PageRegionTests {
  @Test("a page's floating region lets its button move within the offsets, and travels in the frames folder")
  func floating() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let controller = SnapshotController.everyPage(testName: "test_float", checker: scratch.checker(.missing))
    var failures: [String] = []
    controller.onFailure = { failures.append($0) }
    let page = FloatingButtonPage(app: app, offset: 5)
    #expect(controller.takeSnapshot("Button", id: "Floating", page: page, in: app).status == .recorded)
    app.buttonY = 103
    let moved = controller.takeSnapshot("Button", id: "Floating", page: page, in: app)
    #expect(moved.status == .passed, "\(moved.message ?? "")")
    // The frames folder's settings file carries the region for `snapdiff check`.
    let settingsFiles = try FileManager.default.subpathsOfDirectory(atPath: scratch.root + "/frames")
      .filter { $0.hasSuffix(".snapdiff.json") }
    let settingsPath = try #require(settingsFiles.first)
    let settings = try #require(try SnapshotSettings.load(scratch.root + "/frames/" + settingsPath))
    #expect(settings.regions == [.floating(.element("okButton"), offsets: .init(all: 5))])

    page.offset = 2
    let tooFar = controller.takeSnapshot("Button", id: "Floating", page: page, in: app)
    #expect(tooFar.status == .failed)
    #expect(failures.count == 1)
  }

  @Test("regions in points become pixels at the frame's scale")
  func points() {
    let region = PageRegion.strict(ElementFrame(x: 1.5, y: 2, width: 10, height: 4))
    #expect(region.checkRegion(scale: 2) == CheckRegion(.strict, .pixels(PixelRect(x: 3, y: 4, width: 20, height: 8))))
    let masks = SnapshotMasks([], scale: 2, checkRegions: [.layout("feed")])
    #expect(masks.settings.regions == [CheckRegion(.layout, .element("feed"))])
  }
}
