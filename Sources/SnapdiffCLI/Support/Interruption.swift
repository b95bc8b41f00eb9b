import Dispatch
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP while `snapdiff test` runs: caught instead of ending the process
/// at once, remembered, and passed on to the test command's process group, so that the command
/// stops, the run is closed and the private service is stopped before `snapdiff test` exits.
///
/// The first signal is forwarded as it came; a command still running `grace` seconds later, or
/// a second signal, gets SIGKILL. A second signal once the command has ended (closing the run
/// hangs) ends this process at once: its children then stop by their ``Lifeline``.
///
/// ```swift
/// let interruption = try Interruption.install()
/// let command = try ChildProcess.start(…, ownProcessGroup: true)
/// interruption.forward(to: command.pid)
/// command.wait()
/// interruption.commandEnded()
/// if let signal = interruption.signal { … }
/// ```
final class Interruption: @unchecked Sendable {
  /// The signals caught.
  static let signals = [SIGINT, SIGTERM, SIGHUP]
  /// Seconds a command has to stop after the forwarded signal before it is killed.
  static let grace = 5.0

  /// State, changed on `queue` only.
  private let queue = DispatchQueue(label: "snapdiff.interruption")
  private var first: Int32?
  private var count = 0
  /// The running command's process group.
  private var group: pid_t?

  /// The write end of the pipe the signal handler writes each signal's number to (a handler
  /// may do little else: `write` is async-signal-safe).
  nonisolated(unsafe) private static var handlerPipe: Int32 = -1

  private init() {}

  /// Catches the signals from now on, for the rest of the process.
  ///
  /// - Throws: `FileError` when no pipe can be made.
  static func install() throws -> Interruption {
    let interruption = Interruption()
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw FileError(path: "pipe", message: "cannot make one: \(String(cString: strerror(errno)))")
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    // A handler never blocks: with the pipe full, a signal is dropped (the first is kept).
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    handlerPipe = ends[1]
    let readEnd = ends[0]
    DispatchQueue.global().async {
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count == -1 && errno == EINTR { continue }
        if count <= 0 { return }
        interruption.received(Int32(byte))
      }
    }
    for signal in signals {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { signal in
          var byte = UInt8(truncatingIfNeeded: signal)
          _ = write(Interruption.handlerPipe, &byte, 1)
        }
      #elseif canImport(Darwin)
        action.__sigaction_u.__sa_handler = { signal in
          var byte = UInt8(truncatingIfNeeded: signal)
          _ = write(Interruption.handlerPipe, &byte, 1)
        }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signal, &action, nil)
    }
    // A mask inherited from whoever started this process would keep them pending forever. The
    // threads started from now on inherit this one's mask.
    var caught = sigset_t()
    sigemptyset(&caught)
    for signal in signals { sigaddset(&caught, signal) }
    pthread_sigmask(SIG_UNBLOCK, &caught, nil)
    return interruption
  }

  /// The first signal that came, if any.
  var signal: Int32? { queue.sync { first } }

  /// From now on signals go to the process group `group` (a child started with
  /// `ownProcessGroup`); one that came before is forwarded now.
  func forward(to group: pid_t) {
    queue.sync {
      self.group = group
      if let first { send(first, to: group) }
    }
  }

  /// The command has ended: nothing more is forwarded.
  func commandEnded() {
    queue.sync { group = nil }
  }

  private func received(_ signal: Int32) {
    queue.sync {
      count += 1
      if first == nil { first = signal }
      if let group {
        if count == 1 { send(signal, to: group) } else { kill(-group, SIGKILL) }
      } else if count > 1 {
        // Asked twice while closing the run: stop now; the service stops by its lifeline.
        _exit(128 + signal)
      }
    }
  }

  /// Sends `signal` to `group`, and SIGKILL after `grace` seconds if the command is still running.
  private func send(_ signal: Int32, to group: pid_t) {
    kill(-group, signal)
    queue.asyncAfter(deadline: .now() + Self.grace) { [self] in
      if self.group == group { kill(-group, SIGKILL) }
    }
  }

  /// `SIGTERM` for 15.
  static func name(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    case SIGKILL: "SIGKILL"
    default: "signal \(signal)"
    }
  }
}
