import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's open connections, at most `limit` of them: the cap that keeps slow or idle
/// clients from holding every file descriptor.
///
/// A new connection over the cap closes the connection that has waited longest without a
/// request in progress (an idle keep-alive connection, or one still sending its head: what a
/// slow-loris client holds), so a flood of half-sent heads cannot keep a real request out. When
/// every connection has a request in progress, the new one is refused (503 with `Retry-After`).
///
/// Stopping `accept` at the cap (Hummingbird's `MaximumAvailableConnections`) would leave new
/// clients, `/health` among them, in the kernel's backlog behind the slow ones until the header
/// timeout freed a place.
final class ConnectionRegistry: Sendable {
  struct ID: Hashable, Sendable {
    fileprivate let value: Int
  }

  private struct Entry {
    var channel: any Channel
    /// Since when it has had no request in progress; `nil` while it has one.
    var evictableSince: NIODeadline?
  }

  private struct State {
    var next = 0
    var entries: [ID: Entry] = [:]
    var evicted = 0
    var refused = 0
  }

  let limit: Int
  private let state = NIOLockedValueBox(State())

  init(limit: Int) {
    self.limit = limit
  }

  /// Descriptors kept free of connections: the index database, uploads, baselines and run files
  /// being read, the log.
  static let reservedDescriptors = 64

  /// `wanted`, lowered so that the connections and the reserve fit under the process's limit of
  /// open files (`ulimit -n`): at that limit `accept` fails, and a server that cannot accept
  /// cannot answer `/health` either.
  static func fitting(_ wanted: Int) -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let found = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
    #else
      let found = getrlimit(RLIMIT_NOFILE, &limit) == 0
    #endif
    // RLIM_INFINITY is all ones.
    guard found, limit.rlim_cur != rlim_t.max else { return wanted }
    return max(1, min(wanted, Int(clamping: limit.rlim_cur) - reservedDescriptors))
  }

  func makeID() -> ID {
    state.withLockedValue { state in
      state.next += 1
      return ID(value: state.next)
    }
  }

  /// Takes `channel` in, closing the longest-waiting idle connection when at the cap; `false`
  /// when there is none to close (the caller refuses `channel`).
  func admit(_ id: ID, channel: any Channel) -> Bool {
    let (admitted, victim) = state.withLockedValue { state -> (Bool, (any Channel)?) in
      var victim: (any Channel)?
      if state.entries.count >= limit {
        let oldest = state.entries.filter { $0.value.evictableSince != nil }
          .min { $0.value.evictableSince! < $1.value.evictableSince! }
        guard let oldest else {
          state.refused += 1
          return (false, nil)
        }
        state.entries[oldest.key] = nil
        state.evicted += 1
        victim = oldest.value.channel
      }
      state.entries[id] = Entry(channel: channel, evictableSince: .now())
      return (true, victim)
    }
    victim?.close(promise: nil)
    return admitted
  }

  func setEvictable(_ id: ID, _ evictable: Bool) {
    state.withLockedValue { state in
      state.entries[id]?.evictableSince = evictable ? .now() : nil
    }
  }

  func remove(_ id: ID) {
    _ = state.withLockedValue { $0.entries.removeValue(forKey: id) }
  }

  /// Connections open, closed to make room, and refused: for tests and the log.
  var counts: (open: Int, evicted: Int, refused: Int) {
    state.withLockedValue { ($0.entries.count, $0.evicted, $0.refused) }
  }
}
