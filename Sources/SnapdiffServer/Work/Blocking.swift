import NIOPosix

/// Runs short blocking work (reading run folders, SQLite, creating upload files) on threads of
/// the server's own: not on Swift's cooperative pool (one thread per core, which every request's
/// handler needs), and not on `DispatchQueue.global`, whose threads on Linux the cooperative pool
/// shares. Heavy work (decoding, comparing, rendering, parsing trees) goes to ``WorkPool``, so
/// that it cannot hold up these threads either.
enum Blocking {
  /// Four threads: enough for the reads of several requests at once, few enough to cost nothing.
  private static let pool = NIOThreadPool._makePerpetualStartedPool(
    numberOfThreads: 4, threadNamePrefix: "snapdiff-io-")

  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await pool.runIfActive(work)
  }
}
