#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs two halves of one piece of work at once: the first on the calling thread, the second on
/// a thread of its own, started for it and joined before returning. The one way snapdiff's engine
/// splits a comparison in two (both files decoded, both halves of the rows compared).
///
/// A plain pthread rather than Dispatch's `concurrentPerform`: the first `concurrentPerform` of
/// a process starts Dispatch's root queue threads and its manager thread (epoll, eventfd,
/// timerfd), which costs a short `snapdiff compare` more than the thread it needs
/// (docs/performance.md, "Start-up").
///
/// ```swift
/// let (a, b) = try TwoThreads.run({ try decode(first) }, { try decode(second) })
/// ```
package enum TwoThreads {
  /// Runs `first` here and `second` on a new thread, and returns when both have finished.
  /// When no thread can be started, `second` runs here after `first`.
  package static func run(_ first: () -> Void, _ second: @Sendable () -> Void) {
    withoutActuallyEscaping(second) { second in
      let thread = startThread(running: second)
      first()
      if let thread {
        join(thread)
      } else {
        second()
      }
    }
  }

  /// Runs `first` here and `second` on a new thread and returns both results; when both throw,
  /// `first`'s error is the one thrown.
  package static func run<First, Second>(
    _ first: () throws -> First, _ second: @Sendable () throws -> Second
  ) throws -> (First, Second) {
    // Each result is initialized in place, once, by its own thread: assigning over an optional
    // instead destroys its old value, which looks up the type's metadata by name at run time
    // (about 20 µs of a `compare` of two small PNGs).
    let firstSlot = UnsafeMutablePointer<First>.allocate(capacity: 1)
    nonisolated(unsafe) let secondSlot = UnsafeMutablePointer<Second>.allocate(capacity: 1)
    defer {
      firstSlot.deallocate()
      secondSlot.deallocate()
    }
    var firstError: (any Error)?
    // Written by the second thread only, and read here after `pthread_join`, which orders the
    // writes before the reads.
    nonisolated(unsafe) var secondError: (any Error)?
    run(
      {
        do { firstSlot.initialize(to: try first()) } catch { firstError = error }
      },
      {
        do { secondSlot.initialize(to: try second()) } catch { secondError = error }
      })
    let firstValue = firstError == nil ? firstSlot.move() : nil
    let secondValue = secondError == nil ? secondSlot.move() : nil
    if let firstError { throw firstError }
    if let secondError { throw secondError }
    return (firstValue!, secondValue!)
  }

  /// Starts `body` on a new thread, or returns `nil` when the system cannot start one.
  private static func startThread(running body: @escaping () -> Void) -> pthread_t? {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    guard pthread_create(&thread, nil, { ThreadBody.run($0) }, context) == 0 else {
      Unmanaged<ThreadBody>.fromOpaque(context).release()
      return nil
    }
    return thread
  }

  private static func join(_ thread: pthread_t) {
    pthread_join(thread, nil)
  }
}

/// A closure handed to a new thread through its one pointer argument.
private final class ThreadBody {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }

  /// The thread's entry point: takes back the reference `startThread` passed and runs the body.
  static func run(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
    return nil
  }
}
