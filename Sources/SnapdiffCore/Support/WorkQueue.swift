import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread-safe counter that hands out indices to workers.
final class Counter: @unchecked Sendable {
  private var value = 0
  private let lock = Lock()

  /// The next index below `limit`, or `nil` when all are taken.
  func take(below limit: Int) -> Int? {
    lock.withLock {
      guard value < limit else { return nil }
      value += 1
      return value - 1
    }
  }

  /// Adds one and returns the new value.
  @discardableResult
  func increment() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }

  /// The value now.
  var current: Int {
    lock.withLock { value }
  }
}

/// Results written by index from several threads.
final class ResultSlots<Value>: @unchecked Sendable {
  private var slots: [Value?]
  private let lock = Lock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Value) {
    lock.withLock { slots[index] = value }
  }

  func values() -> [Value] {
    lock.withLock { slots.compactMap { $0 } }
  }
}

/// The number of cores this process may use.
public enum ProcessorCount {
  public static var active: Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }
}
