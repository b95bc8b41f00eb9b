import ArgumentParser
import Dispatch
import SnapdiffCore
import SnapdiffWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Snapdiff {
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a test command against a private snapdiff service, and fail when a snapshot does.",
      discussion: """
        Starts snapdiff-serve on a free loopback port with a token made for this run, opens a \
        run, and runs COMMAND with SNAPDIFF_SERVICE_URL, SNAPDIFF_TOKEN and SNAPDIFF_RUN set, \
        and the same as TEST_RUNNER_SNAPDIFF_… (xcodebuild passes TEST_RUNNER_ variables into \
        the simulator without the prefix), so every snapshot the tests take is checked by the \
        service as it is taken. Then it closes the run, prints its summary with the report, \
        and stops the service.

          snapdiff test -- swift test
          snapdiff test -- xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'

        Runs go to <data>/runs like check's: `snapdiff status`, `approve` and `serve` find them.

        SIGINT, SIGTERM and SIGHUP are passed on to the test command (SIGKILL if it is still \
        running 5 s later); the run is then closed with what it holds, and the service \
        stopped. Killed itself (SIGKILL), snapdiff test takes the command and the service with \
        it: both watch a pipe that closes when it ends. Run from a terminal, the command is \
        the terminal's foreground job while it runs: it can read the terminal, and Ctrl-C \
        reaches it as from a shell (the run is then closed as after any failed command).

        Exit status: 0 when the command succeeded and no snapshot failed; 1 when the command \
        failed or a snapshot did (or is new in record mode never); 2 when the service could \
        not be started or asked; 128 + the signal when stopped by one (130 for SIGINT, 143 \
        for SIGTERM, 129 for SIGHUP).
        """
    )

    @Option(help: ArgumentHelp("The run's name (default: tests).", valueName: "name"))
    var name = "tests"

    @OptionGroup(title: "Branch (with a base, the run reads and writes the branch's overlay)")
    var branchOptions: BranchOptions

    @Option(
      help: ArgumentHelp(
        "When to write baselines: missing, all, failed or never (default: SNAPDIFF_RECORD, else never in CI, else missing).",
        valueName: "mode"))
    var record: RecordMode?

    @OptionGroup(title: "Project")
    var project: ProjectOptions

    @Option(
      help: ArgumentHelp("The data folder: runs/ and the service's index (default: .snapdiff).", valueName: "dir"))
    var data: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The test command, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
      if command.isEmpty { throw ValidationError("Give the test command after --: snapdiff test -- swift test") }
    }

    func run() throws {
      let variables = ProcessEnvironment.variables
      let recordMode = try reportingErrors {
        try record ?? RecordMode.fromEnvironment(variables)
      }
      let interruption = try reportingErrors { try Interruption.install() }
      let lifeline = try reportingErrors { try Lifeline.make() }
      let token = Self.newToken()
      let service = try reportingErrors {
        try PrivateService.start(token: token, arguments: serverArguments, lifeline: lifeline)
      }
      defer { service.stop() }

      let runID = try reportingErrors {
        let (branch, base, mergeBase) = try branchOptions.resolved(environment: variables, quiet: false) { (nil, nil) }
        var request = OpenRunRequest(
          name: name, branch: branch, baseBranch: base, environment: project.environment, recordMode: recordMode)
        request.mergeBase = mergeBase
        request.commit = RunBranch.commit(environment: variables, directory: FileSystem.currentDirectory())
        return try service.openRun(request)
      }
      var childEnvironment = variables
      for (variable, value) in [
        ("SNAPDIFF_SERVICE_URL", service.url), ("SNAPDIFF_TOKEN", token), ("SNAPDIFF_RUN", runID),
      ] {
        childEnvironment[variable] = value
        childEnvironment["TEST_RUNNER_" + variable] = value
      }
      // nil: not started (a signal came first).
      var testStatus: Int32?
      if interruption.signal == nil {
        Console.status(
          "snapdiff test: service at \(service.url), run \(runID); running \(command.joined(separator: " "))")
        testStatus = try reportingErrors {
          try runCommand(environment: childEnvironment, lifeline: lifeline, interruption)
        }
      }

      let summary = try reportingErrors { try service.closeRun(runID) }
      let dataFolder = data ?? ".snapdiff"
      var lines = [summary.line]
      lines.append("Report: \(dataFolder)/runs/\(summary.id)/index.html")
      lines.append("Review: snapdiff serve\(data.map { " --data \($0)" } ?? ""), then open /runs/\(summary.id)")
      if let signal = interruption.signal {
        lines.append(
          "Stopped by \(Interruption.name(signal)): the test command was stopped"
            + (testStatus.map { " (exit status \($0))" } ?? " before it started")
            + "; the run was closed with the snapshots taken until then.")
        print(lines.joined(separator: "\n"))
        // As a shell reports a command a signal ended: 130 for SIGINT, 143 for SIGTERM.
        throw ExitCode(128 + signal)
      }
      let failed = testStatus.map { $0 != 0 } ?? false
      if let testStatus, failed { lines.append("The test command failed (exit status \(testStatus)).") }
      print(lines.joined(separator: "\n"))
      if failed || !summary.passed { throw ExitCode.failure }
    }

    /// Runs the test command under a ``CommandGuard`` in a process group of its own, signals
    /// forwarded to it, the terminal's foreground with it while it runs when this process had
    /// it; its exit status.
    private func runCommand(
      environment: [String: String], lifeline: Lifeline, _ interruption: Interruption
    ) throws -> Int32 {
      let executable = try ChildProcess.locate(command[0], path: environment["PATH"])
      guard let snapdiff = Snapdiff.Serve.ownExecutablePath() else {
        throw FileError(path: "snapdiff", message: "cannot find its own executable to run the test command under")
      }
      let guarded = try ChildProcess.start(
        snapdiff, CommandGuard.arguments(lifeline: lifeline, command: executable, Array(command.dropFirst())),
        environment: environment, ownProcessGroup: true)
      interruption.forward(to: guarded.pid)
      let status = guarded.wait()
      interruption.commandEnded()
      // The guard's group took the terminal when this process had it (`ForegroundTerminal`).
      ForegroundTerminal.takeBack(from: guarded.pid)
      // What the command left in its group after a signal (a child that ignored it).
      if interruption.signal != nil { kill(-guarded.pid, SIGKILL) }
      return status
    }

    /// The options `snapdiff-serve` gets: the store, the config, the data folder, a free port.
    private var serverArguments: [String] {
      var arguments = ["--port", "0"]
      if let baselines = project.baselines { arguments += ["--baselines", baselines] }
      if let config = project.config { arguments += ["--config", config] }
      if let data { arguments += ["--data", data] }
      return arguments
    }

    /// 32 hexadecimal digits from the system's random source.
    static func newToken() -> String {
      var generator = SystemRandomNumberGenerator()
      return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
  }
}

