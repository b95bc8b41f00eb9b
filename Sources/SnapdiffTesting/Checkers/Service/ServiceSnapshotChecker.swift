import Foundation
import SnapdiffModel
import SnapdiffWire

/// Checks snapshots through a running `snapdiff serve`: each frame is posted to a run there
/// (with its element tree and the page's masks) and the service's verdict becomes the test's.
/// Baselines, current frames and diff images stay on the service, where reviewers approve them
/// on its review page; a failure message links to it.
///
/// The run is opened on the first snapshot and shared by every checker of the process with the
/// same service and run name, so a whole suite lands in one run; `SNAPDIFF_RUN` names a run a
/// CI script opened instead (`POST /api/v1/runs`), which it then closes itself.
public struct ServiceSnapshotChecker: Sendable {
  /// `http://HOST:PORT` of the service.
  public var url: String
  /// The bearer token for writes (`SNAPDIFF_TOKEN`).
  public var token: String?
  /// The run to post to; nil opens one named `runName` on the first snapshot.
  public var run: String?
  /// The name of the run opened on the first snapshot.
  public var runName: String
  /// The branch recorded with the run, or `auto` (``AutoBranch``: the CI's variables, else git
  /// where the test process can run it, macOS and Linux).
  public var branch: String?
  /// The branch `branch` was forked from: with both, the run reads and writes the branch's
  /// overlay in the service's store.
  public var baseBranch: String?
  /// The store's environment folder (device, OS, scale); nil: the service's.
  public var environment: String?
  /// nil: the service's (`never` unless `snapdiff serve --record` says otherwise).
  public var recordMode: RecordMode?
  /// Overrides of the service's comparison defaults, sent with every frame (masks added).
  public var settings: SnapshotSettings
  /// A `SNAPDIFF_RECORD` that is no record mode (``SnapshotChecker/service(url:token:run:runName:branch:baseBranch:environment:recordMode:settings:)``):
  /// thrown by every check, so the tests fail naming it.
  var environmentProblem: ConfigurationError?
  /// The checker's client, made on its first request and kept: one `URLSession` per checker,
  /// not one per snapshot (copies of the checker share it).
  private let connection = ServiceConnection()

  public init(
    url: String, token: String? = nil, run: String? = nil, runName: String = "tests", branch: String? = nil,
    baseBranch: String? = nil, environment: String? = nil, recordMode: RecordMode? = nil,
    settings: SnapshotSettings = SnapshotSettings()
  ) {
    self.url = url
    self.token = token
    self.run = run
    self.runName = runName
    self.branch = branch
    self.baseBranch = baseBranch
    self.environment = environment
    self.recordMode = recordMode
    self.settings = settings
  }

  /// How many `URLSession`s service checkers made in this process: one per checker (and per
  /// change of its address or token), however many snapshots it sends.
  public static var urlSessionsMade: Int { ServiceClient.made.value }

  /// Posts `frame` as snapshot `key` and turns the service's verdict into the test's. The PNG
  /// goes as captured (a frame that is a tree alone is rendered by the service).
  public func verify(_ frame: CapturedFrame, key rawKey: String, masks: SnapshotMasks = SnapshotMasks()) throws
    -> SnapshotVerdict
  {
    if let environmentProblem { throw environmentProblem }
    let key = try SnapshotKey(rawKey)
    for selector in masks.selectors { _ = try ElementSelector(selector) }
    let client = try connection.client(url: url, token: token)
    let run = try runID(client)

    var body = MultipartBody()
    if let png = try FramesFolder.pngBytes(of: frame) {
      body.add(name: "frame", filename: "frame.png", contentType: "image/png", Data(png))
    }
    if let tree = frame.tree {
      body.add(name: "tree", filename: "tree.json", contentType: "application/json", Data(try tree.encoded()))
    }
    let settings = masks.added(to: self.settings)
    if settings != SnapshotSettings() {
      body.add(name: "settings", contentType: "application/json", try JSONEncoder().encode(settings))
    }
    let path = APIPaths.snapshot(run: run, key: key.rawValue)
    let response = try client.send("PUT", path, body: body.finished, contentType: body.contentType)
    let answer = try client.decode(response, as: SnapshotVerdictResponse.self, "PUT", path)
    return answer.verdict(run: run, service: client.baseURL)
  }

