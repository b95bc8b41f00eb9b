import SnapdiffCore

/// Where snapshots are checked: locally against the baseline store (the embedded default), or
/// through a running `snapdiff serve` that keeps the baselines and the review.
///
/// ```swift
/// SnapshotController<PageFactory>.snapdiff(test: self)                        // SNAPDIFF_SERVICE_URL decides
/// SnapshotController<PageFactory>.snapdiff(test: self, checker: .local())
/// SnapshotController<PageFactory>.snapdiff(test: self, checker: .service(url: "http://ci-box:8080"))
/// ```
public struct SnapshotChecker: Sendable {
  public enum Backend: Sendable {
    case local(LocalSnapshotChecker)
    case service(ServiceSnapshotChecker)
  }

  public var backend: Backend

  public init(_ backend: Backend) {
    self.backend = backend
  }

  /// The service when `SNAPDIFF_SERVICE_URL` is set, else the local store: the default of every
  /// controller and assertion, so a CI job switches a suite to the service without a code change.
  public static func automatic() -> SnapshotChecker {
    let variables = ProcessEnvironment.variables
    if let url = variables["SNAPDIFF_SERVICE_URL"], !url.isEmpty { return .service(url: url) }
    return .local()
  }

  /// Compares locally against the baseline store.
  ///
  /// - Parameters:
  ///   - baselines: the store (default `SNAPDIFF_BASELINES`, else `baselines`).
  ///   - frames: where every captured frame is written (default `SNAPDIFF_FRAMES`, else
  ///     `.snapdiff/frames`).
  ///   - artifacts: where failing frames and diff images go (default `SNAPDIFF_ARTIFACTS`, else
  ///     `.snapdiff/artifacts`).
  ///   - recordMode: default `SNAPDIFF_RECORD`, else `never` when `CI` is set, else `missing`.
  public static func local(
    baselines: String? = nil, environment: String? = nil, frames: String? = nil,
    artifacts: String? = nil, recordMode: RecordMode? = nil, options: DiffOptions = DiffOptions()
  ) -> SnapshotChecker {
    let variables = ProcessEnvironment.variables
    return SnapshotChecker(
      .local(
        LocalSnapshotChecker(
          baselines: baselines ?? variables["SNAPDIFF_BASELINES"] ?? "baselines",
          environment: environment ?? variables["SNAPDIFF_ENVIRONMENT"],
          frames: frames ?? variables["SNAPDIFF_FRAMES"] ?? ".snapdiff/frames",
          artifacts: artifacts ?? variables["SNAPDIFF_ARTIFACTS"] ?? ".snapdiff/artifacts",
          recordMode: recordMode ?? (try? RecordMode.fromEnvironment(variables)) ?? .missing,
          options: options)))
  }

  /// Posts every frame to the `snapdiff serve` at `url`, whose verdicts become the tests'.
  ///
  /// - Parameters:
  ///   - url: `http://HOST:PORT` (default `SNAPDIFF_SERVICE_URL`, else `http://127.0.0.1:8080`).
  ///   - token: the bearer token for writes (default `SNAPDIFF_TOKEN`).
  ///   - run: a run opened beforehand (default `SNAPDIFF_RUN`); without one, the first snapshot
  ///     opens a run named `runName` (default `SNAPDIFF_RUN_NAME`, else `tests`) that the whole
  ///     process shares.
  ///   - branch: recorded with the run (default `SNAPDIFF_BRANCH`).
  ///   - environment: the store's environment folder (default `SNAPDIFF_ENVIRONMENT`).
  ///   - recordMode: default `SNAPDIFF_RECORD`, else the service's.
  ///   - settings: overrides of the service's comparison defaults (threshold, match level, …).
  public static func service(
    url: String? = nil, token: String? = nil, run: String? = nil, runName: String? = nil, branch: String? = nil,
    environment: String? = nil, recordMode: RecordMode? = nil, settings: SnapshotSettings = SnapshotSettings()
  ) -> SnapshotChecker {
    let variables = ProcessEnvironment.variables
    func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
    return SnapshotChecker(
      .service(
        ServiceSnapshotChecker(
          url: url ?? value("SNAPDIFF_SERVICE_URL") ?? "http://127.0.0.1:8080",
          token: token ?? value("SNAPDIFF_TOKEN"), run: run ?? value("SNAPDIFF_RUN"),
          runName: runName ?? value("SNAPDIFF_RUN_NAME") ?? "tests", branch: branch ?? value("SNAPDIFF_BRANCH"),
          environment: environment ?? value("SNAPDIFF_ENVIRONMENT"),
          recordMode: recordMode ?? value("SNAPDIFF_RECORD").flatMap(RecordMode.init(rawValue:)),
          settings: settings)))
  }

  /// Checks `frame` as the snapshot `key`, masking `ignoredElements`.
  public func verify(_ frame: Frame, key: String, ignoredElements: [ElementIdentifier]) throws -> SnapshotVerdict {
    switch backend {
    case .local(let local): try local.verify(frame, key: key, ignoredElements: ignoredElements)
    case .service(let service): try service.verify(frame, key: key, ignoredElements: ignoredElements)
    }
  }

  /// Records that `key` was skipped: in the frames folder for `snapdiff check`, or in the
  /// service's run.
  func recordSkip(key: String, reason: String) throws {
    switch backend {
    case .local(let local): try local.recordSkip(key: key, reason: reason)
    case .service(let service): try service.recordSkip(key: key, reason: reason)
    }
  }

  /// Closes the service run this checker posts to, if it opened one (see
  /// ``ServiceSnapshotChecker/closeRun()``); nil for local checks.
  @discardableResult
  public func closeRun() throws -> ServiceRunSummary? {
    if case .service(let service) = backend { return try service.closeRun() }
    return nil
  }
}