/// The `snapdiff-serve` process `snapdiff test` runs for the length of the tests.
struct PrivateService {
  let process: ChildProcess
  let port: Int
  let token: String
  var url: String { "http://127.0.0.1:\(port)" }

  /// The run `close` answered with (the wire's `RunSummary`), as far as the summary needs it,
  /// worded for the terminal.
  struct ClosedRun {
    var id: String
    var passed: Bool
    var snapshotCount: Int
    var counts: [String: Int]

    init(_ summary: SnapdiffWire.RunSummary) {
      id = summary.id
      passed = summary.passed
      snapshotCount = summary.snapshotCount
      counts = summary.counts
    }

    /// `Run ID: 3 passed, 1 failed (4 snapshots)`, worded as `check` words its runs.
    var line: String {
      var byStatus: [SnapshotStatus: Int] = [:]
      for (name, count) in counts { if let status = SnapshotStatus(rawValue: name) { byStatus[status] = count } }
      let parts = RunSummary.statusCounts(byStatus)
      let total = "\(snapshotCount) snapshot\(snapshotCount == 1 ? "" : "s")"
      return "Run \(id): " + (parts.isEmpty ? "no snapshot was taken" : parts) + " (\(total))"
    }
  }

  /// Starts `snapdiff-serve` with the token in a private file (mode 600) and waits for the
  /// line that names its port.
  /// It stops by itself when this process ends without stopping it (killed): it watches
  /// `lifeline`.
  static func start(token: String, arguments: [String], lifeline: Lifeline) throws -> PrivateService {
    let executable = try Snapdiff.Serve.serverExecutable()
    var template = Array("/tmp/snapdiff-test-token-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw FileError(path: "/tmp", message: "cannot make a file for the service's token") }
    let tokenPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = Array(token.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    defer { unlink(tokenPath) }

    var environment = ProcessEnvironment.variables
    environment["SNAPDIFF_TOKEN"] = nil
    let process = try ChildProcess.start(
      executable, arguments + ["--token-file", tokenPath, "--lifeline", String(lifeline.childDescriptor)],
      environment: environment, captureOutput: true, ownProcessGroup: true)
    var said: [String] = []
    while let line = process.readLine() {
      said.append(line)
      let marker = "listening on http://127.0.0.1:"
      if let start = line.firstRange(of: marker), let port = Int(line[start.upperBound...].prefix { $0.isNumber }) {
        // The rest of what it says is read and dropped, so that it never blocks on a full pipe.
        DispatchQueue.global().async { while process.readLine() != nil {} }
        return PrivateService(process: process, port: port, token: token)
      }
    }
    let status = process.wait()
    throw FileError(
      path: executable,
      message: "stopped (exit status \(status)) before it listened"
        + (said.isEmpty ? "" : ": " + said.joined(separator: " ")))
  }

  func openRun(_ request: OpenRunRequest) throws -> String {
    let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
    let response = try send("POST", APIPaths.runs, json: json)
    return try JSONDecoderBox.decode(SnapdiffWire.RunSummary.self, from: response).id
  }

  func closeRun(_ id: String) throws -> ClosedRun {
    let body = try send("POST", APIPaths.close(run: id), json: nil)
    return ClosedRun(try JSONDecoderBox.decode(SnapdiffWire.RunSummary.self, from: body))
  }

  private func send(_ method: String, _ path: String, json: String?) throws -> [UInt8] {
    let response = try LoopbackHTTP.send(method, port: port, path: path, json: json, token: token)
    guard (200..<300).contains(response.status) else {
      throw FileError(
        path: url + path,
        message: "answered \(response.status): \(String(decoding: response.body.prefix(500), as: UTF8.self))")
    }
    return response.body
  }

  func stop() { process.stop() }
}
