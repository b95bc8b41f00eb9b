import Foundation

/// Runs blocking work (a child process, a socket read) on a thread of its own and waits for it
/// without holding one of the few threads Swift concurrency has (two on a 2-core machine): tests
/// run in parallel, and an in-process server of another test needs those threads to answer.
func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
  }
}
