import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything `snapdiff serve` needs to start: where it listens, the baseline store and the data
/// folder it shares with the CLI, who may write, and the limits.
///
/// ```swift
/// var configuration = ServerConfiguration(store: try BaselineStore(root: "baselines"), dataDirectory: ".snapdiff")
/// configuration.token = "s3cret"
/// let app = try await buildApplication(configuration)
/// try await app.runService()
/// ```
public struct ServerConfiguration: Sendable {
  /// The address to bind: a loopback address unless a token is configured.
  public var host: String
  /// The port; 0 picks a free one (``onServerRunning`` is told which).
  public var port: Int
  /// The baseline store runs compare against (its environment is the default for new runs).
  public var store: BaselineStore
  /// The data folder, absolute: `runs/` (the CLI's run folders) and the index database.
  public var dataDirectory: String
  /// The bearer token writes need (and reads too, with ``privateReads``); `nil`: no token, and
  /// then only loopback clients may write.
  public var token: String?
  /// Reads need the token as well.
  public var privateReads: Bool
  /// The largest request body accepted for a frame upload, in bytes.
  public var maxUploadBytes: Int
  /// The record mode of runs whose client does not choose one.
  public var recordMode: RecordMode
  /// The comparison defaults (the project config's threshold and tolerances).
  public var options: DiffOptions
  /// The project config, for its ignore rules (regions by key glob), applied to every run's
  /// frames as `snapdiff check` applies them.
  public var config: ProjectConfig = ProjectConfig()
  /// The PNG decoder (its megapixel limit).
  public var decoder: PNGDecoder
  /// The longest a client may take to send a request's head, from its first byte; then the
  /// connection is answered 408 and closed.
  public var headerTimeout: Duration = .seconds(10)
  /// The longest a connection may stay silent: between requests (keep-alive), and while a body
  /// is being sent (a body shorter than its `Content-Length` ends here). Not while the server
  /// answers.
  public var idleTimeout: Duration = .seconds(60)
  /// The most connections open at once (lowered to fit the open-file limit). At the cap, a new
  /// connection closes the one that has waited longest without a request in progress (idle, or
  /// still sending its head); when every connection has one, the new one gets 503.
  public var maxConnections: Int = 512
  /// The threads that decode, compare, render and parse (the heavy work), apart from the event
  /// loops and Swift's own threads, so that the server keeps answering while they are busy.
  public var workers: Int = ServerConfiguration.defaultWorkers
  /// The most bytes of decoded images that requests in flight may hold at once (each frame counts
  /// three times its width × height × 4: the frame, its baseline and the diff image). A request
  /// that needs more than is free waits its turn; one that needs more than the whole budget is
  /// refused (422).
  public var maxDecodedBytes: Int = 1 << 30
  /// The address the review pages have from outside (`https://snapdiff.example.com`, no
  /// trailing slash), when the server sits behind a proxy or another name: links to pages in
  /// API answers are absolute on it. `nil`: links are paths on this server.
  public var publicURL: String?
  /// The version `GET /api/v1/version` reports.
  public var version: String
  /// Called once the server listens, with the port it listens on.
  public var onServerRunning: (@Sendable (_ port: Int) async -> Void)?
  /// One structured log line per request on standard error (`RequestLogMiddleware`); `snapdiff
  /// serve` turns it on.
  public var logRequests = false
  /// Where runs, their records and the locks live besides the folders: `nil`, the embedded SQLite
  /// index (`<data>/serve.sqlite`, nothing to run); a PostgreSQL database, for several instances
  /// on one shared data folder and store (`--database postgres://…`).
  public var database: DatabaseURL?

  public init(
    host: String = "127.0.0.1", port: Int = 8080, store: BaselineStore, dataDirectory: String,
    token: String? = nil, privateReads: Bool = false, maxUploadBytes: Int = 50 << 20,
    recordMode: RecordMode = .never, options: DiffOptions = DiffOptions(), decoder: PNGDecoder = PNGDecoder(),
    version: String = "0.0.0"
  ) {
    self.host = host
    self.port = port
    self.store = store
    self.dataDirectory = FileSystem.absolute(dataDirectory)
    self.token = token
    self.privateReads = privateReads
    self.maxUploadBytes = maxUploadBytes
    self.recordMode = recordMode
    self.options = options
    self.decoder = decoder
    self.version = version
  }

  /// The run folders: `<data>/runs`, where `snapdiff check` writes too.
  public var runsDirectory: String { dataDirectory + "/runs" }

  /// The link to a run's review page: absolute on ``publicURL`` when there is one, else a path.
  public func pageLink(run id: String) -> String {
    (publicURL.map { String($0.reversed().drop { $0 == "/" }.reversed()) } ?? "") + "/runs/" + APIPaths.segment(id)
  }

  /// The run index: `<data>/serve.sqlite`.
  public var databasePath: String { dataDirectory + "/serve.sqlite" }

  /// The connection cap `snapdiff serve` applies for `wanted`: lowered to fit `ulimit -n`.
  public static func connectionCap(_ wanted: Int) -> Int { ConnectionRegistry.fitting(wanted) }

  /// One worker per core.
  public static let defaultWorkers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

  /// Where uploads are streamed while they arrive: `<data>/uploads`.
  var uploadsDirectory: String { dataDirectory + "/uploads" }

  /// Checks the combination makes sense: a non-loopback address needs a token, `--private`
  /// needs a token, the port and limits are in range.
  ///
  /// - Throws: `ServerConfigurationError` saying what to change.
  public func validate() throws(ServerConfigurationError) {
    if let problem = Self.portProblem(port) { throw ServerConfigurationError(problem) }
    if maxUploadBytes < 1 {
      throw ServerConfigurationError("the upload limit must be at least 1 byte")
    }
    if headerTimeout <= .zero || idleTimeout <= .zero {
      throw ServerConfigurationError("the header and idle timeouts must be longer than 0 seconds")
    }
    if maxConnections < 1 || workers < 1 || maxDecodedBytes < 1 {
      throw ServerConfigurationError("the connection cap, the workers and the decode budget must be at least 1")
    }
    if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
      throw ServerConfigurationError("the token must be non-empty and contain no spaces")
    }
    if token == nil && !Self.isLoopback(host: host) {
      throw ServerConfigurationError(
        "refusing to listen on \(host) without a token: anyone who can reach it could approve"
          + " baselines. Set SNAPDIFF_TOKEN or --token-file, or listen on 127.0.0.1")
    }
    if let publicURL {
      let lower = publicURL.lowercased()
      guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !publicURL.contains(where: { $0.isWhitespace }),
        publicURL.count > (lower.hasPrefix("https://") ? 8 : 7), !publicURL.contains("?"), !publicURL.contains("#")
      else {
        throw ServerConfigurationError(
          "--public-url must be an http:// or https:// URL without query or fragment, not '\(publicURL)'")
      }
    }
    if token == nil && privateReads {
      throw ServerConfigurationError("--private needs a token: set SNAPDIFF_TOKEN or --token-file")
    }
  }

  /// What is wrong with `port` as the port to listen on (0: any free port), or `nil`.
  public static func portProblem(_ port: Int) -> String? {
    (0...65535).contains(port) ? nil : "--port must be between 0 and 65535, not \(port)"
  }

  /// Whether `host` names the loopback interface: `localhost`, `127.0.0.0/8`, `::1`.
  public static func isLoopback(host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "0:0:0:0:0:0:0:1" {
      return true
    }
    if name.hasPrefix("::ffff:") { name = String(name.dropFirst(7)) }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
    return parts[0] == "127"
  }
}

/// A server setting that cannot work, and what to do instead.
public struct ServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
