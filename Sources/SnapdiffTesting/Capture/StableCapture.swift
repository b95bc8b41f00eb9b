import Foundation
import SnapdiffModel

/// How a snapshot waits for a screen that is still moving: the shooter captures again until two
/// consecutive captures show the same screen (the same PNG bytes and the same element tree), or
/// until `timeout` has passed, and the last capture is checked. A screen captured mid-animation
/// (a sheet sliding in, a cross-fade, a spinner) then no longer fails its snapshot, and a screen
/// that never settles is still checked, with a note in the verdict that it was moving.
///
/// ```swift
/// controller.stableCapture = StableCapture(timeout: 5)   // a slow transition
/// controller.stableCapture = .off                        // one capture, as before
/// ```
///
/// The default waits at most 2 s, 0.1 s between captures: a still screen costs one more capture
/// (about a tenth of a second with XCUITest's screenshots); Eyes' default match timeout and
/// Playwright's "two consecutive screenshots match" wait the same way.
///
/// With ``stopsAtBaselineMatch``, a capture that already matches its baseline ends the wait at
/// once, as Eyes' retries do: a still screen that matches costs one capture, not two. Only a
/// checker in this process can tell without recording anything (the local engine checker, on
/// Linux and macOS); with the service or the frames folder the option changes nothing.
///
/// ```swift
/// controller.stableCapture = StableCapture(timeout: 3, stopsAtBaselineMatch: true)
/// ```
public struct StableCapture: Sendable {
  /// The longest wait for two equal captures, in seconds (0: capture once).
  public var timeout: Double
  /// The pause between two captures, in seconds.
  public var interval: Double
  /// Tells the time and waits; a test hands in a fake one.
  public var clock: any CaptureClock
  /// Also stop at the first capture that matches its baseline, where the checker can tell
  /// (the local engine checker; each capture is then compared, in memory, without recording).
  public var stopsAtBaselineMatch: Bool

  public init(
    timeout: Double = 2, interval: Double = 0.1, clock: any CaptureClock = SystemCaptureClock(),
    stopsAtBaselineMatch: Bool = false
  ) {
    self.timeout = max(0, timeout)
    self.interval = max(0, interval)
    self.clock = clock
    self.stopsAtBaselineMatch = stopsAtBaselineMatch
  }

  /// Waits up to 2 s for two equal captures, 0.1 s apart.
  public static let `default` = StableCapture()
  /// One capture, checked as it is.
  public static let off = StableCapture(timeout: 0)

  /// A frame from `shooter` once the screen holds still (or the time is up), with how many
  /// captures it took.
  ///
  /// - Parameter matchesBaseline: whether a capture matches its baseline (``stopsAtBaselineMatch``):
  ///   a capture that does ends the wait. Not asked of a capture equal to the one before (it
  ///   ends the wait anyway), nor when the option is off.
  public func capture(
    with shooter: SnapShooter, matchesBaseline: ((CapturedFrame) throws -> Bool)? = nil
  ) throws -> StableFrame {
    let matches = stopsAtBaselineMatch ? matchesBaseline : nil
    var frame = try shooter.capture()
    guard timeout > 0 else { return StableFrame(frame: frame, captures: 1, settled: true) }
    if let matches, try matches(frame) {
      return StableFrame(frame: frame, captures: 1, settled: true, matchedBaseline: true)
    }
    let start = clock.now()
    var captures = 1
    while clock.now() - start < timeout {
      clock.sleep(seconds: interval)
      let next = try shooter.capture()
      captures += 1
      if next.showsSameScreen(as: frame) { return StableFrame(frame: next, captures: captures, settled: true) }
      if let matches, try matches(next) {
        return StableFrame(frame: next, captures: captures, settled: true, matchedBaseline: true)
      }
      frame = next
    }
    return StableFrame(frame: frame, captures: captures, settled: false)
  }
}

/// The frame a ``StableCapture`` settled on.
public struct StableFrame: Sendable {
  /// The last capture: the one that is checked.
  public var frame: CapturedFrame
  /// How many captures were taken.
  public var captures: Int
  /// Whether the last two captures were equal, or the last matched its baseline (false: the
  /// time ran out while the screen moved).
  public var settled: Bool
  /// The wait ended because the last capture matched its baseline (``StableCapture/stopsAtBaselineMatch``).
  public var matchedBaseline: Bool

  public init(frame: CapturedFrame, captures: Int, settled: Bool, matchedBaseline: Bool = false) {
    self.frame = frame
    self.captures = captures
    self.settled = settled
    self.matchedBaseline = matchedBaseline
  }

  /// What the verdict adds about the wait: nothing for a screen that was still at once.
  func note(timeout: Double) -> String? {
    if !settled {
      return
        "the screen was still changing after \(Self.seconds(timeout)) (\(captures) captures): the last capture was checked"
    }
    if matchedBaseline { return captures > 1 ? "the screen matched its baseline after \(captures) captures" : nil }
    return captures > 2 ? "the screen settled after \(captures) captures" : nil
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}

/// The time source of a ``StableCapture``.
public protocol CaptureClock: Sendable {
  /// Seconds since an arbitrary start, never going back.
  func now() -> Double
  /// Waits `seconds`.
  func sleep(seconds: Double)
}

/// The process's monotonic clock, waiting by blocking the calling thread (a UI test's app runs in
/// its own process, so the wait holds up only the test).
public struct SystemCaptureClock: CaptureClock {
  public init() {}

  public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  public func sleep(seconds: Double) {
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
  }
}

extension CapturedFrame {
  /// Whether `other` shows the same screen: the same screenshot bytes and the same element tree
  /// (a frame rendered from a tree is the same when its tree is).
  func showsSameScreen(as other: CapturedFrame) -> Bool {
    png == other.png && tree == other.tree
  }
}
