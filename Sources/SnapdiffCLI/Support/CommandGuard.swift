import Dispatch
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The small process `snapdiff test` runs its test command under (`snapdiff _guard FD COMMAND
/// ARGS…`, not a command for people): it leads the command's process group, starts the
/// command in it, and exits with the command's status. Its one job is the case `snapdiff test`
/// cannot handle itself, being killed with SIGKILL: when the ``Lifeline`` on descriptor FD
/// breaks, it sends SIGTERM to the group, and SIGKILL to whatever is left (itself included)
/// after ``Interruption/grace`` seconds. An arbitrary command cannot watch a pipe itself, and a
/// child started with `posix_spawn` cannot ask for `PR_SET_PDEATHSIG`.
///
/// It ignores SIGINT, SIGTERM and SIGHUP (the command gets them with their default action), so
/// that a signal `snapdiff test` forwards to the group stops the command and the guard
/// survives to report how it ended. When `snapdiff test` runs in a terminal's foreground, the
/// guard's group takes the terminal before the command starts (``ForegroundTerminal``).
enum CommandGuard {
  /// The first argument that runs it.
  static let argument = "_guard"

  /// The arguments that run `command` (its path) with `arguments` under a guard.
  static func arguments(lifeline: Lifeline, command: String, _ arguments: [String]) -> [String] {
    [argument, String(lifeline.childDescriptor), command] + arguments
  }

  /// Runs the guard with the arguments after `_guard`; never returns.
  static func run(_ arguments: [String]) -> Never {
    guard arguments.count >= 2, let descriptor = Int32(arguments[0]) else {
      Console.error("snapdiff _guard: runs a command for snapdiff test: _guard FD COMMAND [ARGUMENTS…]")
      exit(64)
    }
    for caught in Interruption.signals { signal(caught, SIG_IGN) }
    let state = GuardState()
    Lifeline.watch(descriptor) {
      state.parentGone()
      kill(-getpgrp(), SIGTERM)
      var waited = 0.0
      while !state.commandEnded && waited < Interruption.grace {
        usleep(50_000)
        waited += 0.05
      }
      kill(-getpgrp(), SIGKILL)
    }
    // The terminal, when `snapdiff test` has it: the command reads it as a foreground job.
    ForegroundTerminal.takeForOwnGroup()
    let command: ChildProcess
    do {
      command = try ChildProcess.start(
        arguments[1], Array(arguments.dropFirst(2)), environment: ProcessEnvironment.variables, searchPath: true)
    } catch {
      Console.error(String(describing: error))
      // As a shell says of a command it found and could not run.
      exit(126)
    }
    let status = command.wait()
    state.endCommand()
    // Orphaned: the watcher ends the group, this process included.
    while state.isOrphaned { pause() }
    exit(status)
  }
}

/// What the guard's two threads share.
private final class GuardState: @unchecked Sendable {
  private let queue = DispatchQueue(label: "snapdiff.guard")
  private var ended = false
  private var orphaned = false

  var commandEnded: Bool { queue.sync { ended } }
  var isOrphaned: Bool { queue.sync { orphaned } }
  func endCommand() { queue.sync { ended = true } }
  func parentGone() { queue.sync { orphaned = true } }
}
