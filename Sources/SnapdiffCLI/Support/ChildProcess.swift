import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process `snapdiff` starts and waits for, through `posix_spawn` (the CLI links no
/// Foundation, whose start-up every other command would pay for).
struct ChildProcess {
  let pid: pid_t
  /// The read end of the child's standard output, when it was captured.
  let output: Int32?

  /// Starts `executable` with `arguments` and `environment` (the whole environment, `NAME=value`).
  ///
  /// - Parameters:
  ///   - searchPath: look `executable` up on `PATH` as a shell would.
  ///   - captureOutput: the child's standard output and error go to a pipe read by
  ///     ``readLine()``; otherwise it shares this process's standard streams.
  ///   - discardErrors: the child's standard error goes to `/dev/null` (with `captureOutput`,
  ///     the pipe then holds its standard output alone).
  ///   - ownProcessGroup: the child leads a new process group (its id is the child's pid), so
  ///     that a signal sent to `-pid` reaches it and everything it starts, and a Ctrl-C at the
  ///     terminal reaches this process only, which decides what the children get (unless the
  ///     group takes the terminal's foreground: `ForegroundTerminal`).
  /// - Throws: `FileError` naming the executable when it cannot be started.
  static func start(
    _ executable: String, _ arguments: [String], environment: [String: String], searchPath: Bool = false,
    captureOutput: Bool = false, discardErrors: Bool = false, ownProcessGroup: Bool = false
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with the default action for the signals that stop a process, whatever
    // this one does with them (`snapdiff test` catches them; its command guard ignores them).
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    // And with no signal blocked, as from a shell: a mask inherited from whoever started this
    // process (Foundation's `Process` passes its threads' on) would keep SIGTERM from the child.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    var flags = Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
    if ownProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pipeEnds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&pipeEnds) == 0 else {
        throw FileError(path: executable, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
      }
      // The read end stays in this process: not in the children it starts later.
      _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    }
    if discardErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status =
      searchPath
      ? posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
      : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    if captureOutput { close(pipeEnds[1]) }
    guard status == 0 else {
      if captureOutput { close(pipeEnds[0]) }
      throw FileError(path: executable, message: "cannot be started: \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, output: captureOutput ? pipeEnds[0] : nil)
  }

  /// `command` as a path: looked up on `path` (the `PATH` variable) as a shell would, unless it
  /// names a folder.
  ///
  /// - Throws: `FileError` naming the command when there is no such executable.
  static func locate(_ command: String, path: String?) throws -> String {
    if command.contains("/") {
      guard access(command, X_OK) == 0 && FileSystem.isFile(command) else {
        throw FileError(path: command, message: "cannot be started: not an executable file")
      }
      return command
    }
    for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
      let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + command
      if access(candidate, X_OK) == 0 && FileSystem.isFile(candidate) { return candidate }
    }
    throw FileError(path: command, message: "cannot be started: not found on PATH")
  }

  /// The next line of the child's standard output, without its newline; nil at its end.
  func readLine() -> String? {
    guard let output else { return nil }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(output, &byte, 1) == 1 {
      if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// Waits for the child; its exit status, or 128 + the signal that ended it.
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return Self.exitStatus(status)
  }

  /// Waits for the child at most `seconds`: its exit status as ``wait()`` gives it, or nil when
  /// it is still running.
  func wait(seconds: Double) -> Int32? {
    var status: Int32 = 0
    var waited = 0.0
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { return Self.exitStatus(status) }
      if reaped == -1 && errno != EINTR { return 128 + SIGKILL }  // not ours any more
      if waited >= seconds { return nil }
      usleep(20_000)
      waited += 0.02
    }
  }

  /// Asks the child to stop (SIGTERM) and waits for it; one still running after `grace`
  /// seconds is killed.
  func stop(grace: Double = 10) {
    kill(pid, SIGTERM)
    if wait(seconds: grace) == nil {
      kill(pid, SIGKILL)
      wait()
    }
    if let output { close(output) }
  }

  private static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
