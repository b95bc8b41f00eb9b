#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal's foreground while `snapdiff test` runs its test command, as a shell gives it to
/// a foreground job: the command's process group (led by its ``CommandGuard``) takes it when
/// `snapdiff test` had it, so a command that reads the terminal (a prompt, a debugger) reads it
/// instead of being stopped by SIGTTIN, and Ctrl-C and Ctrl-\ at the terminal reach the command
/// as they would from a shell; `snapdiff test` takes it back when the command has ended.
///
/// When standard input is not a terminal, or `snapdiff test` runs in the background, nothing
/// changes: the command runs in a background group of its own, as before.
enum ForegroundTerminal {
  /// In the guard, before it starts the command: when standard input is a terminal whose
  /// foreground group is its parent's (`snapdiff test` in the foreground), makes the guard's
  /// group the foreground one. Done here, before the command starts, rather than by the parent
  /// after starting the guard: a command that reads at once never finds itself in the background.
  ///
  /// - Returns: whether the group took the terminal.
  @discardableResult
  static func takeForOwnGroup() -> Bool {
    guard isatty(0) == 1 else { return false }
    let foreground = tcgetpgrp(0)
    guard foreground > 0, foreground == getpgid(getppid()) else { return false }
    return setForeground(getpgrp())
  }

  /// In `snapdiff test`, once the command has ended: the terminal back to this process's group,
  /// when the command's `group` still holds it.
  static func takeBack(from group: pid_t) {
    guard isatty(0) == 1, tcgetpgrp(0) == group else { return }
    setForeground(getpgrp())
  }

  /// `tcsetpgrp` on standard input. A process outside the foreground group that changes it is
  /// sent SIGTTOU unless it ignores it: ignored for the call, as shells do.
  @discardableResult
  private static func setForeground(_ group: pid_t) -> Bool {
    let previous = signal(SIGTTOU, SIG_IGN)
    defer { signal(SIGTTOU, previous) }
    return tcsetpgrp(0, group) == 0
  }
}
