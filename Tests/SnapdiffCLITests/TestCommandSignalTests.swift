import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `snapdiff test` stopped by a signal while its test command runs: real processes, real
/// signals. Whatever the signal (SIGKILL included), the test command, the guard it runs under
/// and the private `snapdiff-serve` are gone within seconds; on SIGINT, SIGTERM and SIGHUP the
/// run is closed first and the exit status is 128 + the signal.
@Suite("snapdiff test stopped by a signal")
struct TestCommandSignalTests {
  /// Writes its pid and its parent's (the guard's), then sleeps far longer than any test.
  /// `IGNORE=1`: ignores SIGINT, SIGTERM and SIGHUP, as a stuck test runner might.
  static let longCommand = """
    if [ "$IGNORE" = 1 ]; then trap '' INT TERM HUP; fi
    echo "$$ $PPID" > command.pids.tmp && mv command.pids.tmp command.pids
    exec sleep 300
    """

  struct Case: CustomTestStringConvertible, Sendable {
    var signal: Int32
    var ignoring = false
    var testDescription: String {
      "\(Self.name(signal))\(ignoring ? " (the command ignores it: killed after the grace period)" : "")"
    }

    static func name(_ signal: Int32) -> String {
      [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGKILL: "SIGKILL"][signal] ?? "\(signal)"
    }
  }

  @Test(
    "no child outlives it; the run is closed (not on SIGKILL); exit 128 + the signal",
    arguments: [
      Case(signal: SIGTERM), Case(signal: SIGINT), Case(signal: SIGHUP), Case(signal: SIGKILL),
      Case(signal: SIGTERM, ignoring: true),
    ])
  func stoppedBySignal(_ signalCase: Case) throws {
    try withWorkspace { workspace in
      try Self.longCommand.write(toFile: workspace.root + "/long.sh", atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: SnapdiffProcess.executable)
      process.arguments = ["test", "--", "sh", "long.sh"]
      process.currentDirectoryURL = URL(fileURLWithPath: workspace.root)
      process.environment = SnapdiffProcess.environment(signalCase.ignoring ? ["IGNORE": "1"] : [:])
      // Files, not pipes: a child that outlived it would hold a pipe open and hang the reader.
      let outPath = workspace.root + "/out.txt"
      let errPath = workspace.root + "/err.txt"
      _ = FileManager.default.createFile(atPath: outPath, contents: nil)
      _ = FileManager.default.createFile(atPath: errPath, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
      process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
      process.standardInput = FileHandle.nullDevice
      try process.run()
      defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
      func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

      // The command runs: its pid and the guard's are written, the service listens.
      let pidsPath = workspace.root + "/command.pids"
      let started = Date()
      while !FileManager.default.fileExists(atPath: pidsPath) && Date().timeIntervalSince(started) < 30 {
        Thread.sleep(forTimeInterval: 0.05)
      }
      let pids = read(pidsPath).split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
      try #require(pids.count == 2, "the command did not start: \(read(errPath))")
      let (commandPID, guardPID) = (pids[0], pids[1])
      let serve = try #require(
        Self.children(of: process.processIdentifier).first { $0.name == "snapdiff-serve" },
        "no snapdiff-serve child: \(read(errPath))")
      let port = try #require(
        read(errPath).firstMatch(of: #/service at http://127\.0\.0\.1:(\d+), run ([^;]+);/#), "\(read(errPath))")
      #expect(Self.isAlive(commandPID) && Self.isAlive(guardPID) && Self.isAlive(serve.pid))
      #expect(Self.connects(port: Int(port.1)!))

      let signalled = Date()
      kill(process.processIdentifier, signalCase.signal)
      let limit = signalCase.ignoring ? 12.0 : 6.0
      while process.isRunning && Date().timeIntervalSince(signalled) < limit { Thread.sleep(forTimeInterval: 0.02) }
      try #require(!process.isRunning, "snapdiff test still runs \(limit) s after \(signalCase): \(read(errPath))")
      let exited = Date().timeIntervalSince(signalled)
      var survivors: [pid_t] = [commandPID, guardPID, serve.pid]
      while !survivors.isEmpty && Date().timeIntervalSince(signalled) < limit {
        survivors = survivors.filter(Self.isAlive)
        Thread.sleep(forTimeInterval: 0.02)
      }
      let allGone = Date().timeIntervalSince(signalled)
      #expect(
        survivors.isEmpty,
        "still running \(limit) s after \(signalCase): \(survivors) (command \(commandPID), guard \(guardPID), serve \(serve.pid))"
      )
      #expect(!Self.connects(port: Int(port.1)!), "the service still answers after \(signalCase)")
      print("\(signalCase): snapdiff test exited after \(exited) s, every child gone after \(allGone) s")

      if signalCase.signal == SIGKILL {
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        return
      }
      #expect(process.terminationReason == .exit)
      #expect(process.terminationStatus == 128 + signalCase.signal, "\(read(outPath))\(read(errPath))")
      let output = read(outPath)
      #expect(output.contains("Stopped by \(Case.name(signalCase.signal)): the test command was stopped"), "\(output)")
      // The run was closed, with no snapshot taken.
      let run = String(port.2)
      let record = try String(contentsOfFile: workspace.root + "/.snapdiff/runs/\(run)/run.json", encoding: .utf8)
      #expect(record.contains("\"closedAt\""), "\(record)")
      #expect(output.contains("Run \(run): no snapshot was taken"), "\(output)")
    }
  }

  // MARK: - Processes, from /proc

  /// The processes whose parent is `parent`: pid and name (Linux's /proc).
  static func children(of parent: pid_t) -> [(pid: pid_t, name: String)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> (pid_t, String)? in
      guard let pid = pid_t(entry), let stat = Self.stat(pid) else { return nil }
      return stat.parent == parent ? (pid, stat.name) : nil
    }
  }

  /// Whether `pid` runs (a zombie, ended but not yet reaped by whoever adopted it, does not).
  static func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    return stat(pid).map { $0.state != "Z" && $0.state != "X" } ?? false
  }

  /// `/proc/PID/stat`: `pid (name) state ppid …`.
  static func stat(_ pid: pid_t) -> (name: String, state: Character, parent: pid_t)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 2, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
    return (String(text[text.index(after: open)..<close]), state, parent)
  }

  /// Whether something accepts a connection on 127.0.0.1:`port`.
  static func connects(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