  /// Tells the service that the test skipped `key` (a page that may not take snapshots, or has
  /// no shooter), with the reason: the run lists it as skipped, as `snapdiff check` does.
  public func recordSkip(key rawKey: String, reason: String) throws {
    if let environmentProblem { throw environmentProblem }
    let key = try SnapshotKey(rawKey)
    let client = try connection.client(url: url, token: token)
    let run = try runID(client)
    let path = APIPaths.skip(run: run, key: key.rawValue)
    _ = try client.json("POST", path, body: SkipRequest(reason: reason), as: SnapshotVerdictResponse.self)
  }

  /// Closes the run this checker posts to (the one it opened, or `run`): the service writes its
  /// reports and the run's verdict is final. Later snapshots open a new run.
  ///
  /// - Returns: nil when no run was opened yet.
  @discardableResult
  public func closeRun() throws -> ServiceRunSummary? {
    let client = try connection.client(url: url, token: token)
    guard let id = run ?? OpenServiceRuns.shared.forget(openingKey(client)) else { return nil }
    let path = APIPaths.close(run: id)
    let summary = try client.decode(client.send("POST", path), as: RunSummary.self, "POST", path)
    return ServiceRunSummary(summary, service: client.baseURL)
  }

  /// The run to post to: `run`, or the process's run for this service and name, opened now if
  /// there is none yet.
  private func runID(_ client: ServiceClient) throws(ServiceError) -> String {
    if let run { return run }
    return try OpenServiceRuns.shared.id(for: openingKey(client)) { () throws(ServiceError) in
      let (branch, base) = try resolvedBranch()
      var request = OpenRunRequest(
        name: runName, branch: branch, baseBranch: base, environment: environment, recordMode: recordMode)
      // The CI's commit, when the test process sees its variables: the service finds flaky
      // snapshots among runs of one commit.
      request.commit = CIPlatform.commit(in: ProcessEnvironment.variables)
      return try client.json("POST", APIPaths.runs, body: request, as: RunSummary.self).id
    }
  }

  /// `branch` and `baseBranch`, with `auto` resolved: the CI's variables, else git where this
  /// process can start it (not in an iOS simulator or on a device: there `snapdiff test
  /// --branch auto` resolves it on the host, or `SNAPDIFF_BRANCH` names it).
  func resolvedBranch() throws(ServiceError) -> (branch: String?, base: String?) {
    guard branch == AutoBranch.keyword else { return (branch, baseBranch) }
    do {
      let auto = try AutoBranch.resolve(environment: ProcessEnvironment.variables, git: GitProcess.runner)
      return (auto.branch, baseBranch ?? auto.base)
    } catch {
      throw ServiceError(error.message)
    }
  }

  private func openingKey(_ client: ServiceClient) -> String {
    [client.baseURL, runName, branch ?? "", baseBranch ?? "", environment ?? "", recordMode?.rawValue ?? ""].joined(
      separator: "\u{1F}")
  }
}

/// A checker's client of the service, made once for its address and token (and again only if
/// they change), so its `URLSession` serves every snapshot.
final class ServiceConnection: @unchecked Sendable {
  private let lock = Lock()
  private var current: ServiceClient?

  func client(url: String, token: String?) throws(ServiceError) -> ServiceClient {
    try lock.withLock { () throws(ServiceError) -> ServiceClient in
      if let current, current.serves(url: url, token: token) { return current }
      let made = try ServiceClient(baseURL: url, token: token)
      current = made
      return made
    }
  }
}

/// What `closeRun()` reports: the run and its verdict as the service computed it (the wire's
/// ``RunSummary``, with its page made a link this process can open).
public struct ServiceRunSummary: Sendable {
  public var id: String
  public var verdict: String
  public var passed: Bool
  public var snapshotCount: Int
  /// Snapshots by status (`passed`, `failed`, `new`, …).
  public var counts: [String: Int]
  /// Snapshots a reviewer can act on.
  public var toReview: Int
  /// The run's review page: the service's link (absolute when it runs with `--public-url`),
  /// else the page on the address this process posted to.
  public var pageURL: String

  /// - Parameter service: the address this process posted to.
  init(_ summary: RunSummary, service: String) {
    id = summary.id
    verdict = summary.verdict.rawValue
    passed = summary.passed
    snapshotCount = summary.snapshotCount
    counts = summary.counts
    toReview = summary.toReview
    pageURL = Self.page(summary.links.page, run: summary.id, service: service)
  }

