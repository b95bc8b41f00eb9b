import NIOConcurrencyHelpers
import NIOPosix

/// The threads that do the server's heavy work: PNG decoding, comparisons, rendering element
/// trees, parsing JSON trees and multipart bodies. A fixed number of them (`--workers`, one per
/// core by default), apart from the event loops and Swift's cooperative threads, so that while
/// every worker is busy with the worst input the server still reads requests and answers
/// `/health` and small requests; work beyond the workers waits its turn in order.
///
/// ```swift
/// let verdict = try await service.work.run { try service.submit(run: id, key: key, frame: frame) }
/// ```
final class WorkPool: Sendable {
  let threads: Int
  private let pool: NIOThreadPool

  private init(threads: Int) {
    self.threads = threads
    pool = NIOThreadPool._makePerpetualStartedPool(numberOfThreads: threads, threadNamePrefix: "snapdiff-work-")
  }

  /// The pool of `threads` threads. A pool lives as long as the process (a server process has
  /// one; tests that start many servers share them by size).
  static func shared(threads: Int) -> WorkPool {
    pools.withLockedValue { pools in
      if let pool = pools[threads] { return pool }
      let pool = WorkPool(threads: threads)
      pools[threads] = pool
      return pool
    }
  }

  private static let pools = NIOLockedValueBox([Int: WorkPool]())

  /// Runs `work` on a worker once one is free.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await pool.runIfActive(work)
  }
}
