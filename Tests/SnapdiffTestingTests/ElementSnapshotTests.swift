import Foundation
import SnapdiffCore
import SnapdiffTesting
import Testing

/// Steps that snapshot one element of the page, as Eyes' `checkElement` does.
final class ButtonSteps: SnapshotSteps {
  let page: TestPage
  let factory: TestFactory
  init(factory: TestFactory) {
    self.factory = factory
    page = factory.home
  }
  enum SnapshotName: SnapshotValue {
    static let id = "Home"
    case okButton
    var name: String { "OK button" }
  }
}

@Suite("snapshots of one element or region")
struct ElementSnapshotTests {
  private func controller(_ scratch: Scratch, _ mode: RecordMode) -> SnapshotController {
    let controller = SnapshotController(testName: "test_button", checker: scratch.checker(mode))
      .append(allowedPages: ^\.home)
    controller.onFailure = { _ in }
    controller.onNote = { _ in }
    return controller
  }

  @Test("an element's snapshot holds its pixels and tree only: a change elsewhere passes, one inside fails")
  func elementByIdentifier() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = TestFactory(app: app)
    factory.home.masks = []  // the clock is outside the button: no mask needed
    factory.snapshotController = controller(scratch, .missing)
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: ElementIdentifier(id: "okButton", type: .button))
    #expect(factory.snapshotController?.verdicts.last?.status == .recorded)

    // The baseline is the button's 100×30 frame (scale 1), and its tree starts at the button.
    let baseline = scratch.root + "/baselines/Home - test_button/OK button.png"
    let image = try PNGDecoder().decode(contentsOf: baseline)
    #expect(image.size == PixelSize(width: 100, height: 30))
    let tree = try ElementTree.load(scratch.root + "/baselines/Home - test_button/OK button.tree.json")
    #expect(tree.screen == ElementTree.Size(width: 100, height: 30))
    let button = try #require(tree.root.children.first { $0.identifier == "okButton" })
    #expect(button.frame == ElementFrame(x: 0, y: 0, width: 100, height: 30))
    #expect(!tree.root.children.contains { $0.identifier == "clock" })

    // The clock changes, outside the element: the element's snapshot passes without a mask.
    app.clock = "23:59"
    factory.snapshotController = controller(scratch, .never)
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: ElementIdentifier(id: "okButton", type: .button))
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)

    // The button moves: it is found where it is now, and the same pixels pass.
    app.buttonY = 140
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: "okButton")
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)

    // Its title changes: the element's snapshot fails.
    app.buttonLabel = "Okay"
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: "okButton")
    #expect(factory.snapshotController?.verdicts.last?.status == .failed)
  }

  @Test("a region in points or pixels is cut the same way, and the page's masks move into it")
  func regionAndMasks() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let app = TestApp()
    let factory = TestFactory(app: app)
    factory.snapshotController = controller(scratch, .missing)
    // The top-left corner, clock included (masked by the page's selector "clock").
    let corner = ElementFrame(x: 0, y: 0, width: 60, height: 40)
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: corner)
    let image = try PNGDecoder().decode(
      contentsOf: scratch.root + "/baselines/Home - test_button/OK button.png")
    #expect(image.size == PixelSize(width: 60, height: 40))

    app.clock = "10:58"
    factory.snapshotController = controller(scratch, .never)
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: PixelRect(x: 0, y: 0, width: 60, height: 40))
    #expect(factory.snapshotController?.verdicts.last?.status == .passed)

    // Without the page's mask, the clock's change inside the region fails it.
    factory.home.masks = []
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: corner)
    #expect(factory.snapshotController?.verdicts.last?.status == .failed)
  }

  @Test("an element that is not on screen fails the snapshot, saying so")
  func notOnScreen() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let factory = TestFactory(app: TestApp())
    factory.snapshotController = controller(scratch, .missing)
    ButtonSteps(factory: factory).takeSnapshot(.okButton, of: "missingElement")
    let verdict = try #require(factory.snapshotController?.verdicts.last)
    #expect(verdict.status == .failed)
    #expect(verdict.message?.contains("is not on the screen") == true)
  }
}
