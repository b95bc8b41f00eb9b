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
public struct StableCapture: Sendable {
  /// The longest wait for two equal captures, in seconds (0: capture once).
  public var timeout: Double
  /// The pause between two captures, in seconds.
  public var interval: Double
  /// Tells the time and waits; a test hands in a fake one.
  public var clock: any CaptureClock

  public init(timeout: Double = 2, interval: Double = 0.1, clock: any CaptureClock = SystemCaptureClock()) {
    self.timeout = max(0, timeout)
    self.interval = max(0, interval)
    self.clock = clock
  }

  /// Waits up to 2 s for two equal captures, 0.1 s apart.
  public static let `default` = StableCapture()
  /// One capture, checked as it is.
  public static let off = StableCapture(timeout: 0)

  /// A frame from `shooter` once the screen holds still (or the time is up), with how many
  /// captures it took.
  public func capture(with shooter: SnapShooter) throws -> StableFrame {
    var frame = try shooter.capture()
    guard timeout > 0 else { return StableFrame(frame: frame, captures: 1, settled: true) }
    let start = clock.now()
    var captures = 1
    while clock.now() - start < timeout {
      clock.sleep(seconds: interval)
      let next = try shooter.capture()
      captures += 1
      if next.showsSameScreen(as: frame) { return StableFrame(frame: next, captures: captures, settled: true) }
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
  /// Whether the last two captures were equal (false: the time ran out while the screen moved).
  public var settled: Bool

  /// What the verdict adds about the wait: nothing for a screen that was still at once.
  func note(timeout: Double) -> String? {
    if !settled {
      return
        "the screen was still changing after \(Self.seconds(timeout)) (\(captures) captures): the last capture was checked"
    }
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
