import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread-safe counter that hands out indices to workers.
final class Counter: @unchecked Sendable {
  private var value = 0
  private let lock = DispatchSemaphore(value: 1)

  /// The next index below `limit`, or `nil` when all are taken.
  func take(below limit: Int) -> Int? {
    lock.wait()
    defer { lock.signal() }
    guard value < limit else { return nil }
    value += 1
    return value - 1
  }

  /// Adds one and returns the new value.
  @discardableResult
  func increment() -> Int {
    lock.wait()
    defer { lock.signal() }
    value += 1
    return value
  }

  /// The value now.
  var current: Int {
    lock.wait()
    defer { lock.signal() }
    return value
  }
}

/// Results written by index from several threads.
final class ResultSlots<Value>: @unchecked Sendable {
  private var slots: [Value?]
  private let lock = DispatchSemaphore(value: 1)

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Value) {
    lock.wait()
    slots[index] = value
    lock.signal()
  }

  func values() -> [Value] {
    lock.wait()
    defer { lock.signal() }
    return slots.compactMap { $0 }
  }
}

/// The number of cores this process may use.
public enum ProcessorCount {
  public static var active: Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }
}