  /// A page link from the service: as it is when absolute, else on `service`; without one (an
  /// older service), the page on `service`.
  static func page(_ link: String?, run: String, service: String) -> String {
    guard let link, !link.isEmpty else { return service + "/runs/" + PercentEncoding.segment(run) }
    return link.hasPrefix("http://") || link.hasPrefix("https://") ? link : service + link
  }
}

/// The runs this process opened on services, by service and run name: one run per suite, however
/// many checkers and threads post to it.
final class OpenServiceRuns: @unchecked Sendable {
  static let shared = OpenServiceRuns()
  private let lock = Lock()
  private var ids: [String: String] = [:]

  /// The run for `key`, opening it with `open` (under the lock, so two threads never open two).
  func id(for key: String, open: () throws(ServiceError) -> String) throws(ServiceError) -> String {
    try lock.withLock { () throws(ServiceError) -> String in
      if let id = ids[key] { return id }
      let id = try open()
      ids[key] = id
      return id
    }
  }

  /// Removes and returns the run for `key`.
  func forget(_ key: String) -> String? {
    lock.withLock { ids.removeValue(forKey: key) }
  }
}

extension SnapshotVerdictResponse {
  /// The test's verdict: passed (or recorded), or failed with a message that says what changed
  /// and where to review it.
  func verdict(run: String, service: String) -> SnapshotVerdict {
    let page = ServiceRunSummary.page(pageURL, run: run, service: service)
    var verdict: SnapshotVerdict
    if let error {
      verdict = SnapshotVerdict(
        key: key, status: .failed,
        message: "Snapshot '\(key)' could not be checked by the service: \(error)\n  review: \(page)")
    } else if passed {
      verdict = SnapshotVerdict(key: key, status: status == .skipped ? .skipped : .passed)
    } else if recorded && status == .new {
      // A failed snapshot the record mode re-recorded (`all`, `failed`) still fails, as it does
      // in `check` and in the local checker (`SnapshotCheck.verdict`); only a new one
      // recorded passes as `recorded`.
      verdict = SnapshotVerdict(key: key, status: .recorded)
    } else if status == .new {
      verdict = SnapshotVerdict(
        key: key, status: .failed,
        message: "Snapshot '\(key)' has no baseline on the service yet (record mode never).\n"
          + "  current: \(service)\(currentURL ?? "")\n  review:  \(page) (approve it there, or: snapdiff approve --new)"
      )
    } else {
      var lines = [
        "Snapshot '\(key)' does not match its baseline on the service: "
          + DifferenceWording.sentence(
            differentPixels: differentPixels, totalPixels: totalPixels, differentRatio: differentRatio,
            regions: regions, baselineSize: baselineSize, currentSize: currentSize)
      ]
      if let difference { lines.append("  difference: " + difference.sentence) }
      let layout = (layout ?? []).map(\.description)
      if !layout.isEmpty { lines.append("  layout: " + layout.joined(separator: "; ")) }
      if let regionNotes, !regionNotes.isEmpty { lines.append("  regions: " + regionNotes.joined(separator: "; ")) }
      if let contrast, contrast.failsSnapshot, !contrast.failures.isEmpty {
        lines.append("  contrast (\(contrast.level.rawValue)): " + contrast.failures.joined(separator: "; "))
      }
      if let baselineURL { lines.append("  baseline: \(service)\(baselineURL)") }
      if let currentURL { lines.append("  current:  \(service)\(currentURL)") }
      if let diffURL { lines.append("  diff:     \(service)\(diffURL)") }
      lines.append("  review:   \(page) (approve the change there if it is intended)")
      if recorded { lines.append("The baseline was re-recorded on the service (record mode); re-run to check.") }
      verdict = SnapshotVerdict(key: key, status: .failed, message: lines.joined(separator: "\n"))
    }
    verdict.differentPixels = differentPixels
    verdict.regionNotes = regionNotes ?? []
    verdict.baselinePath = baselineURL.map { service + $0 }
    verdict.currentPath = currentURL.map { service + $0 }
    verdict.diffPath = diffURL.map { service + $0 }
    return verdict
  }
}
