import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs blocking work (file I/O, PNG decoding, comparisons, SQLite) off Swift's cooperative
/// thread pool, which has one thread per core: a comparison there would stall every request.
enum Blocking {
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(with: Result { try work() })
      }
    }
  }

  /// Comparisons at once: two per core. Each holds two decoded frames and a diff image, so a
  /// burst of uploads queues here instead of starting a thread and its memory per request.
  static let comparisons = AsyncLimiter(limit: 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
}

/// At most `limit` holders at once; the others wait in order.
actor AsyncLimiter {
  private var available: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) { available = limit }

  /// Runs `work` on a blocking thread once a place is free.
  nonisolated func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    await acquire()
    do {
      let result = try await Blocking.run(work)
      await release()
      return result
    } catch {
      await release()
      throw error
    }
  }

  private func acquire() async {
    if available > 0 {
      available -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  private func release() {
    if waiting.isEmpty {
      available += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
