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

        Exit status: 0 when the command succeeded and no snapshot failed; 1 when the command \
        failed or a snapshot did (or is new in record mode never); 2 when the service could \
        not be started or asked.
        """
    )

    @Option(help: ArgumentHelp("The run's name (default: tests).", valueName: "name"))
    var name = "tests"

    @Option(help: ArgumentHelp("The branch recorded with the run.", valueName: "branch"))
    var branch: String?

    @Option(
      help: ArgumentHelp(
        "When to write baselines: missing, all, failed or never (default: SNAPDIFF_RECORD, else never in CI, else missing).",
        valueName: "mode"))
    var record: RecordMode?

    @Option(help: ArgumentHelp("The baseline store (default: baselines).", valueName: "dir"))
    var baselines: String?

    @Option(help: ArgumentHelp("An environment folder in the store (device, OS, scale).", valueName: "name"))
    var environment: String?

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
      let token = Self.newToken()
      let service = try reportingErrors { try PrivateService.start(token: token, arguments: serverArguments) }
      defer { service.stop() }

      let runID = try reportingErrors {
        try service.openRun(name: name, branch: branch, environment: environment, recordMode: recordMode)
      }
      var childEnvironment = variables
      for (variable, value) in [
        ("SNAPDIFF_SERVICE_URL", service.url), ("SNAPDIFF_TOKEN", token), ("SNAPDIFF_RUN", runID),
      ] {
        childEnvironment[variable] = value
        childEnvironment["TEST_RUNNER_" + variable] = value
      }
      Console.status(
        "snapdiff test: service at \(service.url), run \(runID); running \(command.joined(separator: " "))")
      let testStatus = try reportingErrors {
        try ChildProcess.start(command[0], Array(command.dropFirst()), environment: childEnvironment, searchPath: true)
          .wait()
      }

      let summary = try reportingErrors { try service.closeRun(runID) }
      let dataFolder = data ?? ".snapdiff"
      var lines = [summary.line]
      lines.append("Report: \(dataFolder)/runs/\(summary.id)/index.html")
      lines.append("Review: snapdiff serve\(data.map { " --data \($0)" } ?? ""), then open /runs/\(summary.id)")
      if testStatus != 0 { lines.append("The test command failed (exit status \(testStatus)).") }
      print(lines.joined(separator: "\n"))
      if testStatus != 0 || !summary.passed { throw ExitCode.failure }
    }

    /// The options `snapdiff-serve` gets: the store, the data folder, a free port.
    private var serverArguments: [String] {
      var arguments = ["--port", "0"]
      if let baselines { arguments += ["--baselines", baselines] }
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

  /// What `close` answers, as far as the summary needs.
  /// The run `close` answered with (the wire's `RunSummary`), worded for the terminal.
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
  static func start(token: String, arguments: [String]) throws -> PrivateService {
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
      executable, arguments + ["--token-file", tokenPath], environment: environment, captureOutput: true)
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

  func openRun(name: String, branch: String?, environment: String?, recordMode: RecordMode) throws -> String {
    let request = OpenRunRequest(name: name, branch: branch, environment: environment, recordMode: recordMode)
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
