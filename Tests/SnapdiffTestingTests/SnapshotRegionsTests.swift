import Foundation
import SnapdiffCore
import SnapdiffTestSupport
import SnapdiffTesting
import Testing

/// A page whose regions are set by the test: check regions and contrast regions, as a page
/// declares them for all of its snapshots.
final class RegionsPage: SnapshotPage, @unchecked Sendable {
  let id = "regions"
  let app: TestApp
  var regions: [PageRegion] = []
  var contrast: [PageContrastRegion] = []
  var frame: (@Sendable () -> CapturedFrame)?
  init(app: TestApp) { self.app = app }
  var snapShooter: SnapShooter? {
    if let frame { return .capture(frame) }
    let app = self.app
    return .tree { app.tree() }
  }
  var ignoredElements: [ElementIdentifier] { ["clock"] }
  var checkRegions: [PageRegion] { regions }
  var contrastRegions: [PageContrastRegion] { contrast }
}

final class RegionsFactory: SnapshotPageFactory {
  let regions: RegionsPage
  var snapshotController: SnapshotController?
  init(app: TestApp) { regions = RegionsPage(app: app) }
}

/// Steps as a page-object suite writes them: the regions of one snapshot given by its call.
final class RegionsSteps: SnapshotSteps {
  let page: RegionsPage
  let factory: RegionsFactory
  init(factory: RegionsFactory) {
    self.factory = factory
    page = factory.regions
  }
  enum SnapshotName: SnapshotValue {
    static let id = "Regions"
    case screen, button
    var name: String { self == .screen ? "Screen" : "Button area" }
  }
}

@Suite("regions of one snapshot, in crops, and contrast regions")
struct SnapshotRegionsTests {
  private func controller(_ checker: SnapshotChecker) -> SnapshotController {
    let controller = SnapshotController.everyPage(testName: "test_regions", checker: checker)
    controller.stableCapture = .off
    controller.onFailure = { _ in }
    controller.onNote = { _ in }
    return controller
  }

  private func settingsFile(_ scratch: Scratch, _ name: String) throws -> SnapshotSettings? {
    try SnapshotSettings.load(scratch.root + "/frames/Regions - test_regions/\(name).snapdiff.json")
  }

