import Foundation
import Testing

/// `snapdiff test` run from a terminal (a pseudo-terminal that Python's `pty` drives, with
/// `tostop` set, so that writing from the background stops a process as reading does): the test
/// command is the terminal's foreground job, so it reads what is typed instead of being stopped
/// by SIGTTIN, and `snapdiff test` has the terminal back to print its summary.
@Suite("snapdiff test in a terminal")
struct TestCommandTerminalTests {
  static let python = ExternalTool.path(["python3"])

  /// Runs argv[1:] as the session leader of a new pseudo-terminal, answers "hello" to the
  /// prompt `name? `, and prints the exit status (or `timeout` after 60 s, everything killed)
  /// and what the terminal showed.
  static let driver = """
    import os, pty, select, signal, sys, termios, time
    pid, fd = pty.fork()
    if pid == 0:
        attributes = termios.tcgetattr(0)
        attributes[3] |= termios.TOSTOP
        termios.tcsetattr(0, termios.TCSANOW, attributes)
        os.execv(sys.argv[1], sys.argv[1:])
    shown, answered, status = b"", False, None
    deadline = time.time() + 60
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                shown += os.read(fd, 4096)
            except OSError:
                pass
        if not answered and b"name? " in shown:
            os.write(fd, b"hello\\n")
            answered = True
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
            break
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    while True:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    print("timeout" if status is None else status)
    sys.stdout.write(shown.decode("utf-8", "replace"))
    """

  @Test(
    "a test command that reads the terminal reads it, and snapdiff test prints its summary after",
    .enabled(if: python != nil))
  func commandReadsTheTerminal() throws {
    try withWorkspace { workspace in
      let command = #"printf 'name? '; read answer; echo "got:$answer""#
      let run = try ExternalTool.run(
        ["python3", "-c", Self.driver, SnapdiffProcess.executable, "test", "--", "sh", "-c", command],
        in: workspace.root, environment: SnapdiffProcess.environment([:]))
      let lines = run.standardOutput.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
      let shown = lines.count > 1 ? String(lines[1]) : ""
      // The run's status (1: a run without snapshots does not pass), neither a timeout (the
      // command stopped by SIGTTIN) nor 128 + SIGTTOU (snapdiff test stopped writing its summary).
      #expect(lines.first == "1", "status \(lines.first ?? ""): \(shown)\(run.standardError)")
      #expect(shown.contains("got:hello"), "\(shown)")
      #expect(shown.contains("no snapshot was taken"), "\(shown)")
    }
  }
}
