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
  /// - Throws: `FileError` naming the executable when it cannot be started.
  static func start(
    _ executable: String, _ arguments: [String], environment: [String: String], searchPath: Bool = false,
    captureOutput: Bool = false, discardErrors: Bool = false
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&pipeEnds) == 0 else {
        throw FileError(path: executable, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
      }
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
      ? posix_spawnp(&pid, executable, &actions, nil, argv, envp)
      : posix_spawn(&pid, executable, &actions, nil, argv, envp)
    if captureOutput { close(pipeEnds[1]) }
    guard status == 0 else {
      if captureOutput { close(pipeEnds[0]) }
      throw FileError(path: executable, message: "cannot be started: \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, output: captureOutput ? pipeEnds[0] : nil)
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
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Asks the child to stop (SIGTERM) and waits for it.
  func stop() {
    kill(pid, SIGTERM)
    wait()
    if let output { close(output) }
  }
}
