import ArgumentParser
import Dispatch
import SnapdiffCLI
import SnapdiffCore
import SnapdiffServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `snapdiff serve`: the HTTP API remote test runners post frames to, and the review page.
///
/// Its own executable, `snapdiff-serve`, which `snapdiff serve` runs in its place: linking
/// Hummingbird and GRDB (and, through them, Foundation) into `snapdiff` made every `compare` and
/// `check` start slower and the binary four times larger.
public struct SnapdiffServe: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "snapdiff serve",
    abstract: "Serve the API that remote test runners post frames to, and the review page.",
    usage: """
      snapdiff serve
      snapdiff serve --port 9000 --baselines baselines
      SNAPDIFF_TOKEN=s3cret snapdiff serve --host 0.0.0.0 --private
      """,
    discussion: """
      Runs go to <data>/runs (default .snapdiff/runs, as snapdiff check's), compared against \
      the same baseline store: runs made by check show up in the service, and approvals made \
      in the service update the store and the run's run.json. The run list is indexed in \
      <data>/serve.sqlite, rebuilt from the run folders at start-up.

      With --database postgres://…, runs' records, the run index and the locks are kept in \
      PostgreSQL instead: start several instances on the same database, the same baseline \
      store and the same data folder (a shared mount) behind a load balancer, and each serves \
      every run. Its tables are migrated at start-up; GET /api/v1/ready answers 503 while the \
      database does not.

      Writes (opening runs, posting frames, approving, rejecting, closing) need \
      'Authorization: Bearer <token>' when a token is set (SNAPDIFF_TOKEN or --token-file); \
      reads are open unless --private. Without a token the server listens on loopback only \
      and takes writes from this machine only.

      The API is under /api/v1 (GET /api/v1/health, /api/v1/runs, …); the review page is at /.
      """,
    version: SnapdiffVersion.current
  )

  public init() {}

  @Option(
    help: ArgumentHelp(
      "The address to listen on; without a token, a loopback address only.", valueName: "host"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("The port (0: any free port).", valueName: "port"))
  var port = 8080

  @Option(
    help: ArgumentHelp(
      "The data folder: runs/ and the index (default: .snapdiff beside snapdiff.json, or here).",
      valueName: "dir"))
  var data: String?

  @Option(
    help: ArgumentHelp(
      "A file holding the token writes need (default: SNAPDIFF_TOKEN).", valueName: "file"))
  var tokenFile: String?

  @Option(
    help: ArgumentHelp(
      "Keep runs, snapshot records, the run index and the locks in PostgreSQL, so that several instances on one shared data folder and baseline store serve the same runs (default: SQLite in <data>/serve.sqlite). Also SNAPDIFF_DATABASE_URL.",
      discussion:
        "postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]; its tables are created or migrated at start-up.",
      valueName: "url"))
  var database: String?

  @Option(
    name: .customLong("public-url"),
    help: ArgumentHelp(
      "The address reviewers reach the server at (behind a proxy, from CI): links to review pages in API answers and output are absolute on it.",
      valueName: "url"))
  var publicURL: String?

  @Flag(name: .customLong("private"), help: "Reads need the token too.")
  var privateReads = false

  @Flag(
    inversion: .prefixedNo,
    help: "One structured log line per request on standard error (method, path, route, status, duration).")
  var requestLog = true

  @Option(help: ArgumentHelp("The largest frame upload, in MiB.", valueName: "n"))
  var maxUploadMb = 50

  @Option(
    help: ArgumentHelp(
      "The most connections open at once; at the cap a new one closes the longest idle (or slowest to send its head) (default: 512, or fewer to fit ulimit -n).",
      valueName: "n"))
  var maxConnections = 512

  @Option(
    help: ArgumentHelp(
      "Seconds a client may take to send a request's head, from its first byte; then 408 and the connection is closed.",
      valueName: "seconds"))
  var headerTimeout = 10.0

  @Option(
    help: ArgumentHelp(
      "Seconds a connection may stay silent between requests or in the middle of a body; then it is closed.",
      valueName: "seconds"))
  var idleTimeout = 60.0

  @Option(
    help: ArgumentHelp(
      "Threads that decode, compare, render and parse trees (default: one per core, \(ServerConfiguration.defaultWorkers) here).",
      valueName: "n"))
  var workers: Int?

  @Option(
    help: ArgumentHelp(
      "MiB of decoded images that requests in flight may hold (each frame counts 3 × width × height × 4); requests beyond it wait their turn.",
      valueName: "n"))
  var maxDecodedMb = 1024

  @Option(
    help: ArgumentHelp(
      "The record mode of runs whose client names none: missing, all, failed or never.",
      valueName: "mode"))
  var record: RecordMode = .never

  /// The read end of `snapdiff test`'s ``Lifeline``: the private service stops when it breaks.
  @Option(help: .hidden)
  var lifeline: Int32?

  @OptionGroup(title: "Comparison defaults")
  var diffOptions: DiffOptionGroup

  @OptionGroup(title: "Project")
  var project: ProjectOptions

  public func validate() throws {
    if let problem = ServerConfiguration.portProblem(port) { throw ValidationError(problem) }
    if !(1...4096).contains(maxUploadMb) {
      throw ValidationError("--max-upload-mb must be between 1 and 4096, not \(maxUploadMb)")
    }
    if !(1...100_000).contains(maxConnections) {
      throw ValidationError("--max-connections must be between 1 and 100000, not \(maxConnections)")
    }
    for (name, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)]
    where !(value > 0 && value <= 86_400) {
      throw ValidationError("\(name) must be more than 0 and at most 86400 seconds, not \(value)")
    }
    if let workers, !(1...1024).contains(workers) {
      throw ValidationError("--workers must be between 1 and 1024, not \(workers)")
    }
    if !(16...1_048_576).contains(maxDecodedMb) {
      throw ValidationError("--max-decoded-mb must be between 16 and 1048576, not \(maxDecodedMb)")
    }
    do {
      _ = try databaseURL()
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// `--database`, else `SNAPDIFF_DATABASE_URL`, parsed; `nil`: SQLite.
  private func databaseURL() throws(ServerConfigurationError) -> DatabaseURL? {
    let text = database ?? ProcessEnvironment.variables["SNAPDIFF_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    return try text.map { text throws(ServerConfigurationError) in try DatabaseURL(text) }
  }

  public func run() throws {
    if let lifeline {
      // The process that started it is gone (killed): stop as on SIGTERM, requests in flight
      // finished; a stop that hangs ends the process 10 s later.
      Lifeline.watch(lifeline) {
        kill(getpid(), SIGTERM)
        sleep(10)
        _exit(2)
      }
    }
    let configuration = try reportingErrors { try serverConfiguration() }
    LeftoverCleaning.run(
      store: configuration.store, runsDirectory: configuration.runsDirectory, dataDirectory: configuration.dataDirectory
    )
    guard #available(macOS 14, iOS 17, tvOS 17, *) else {
      Console.error("snapdiff serve needs macOS 14 or later")
      throw ExitCode(2)
    }
    // The root command stays synchronous (see `Snapdiff`): the server runs in a task while
    // this thread waits for it to stop (SIGINT, SIGTERM, or an error).
    let outcome = ServeOutcome()
    let done = DispatchSemaphore(value: 0)
    Task {
      outcome.error = await Self.serve(configuration)
      done.signal()
    }
    done.wait()
    if let error = outcome.error { throw error }
  }

  /// Runs the server until it is told to stop; the error to exit with, if any.
  @available(macOS 14, iOS 17, tvOS 17, *)
  private static func serve(_ configuration: ServerConfiguration) async -> (any Error)? {
    do {
      try await runApplication(configuration)
      return nil
    } catch {
      Console.error(String(describing: error))
      return ExitCode(2)
    }
  }

  /// The flags, the config file and the environment, resolved.
  func serverConfiguration() throws -> ServerConfiguration {
    let resolved = try project.project()
    let dataDirectory =
      data.map { FileSystem.absolute($0) } ?? String(resolved.runsDirectory.dropLast("/runs".count))
    var configuration = ServerConfiguration(
      host: host, port: port, store: resolved.store, dataDirectory: dataDirectory,
      token: try token(),
      privateReads: privateReads, maxUploadBytes: maxUploadMb << 20, recordMode: record,
      options: diffOptions.diffOptions(defaults: resolved.config.settings),
      decoder: diffOptions.decoder,
      version: SnapdiffVersion.current)
    configuration.config = resolved.config
    configuration.maxConnections = maxConnections
    configuration.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
    configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
    configuration.workers = workers ?? ServerConfiguration.defaultWorkers
    configuration.maxDecodedBytes = maxDecodedMb << 20
    configuration.publicURL = publicURL
    configuration.logRequests = requestLog
    configuration.database = try databaseURL()
    try configuration.validate()
    let announced = configuration
    configuration.onServerRunning = { port in Self.announce(announced, port: port) }
    return configuration
  }

  /// `--token-file`'s first line, else `SNAPDIFF_TOKEN`, else none.
  private func token() throws -> String? {
    if let tokenFile {
      let text = String(decoding: try FileIO.read(tokenFile, limit: 1 << 16), as: UTF8.self)
      let token = text.split(whereSeparator: \.isNewline).first.map { String($0).trimmed } ?? ""
      guard !token.isEmpty else { throw FileError(path: tokenFile, message: "holds no token") }
      return token
    }
    let token = ProcessEnvironment.variables["SNAPDIFF_TOKEN"]?.trimmed
    return token?.isEmpty == false ? token : nil
  }

  /// Where it listens and who may write, on standard output once the server is up.
  private static func announce(_ configuration: ServerConfiguration, port: Int) {
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    var lines = ["snapdiff serve: listening on http://\(host):\(port)/ (API: /api/v1)"]
    lines.append("  baselines: \(configuration.store.root)")
    lines.append("  runs:      \(configuration.runsDirectory)")
    lines.append("  database:  \(configuration.database?.shown ?? configuration.databasePath + " (SQLite)")")
    let connections = ServerConfiguration.connectionCap(configuration.maxConnections)
    lines.append(
      "  limits:    \(connections) connections\(connections < configuration.maxConnections ? " (ulimit -n allows no more)" : ""),"
        + " \(configuration.workers) workers, \(configuration.maxDecodedBytes >> 20) MiB of decoded images")
    if let publicURL = configuration.publicURL {
      lines.append("  public:    \(publicURL) (review pages: \(configuration.pageLink(run: "RUN")))")
    }
    if configuration.token == nil {
      lines.append("  no token: listening on loopback only; writes from this machine only")
    } else {
      lines.append(
        "  token: required for writes\(configuration.privateReads ? " and reads (--private)" : "")")
    }
    print(lines.joined(separator: "\n"))
    fflush(nil)
  }
}

/// What the server task ended with, handed to the waiting thread (the semaphore orders the
/// write before the read).
private final class ServeOutcome: @unchecked Sendable {
  var error: (any Error)?
}

extension String {
  /// Without leading and trailing white space.
  fileprivate var trimmed: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
