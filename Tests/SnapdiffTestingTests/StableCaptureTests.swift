import Foundation
import SnapdiffCore
import SnapdiffTesting
import Testing

/// A clock that moves only when the capture waits: no test sleeps.
final class FakeCaptureClock: CaptureClock, @unchecked Sendable {
  private let lock = NSLock()
  private var time = 0.0
  private(set) var waits: [Double] = []

  func now() -> Double { lock.withLock { time } }

  func sleep(seconds: Double) {
    lock.withLock {
      waits.append(seconds)
      time += seconds
    }
  }
}

/// A page whose screen animates: its button slides down by `step` points on each of the first
/// `movingCaptures` captures, then holds still.
final class AnimatedPage: SnapshotPage, @unchecked Sendable {
  let id = "animated"
  let app = TestApp()
  var movingCaptures: Int
  var step = 4.0
  private(set) var captures = 0

  init(movingCaptures: Int) { self.movingCaptures = movingCaptures }

  var snapShooter: SnapShooter? {
    .tree { [self] in
      captures += 1
      if captures <= movingCaptures { app.buttonY += step }
      return app.tree()
    }
  }
  var ignoredElements: [ElementIdentifier] { ["clock"] }
}

final class AnimatedFactory {
  var snapshotController: SnapshotController?
  let animated: AnimatedPage
  init(page: AnimatedPage) { animated = page }
}

@Suite("stable capture")
struct StableCaptureTests {
  /// The baseline: the screen at rest, with its button where the animation ends.
  private func recordBaseline(_ scratch: Scratch, buttonY: Double) {
    let page = AnimatedPage(movingCaptures: 0)
    page.app.buttonY = buttonY
    let factory = AnimatedFactory(page: page)
    let controller = SnapshotController(testName: "test_anim", checker: scratch.checker(.all))
      .append(allowedPages: [AllowedPage { (f: AnimatedFactory) in f.animated }])
    controller.stableCapture = .off
    controller.onNote = { _ in }
    controller.takeSnapshot("Sheet", id: "Anim", page: page, in: factory)
  }

  private func controller(_ scratch: Scratch, _ stable: StableCapture) -> SnapshotController {
    let controller = SnapshotController(testName: "test_anim", checker: scratch.checker(.never))
      .append(allowedPages: [AllowedPage { (f: AnimatedFactory) in f.animated }])
    controller.stableCapture = stable
    controller.onFailure = { _ in }
    controller.onNote = { _ in }
    return controller
  }

  @Test("a screen still moving when first captured passes once it settles, and the verdict counts the captures")
  func settlesThenPasses() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    recordBaseline(scratch, buttonY: 112)  // 100 + 3 moves of 4 pt
    let page = AnimatedPage(movingCaptures: 3)
    let clock = FakeCaptureClock()
    let controller = controller(scratch, StableCapture(timeout: 2, interval: 0.1, clock: clock))
    let verdict = controller.takeSnapshot("Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .passed)
    // Captures 1–3 each moved the button; the 4th equals the 3rd.
    #expect(verdict.captures == 4)
    #expect(clock.waits == [0.1, 0.1, 0.1])
  }

  @Test("captured once (.off), the same moving screen fails")
  func offCapturesOnce() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    recordBaseline(scratch, buttonY: 112)
    let page = AnimatedPage(movingCaptures: 3)
    let verdict = controller(scratch, .off).takeSnapshot(
      "Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .failed)
    #expect(verdict.captures == 1)
    #expect(page.captures == 1)
  }

  @Test("a still screen takes two captures and a real change still fails")
  func stillScreen() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    recordBaseline(scratch, buttonY: 100)
    let page = AnimatedPage(movingCaptures: 0)
    page.app.buttonY = 108
    let clock = FakeCaptureClock()
    let verdict = controller(scratch, StableCapture(clock: clock)).takeSnapshot(
      "Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .failed)
    #expect(verdict.captures == 2)
    #expect(verdict.message?.contains("capture:") == false)
  }

  @Test("a screen that never settles is checked at the time limit, and the failure says it was moving")
  func neverSettles() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    recordBaseline(scratch, buttonY: 100)
    let page = AnimatedPage(movingCaptures: .max)
    page.step = 1
    let clock = FakeCaptureClock()
    let verdict = controller(scratch, StableCapture(timeout: 1, interval: 0.25, clock: clock)).takeSnapshot(
      "Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .failed)
    // One capture, then one every 0.25 s until 1 s has passed.
    #expect(verdict.captures == 5)
    #expect(clock.now() == 1)
    let message = try #require(verdict.message)
    #expect(
      message.contains("capture: the screen was still changing after 1 s (5 captures): the last capture was checked"))
  }

  @Test("stopsAtBaselineMatch: a capture that matches its baseline ends the wait, mid-animation or at once")
  func stopsAtBaselineMatch() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    recordBaseline(scratch, buttonY: 108)  // the animation's second frame
    let page = AnimatedPage(movingCaptures: 3)  // captures at 104, 108, 112, 112
    let clock = FakeCaptureClock()
    let controller = controller(scratch, StableCapture(clock: clock, stopsAtBaselineMatch: true))
    var notes: [String] = []
    controller.onNote = { notes.append($0) }
    let verdict = controller.takeSnapshot("Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .passed)
    #expect(verdict.captures == 2)
    #expect(clock.waits == [0.1])
    #expect(notes == ["snapdiff: snapshot 'Anim - test_anim/Sheet': the screen matched its baseline after 2 captures"])

    // Without the option, the same animation is checked once it holds still, past the baseline.
    let again = AnimatedPage(movingCaptures: 3)
    let settled = self.controller(scratch, StableCapture(clock: FakeCaptureClock())).takeSnapshot(
      "Sheet", id: "Anim", page: again, in: AnimatedFactory(page: again))
    #expect(settled.status == .failed)
    #expect(settled.captures == 4)

    // A still screen that matches takes one capture, not two.
    let still = AnimatedPage(movingCaptures: 0)
    still.app.buttonY = 108
    let once = self.controller(scratch, StableCapture(clock: FakeCaptureClock(), stopsAtBaselineMatch: true))
      .takeSnapshot("Sheet", id: "Anim", page: still, in: AnimatedFactory(page: still))
    #expect(once.status == .passed && once.captures == 1 && still.captures == 1)
  }

  @Test("stopsAtBaselineMatch changes nothing where the checker cannot tell without recording (the frames folder)")
  func stopsAtBaselineMatchWithoutEngine() throws {
    let scratch = Scratch()
    defer { scratch.remove() }
    let page = AnimatedPage(movingCaptures: 0)
    let controller = SnapshotController(testName: "test_anim", checker: .frames(scratch.root + "/frames"))
      .append(allowedPages: [AllowedPage { (f: AnimatedFactory) in f.animated }])
    controller.stableCapture = StableCapture(clock: FakeCaptureClock(), stopsAtBaselineMatch: true)
    controller.onNote = { _ in }
    let verdict = controller.takeSnapshot("Sheet", id: "Anim", page: page, in: AnimatedFactory(page: page))
    #expect(verdict.status == .written)
    #expect(verdict.captures == 2)
  }
}
