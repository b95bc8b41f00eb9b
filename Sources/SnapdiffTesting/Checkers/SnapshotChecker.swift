import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// Where snapshots are checked: in this process against the baseline store (where the engine
/// links: Linux, macOS), through a running `snapdiff serve` that keeps the baselines and the
/// review (synchronously: a mismatch fails the test at once), or afterwards by `snapdiff check`
/// on the frames folder the tests leave (an iOS UI-test bundle without a service).
///
/// ```swift
/// SnapshotController.snapdiff(test: self)                                   // automatic()
/// SnapshotController.snapdiff(test: self, checker: .service(url: "http://ci-box:8080"))
/// SnapshotController.snapdiff(test: self, checker: .frames())               // for snapdiff check
/// ```
public struct SnapshotChecker: Sendable {
  public enum Backend: Sendable {
    #if SNAPDIFF_ENGINE
      case local(LocalSnapshotChecker)
    #endif
    case service(ServiceSnapshotChecker)
    case frames(FramesFolderChecker)
  }

  public var backend: Backend

  public init(_ backend: Backend) {
    self.backend = backend
  }

  /// The service when `SNAPDIFF_SERVICE_URL` is set (`snapdiff test` sets it; `xcodebuild`
  /// passes `TEST_RUNNER_SNAPDIFF_SERVICE_URL` into the simulator as it), else the local store
  /// where the engine links, else the frames folder: the default of every controller and
  /// assertion, so a CI job switches a suite without a code change.
  public static func automatic() -> SnapshotChecker {
    let variables = ProcessEnvironment.variables
    if let url = variables["SNAPDIFF_SERVICE_URL"], !url.isEmpty { return .service(url: url) }
    #if SNAPDIFF_ENGINE
      return .local()
    #else
      return .frames()
    #endif
  }

  /// Leaves every frame in the frames folder for `snapdiff check` (no verdict in the test).
  ///
  /// - Parameter frames: default `SNAPDIFF_FRAMES`, else an absolute folder derived from the
  ///   test process's environment (``FramesFolderLocation``).
  public static func frames(_ frames: String? = nil) -> SnapshotChecker {
    SnapshotChecker(.frames(FramesFolderChecker(frames: frames ?? FramesFolderLocation.current)))
  }

  #if SNAPDIFF_ENGINE
    /// Compares in this process against the baseline store (Linux, macOS).
    ///
    /// - Parameters:
    ///   - baselines: the store (default `SNAPDIFF_BASELINES`, else `baselines`).
    ///   - frames: where every captured frame is written (default `SNAPDIFF_FRAMES`, else
    ///     ``FramesFolderLocation``: `.snapdiff/frames` in the working folder under `swift test`).
    ///   - artifacts: where failing frames and diff images go (default `SNAPDIFF_ARTIFACTS`, else
    ///     `.snapdiff/artifacts`).
    ///   - recordMode: default `SNAPDIFF_RECORD`, else `never` when `CI` is set, else `missing`.
    ///     A `SNAPDIFF_RECORD` that is no record mode fails every snapshot with a message naming
    ///     the variable and the accepted values (this function cannot throw: it is every
    ///     controller's default, through ``automatic()``).
    public static func local(
      baselines: String? = nil, environment: String? = nil, frames: String? = nil,
      artifacts: String? = nil, recordMode: RecordMode? = nil, options: DiffOptions = DiffOptions()
    ) -> SnapshotChecker {
      let variables = ProcessEnvironment.variables
      let (mode, problem) =
        recordMode.map { (mode: $0, problem: nil) }
        ?? environmentRecordMode(variables) { vars throws(ConfigurationError) in
          try RecordMode.fromEnvironment(vars)
        }
      var checker = LocalSnapshotChecker(
        baselines: baselines ?? variables["SNAPDIFF_BASELINES"] ?? "baselines",
        environment: environment ?? variables["SNAPDIFF_ENVIRONMENT"],
        frames: frames ?? FramesFolderLocation.current,
        artifacts: artifacts ?? variables["SNAPDIFF_ARTIFACTS"] ?? ".snapdiff/artifacts",
        recordMode: mode ?? .never, options: options)
      checker.environmentProblem = problem
      return SnapshotChecker(.local(checker))
    }
  #endif

