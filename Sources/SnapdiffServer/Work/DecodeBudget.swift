/// The bytes of decoded images that requests in flight may hold at once (`--max-decoded-mb`).
/// A request reserves what its frame will need before the frame is decoded (from the PNG header
/// or the tree's screen size, see ``DecodeCost``) and gives it back when its verdict is in.
///
/// A request that needs more than is free waits, in order of arrival (a large request is not
/// overtaken forever by small ones); one that needs more than the whole budget is refused at
/// once, since it could never run.
actor DecodeBudget {
  let capacity: Int
  private var available: Int
  private var waiting: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

  init(capacity: Int) {
    self.capacity = capacity
    available = capacity
  }

  /// Runs `work` holding `bytes` of the budget.
  ///
  /// - Throws: `APIError` 422 when `bytes` is over the whole budget; what `work` throws.
  nonisolated func withReservation<T: Sendable>(
    _ bytes: Int, what: String, _ work: @Sendable () async throws -> T
  ) async throws -> T {
    guard bytes <= capacity else {
      throw APIError.unprocessable(
        "\(what) needs \(APIError.bytes(bytes)) of decoded images, more than the server's budget of"
          + " \(APIError.bytes(capacity)) (--max-decoded-mb)")
    }
    await acquire(bytes)
    do {
      let result = try await work()
      await release(bytes)
      return result
    } catch {
      await release(bytes)
      throw error
    }
  }

  private func acquire(_ bytes: Int) async {
    if waiting.isEmpty && bytes <= available {
      available -= bytes
      return
    }
    await withCheckedContinuation { waiting.append((bytes, $0)) }
  }

  private func release(_ bytes: Int) {
    available += bytes
    // In order: the first waiter first, even if a later one would fit.
    while let first = waiting.first, first.bytes <= available {
      waiting.removeFirst()
      available -= first.bytes
      first.continuation.resume()
    }
  }

  /// Bytes free now (for tests).
  var free: Int { available }
}