  @Test("a takeSnapshot call adds regions of every kind to that snapshot only, after the page's")
  func regionsOfOneCall() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = RegionsFactory(app: app)
    factory.snapshotController = controller(scratch.checker(.missing))
    let steps = RegionsSteps(factory: factory)
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .recorded)

    // The button moved 3 points: a floating region of 5 given by the call lets it pass, and
    // the verdict says where its content was found.
    app.buttonY = 103
    factory.snapshotController = controller(scratch.checker(.never))
    steps.takeSnapshot(.screen, checkRegions: [.floating("okButton", by: 5)])
    let floating = try #require(factory.snapshotController?.verdicts.last)
    #expect(floating.status == .passed, "\(floating.message ?? "")")
    #expect(floating.regionNotes.count == 1 && floating.regionNotes[0].contains("content found moved by (0, 3)"))
    #expect(try settingsFile(scratch, "Screen")?.regions == [.floating(.element("okButton"), offsets: .init(all: 5))])

    // The next call has no region: the same move fails.
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .failed)
    // Moved 10 points, past the offsets: fails, and the failure names the region's finding.
    app.buttonY = 110
    steps.takeSnapshot(.screen, checkRegions: [.floating("okButton", by: 5)])
    let tooFar = try #require(factory.snapshotController?.verdicts.last)
    #expect(tooFar.status == .failed)
    #expect(tooFar.message?.contains("  regions: floating region") == true, "\(tooFar.message ?? "")")

    // An ignore region of the call, in points, added to the page's layout region.
    factory.regions.regions = [.layout("clock")]
    steps.takeSnapshot(.screen, checkRegions: [.ignore(ElementFrame(x: 0, y: 90, width: 120, height: 60))])
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)
    #expect(
      try settingsFile(scratch, "Screen")?.regions == [
        CheckRegion(.layout, .element("clock")),
        CheckRegion(.ignore, .pixels(PixelRect(x: 0, y: 90, width: 120, height: 60))),
      ])
  }

  @Test("in an element's snapshot, regions in points move into its crop; one wholly outside is dropped")
  func regionsInCrops() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = RegionsFactory(app: app)
    // The button's frame on the screen, floating by 5; and a strict region far from the crop.
    factory.regions.regions = [
      .floating(ElementFrame(x: 10, y: 100, width: 100, height: 30), by: 5),
      .strict(ElementFrame(x: 0, y: 0, width: 40, height: 16)),
    ]
    let area = ElementFrame(x: 0, y: 80, width: 120, height: 80)
    factory.snapshotController = controller(scratch.checker(.missing))
    let steps = RegionsSteps(factory: factory)
    steps.takeSnapshot(.button, of: area)
    #expect(factory.snapshotController?.verdicts.last?.status == .recorded)
    #expect(
      try settingsFile(scratch, "Button area")?.regions == [
        .floating(.pixels(PixelRect(x: 10, y: 20, width: 100, height: 30)), offsets: .init(all: 5))
      ])

    app.buttonY = 103
    factory.snapshotController = controller(scratch.checker(.never))
    steps.takeSnapshot(.button, of: area)
    let moved = try #require(factory.snapshotController?.verdicts.last)
    #expect(moved.status == .passed, "\(moved.message ?? "")")
    // The call's regions move the same way.
    factory.regions.regions = []
    steps.takeSnapshot(.button, of: area)
    #expect(factory.snapshotController?.verdicts.last?.status == .failed)
    steps.takeSnapshot(
      .button, of: area, checkRegions: [.floating(ElementFrame(x: 10, y: 100, width: 100, height: 30), by: 5)])
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)
  }

  /// A white 60×40 screen at scale 1 with one line of #777777 "text" (4.47:1 on white) in the
  /// static text `hint` at (8, 10), 30×17 points: under AA's 4.5:1 for regular text.
  static func greyTextFrame() -> CapturedFrame {
    let white = RGBAColor(red: 255, green: 255, blue: 255)
    let fringe = RGBAColor(red: 0xBB, green: 0xBB, blue: 0xBB)
    let ink = RGBAColor(red: 0x77, green: 0x77, blue: 0x77)
    var image = RGBAImage(width: 60, height: 40, filledWith: white)
    for stroke in 0..<4 {
      for y in 13..<24 {
        image[x: 10 + stroke * 5, y: y] = fringe
        image[x: 11 + stroke * 5, y: y] = ink
        image[x: 12 + stroke * 5, y: y] = ink
        image[x: 13 + stroke * 5, y: y] = fringe
      }
    }
    let tree = ElementTree(
      scale: 1, screen: .init(width: 60, height: 40),
      root: Element(
        identifier: "app", elementType: .application, frame: ElementFrame(x: 0, y: 0, width: 60, height: 40),
        children: [
          Element(
            identifier: "hint", elementType: .staticText, label: "Forgot password?",
            frame: ElementFrame(x: 8, y: 10, width: 30, height: 17))
        ]))
    return CapturedFrame(Frame(image: image, tree: tree, path: "login"))
  }

  @Test(
    "a page's contrast regions reach the check: snapdiff.json's AA fails grey text, large-text and ignoreContrast lift it"
  )
  func contrastRegions() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    var config = ProjectConfig()
    config.contrast = .aa
    config.contrastFails = true
    func checker(_ mode: RecordMode) -> SnapshotChecker {
      SnapshotChecker(
        .local(
          LocalSnapshotChecker(
            baselines: scratch.root + "/baselines", frames: scratch.root + "/frames",
            artifacts: scratch.root + "/artifacts", recordMode: mode, config: config)))
    }
    let factory = RegionsFactory(app: TestApp())
    factory.regions.frame = { Self.greyTextFrame() }
    factory.snapshotController = controller(checker(.missing))
    let steps = RegionsSteps(factory: factory)
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .recorded)

    // The same frame: the pixels match, the contrast (snapdiff.json's, in the local checker) fails.
    factory.snapshotController = controller(checker(.never))
    steps.takeSnapshot(.screen)
    let failed = try #require(factory.snapshotController?.verdicts.last)
    #expect(failed.status == .failed)
    #expect(failed.message?.contains("contrast (AA): staticText 'hint'") == true, "\(failed.message ?? "")")

    factory.regions.contrast = [.largeText("hint")]
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)
    #expect(
      try settingsFile(scratch, "Screen")?.contrastRegions == [ContrastRegion(kind: .largeText, selector: "hint")])

    // By its frame in points, as an XCUIElement gives it: the elements wholly inside.
    factory.regions.contrast = [.ignoreContrast(ElementFrame(x: 8, y: 10, width: 30, height: 17))]
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)
    #expect(
      try settingsFile(scratch, "Screen")?.contrastRegions == [
        ContrastRegion(kind: .ignore, area: .pixels(PixelRect(x: 8, y: 10, width: 30, height: 17)))
      ])
    // A region around something else leaves the hint failing.
    factory.regions.contrast = [.graphicalObject(PixelRect(x: 40, y: 0, width: 20, height: 20))]
    steps.takeSnapshot(.screen)
    #expect(factory.snapshotController?.verdicts.last?.status == .failed)
  }
}