  /// The record mode the environment asks for, or the problem with `SNAPDIFF_RECORD`, kept to
  /// be thrown by every check (``LocalSnapshotChecker/verify(_:key:masks:)``,
  /// ``ServiceSnapshotChecker/verify(_:key:masks:)``) so that a misspelt mode fails the tests
  /// clearly instead of checking in another mode.
  static func environmentRecordMode(
    _ variables: [String: String], _ read: ([String: String]) throws(ConfigurationError) -> RecordMode?
  ) -> (mode: RecordMode?, problem: ConfigurationError?) {
    do {
      return (try read(variables), nil)
    } catch {
      return (nil, error)
    }
  }

  /// Posts every frame to the `snapdiff serve` at `url`, whose verdicts become the tests'.
  ///
  /// - Parameters:
  ///   - url: `http://HOST:PORT` (default `SNAPDIFF_SERVICE_URL`, else `http://127.0.0.1:8080`).
  ///   - token: the bearer token for writes (default `SNAPDIFF_TOKEN`).
  ///   - run: a run opened beforehand (default `SNAPDIFF_RUN`); without one, the first snapshot
  ///     opens a run named `runName` (default `SNAPDIFF_RUN_NAME`, else `tests`) that the whole
  ///     process shares.
  ///   - branch: recorded with the run (default `SNAPDIFF_BRANCH`); `auto` reads it from the
  ///     CI's variables, else git (``AutoBranch``).
  ///   - baseBranch: the branch it was forked from (default `SNAPDIFF_BASE_BRANCH`; with `auto`,
  ///     the CI's target branch or git's default branch): the run then uses the branch's overlay.
  ///   - environment: the store's environment folder (default `SNAPDIFF_ENVIRONMENT`).
  ///   - recordMode: default `SNAPDIFF_RECORD`, else the service's.
  ///   - settings: overrides of the service's comparison defaults (threshold, match level, …).
  public static func service(
    url: String? = nil, token: String? = nil, run: String? = nil, runName: String? = nil, branch: String? = nil,
    baseBranch: String? = nil, environment: String? = nil, recordMode: RecordMode? = nil,
    settings: SnapshotSettings = SnapshotSettings()
  ) -> SnapshotChecker {
    let variables = ProcessEnvironment.variables
    func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
    let (mode, problem) =
      recordMode.map { (mode: $0, problem: nil) }
      ?? environmentRecordMode(variables) { vars throws(ConfigurationError) in
        try RecordMode.fromVariable(vars)
      }
    var checker = ServiceSnapshotChecker(
      url: url ?? value("SNAPDIFF_SERVICE_URL") ?? "http://127.0.0.1:8080",
      token: token ?? value("SNAPDIFF_TOKEN"), run: run ?? value("SNAPDIFF_RUN"),
      runName: runName ?? value("SNAPDIFF_RUN_NAME") ?? "tests", branch: branch ?? value("SNAPDIFF_BRANCH"),
      baseBranch: baseBranch ?? value("SNAPDIFF_BASE_BRANCH"),
      environment: environment ?? value("SNAPDIFF_ENVIRONMENT"), recordMode: mode, settings: settings)
    checker.environmentProblem = problem
    return SnapshotChecker(.service(checker))
  }

  /// Checks `frame` as the snapshot `key`, masking `masks`.
  public func verify(_ frame: CapturedFrame, key: String, masks: SnapshotMasks = SnapshotMasks()) throws
    -> SnapshotVerdict
  {
    switch backend {
    #if SNAPDIFF_ENGINE
      case .local(let local): return try local.verify(frame, key: key, masks: masks)
    #endif
    case .service(let service): return try service.verify(frame, key: key, masks: masks)
    case .frames(let frames): return try frames.verify(frame, key: key, masks: masks)
    }
  }

  /// Whether a frame matches the baseline of `key`, asked without recording or writing
  /// anything (``StableCapture/stopsAtBaselineMatch``): the local engine checker can tell; the
  /// service records every frame it is sent in its run, and the frames folder has no engine, so
  /// for them this is nil.
  func baselineMatcher(key: String) -> ((CapturedFrame, SnapshotMasks) throws -> Bool)? {
    switch backend {
    #if SNAPDIFF_ENGINE
      case .local(let local): return { frame, masks in try local.matchesBaseline(frame, key: key, masks: masks) }
    #endif
    case .service, .frames: return nil
    }
  }

  /// Records that `key` was skipped: in the frames folder for `snapdiff check`, or in the
  /// service's run.
  func recordSkip(key: String, reason: String) throws {
    switch backend {
    #if SNAPDIFF_ENGINE
      case .local(let local): try local.recordSkip(key: key, reason: reason)
    #endif
    case .service(let service): try service.recordSkip(key: key, reason: reason)
    case .frames(let frames): try frames.recordSkip(key: key, reason: reason)
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
