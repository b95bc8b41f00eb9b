import Dispatch
import Foundation

/// Runs work on the main actor from any thread, synchronously: what the XCUITest shooter needs,
/// since XCUITest's objects are `@MainActor` while a snapshot may be taken from a test running
/// anywhere (a synchronous XCTest method runs on the main thread; an `async` one of a class
/// that is not `@MainActor` runs on the cooperative pool).
///
/// On the main thread the work runs in place; elsewhere it is sent to the main queue, the main
/// actor's executor, and this thread waits for it. `MainActor.assumeIsolated` alone traps there
/// ("Incorrect actor executor assumption").
///
/// > Important: The main thread must be free to run it: a test runner's main thread waits for
/// > an `async` test by running its run loop, which serves the main queue. Code that blocks the
/// > main thread while waiting for this one (a semaphore on the main thread) would never return.
public enum MainActorHop {
  /// The result of `body`, run on the main actor.
  public static func run<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    if Thread.isMainThread { return try MainActor.assumeIsolated(body) }
    return try DispatchQueue.main.sync { try MainActor.assumeIsolated(body) }
  }
}
