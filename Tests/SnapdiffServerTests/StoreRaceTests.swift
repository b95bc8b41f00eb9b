import Foundation
import SnapdiffCore
import Testing

/// Store mutations that race each other, through each front door: `snapdiff` processes, one
/// `snapdiff serve` on SQLite, and two `snapdiff serve` instances on one PostgreSQL database (the
/// store's lock there is `flock` and an advisory lock). Every round starts its two sides at once
/// (threads released together, no sleeps) and then checks that no answered approval was lost:
///
/// - **merge vs approve**: a branch overlay is merged while approvals on that branch arrive; each
///   approval answered is, afterwards, the baseline in the store or still in the overlay.
/// - **undo vs approve**: a run's approvals (keys in one order) race undos (the other order); a
///   snapshot its run says `approved` has that frame as its baseline, and every baseline is the
///   one the approval log says (its newest approval not undone).
///
/// Rounds: `SNAPDIFF_RACE_ROUNDS` (scripts/stress/store_races.sh: 1,000), else a few: enough
/// that each of the six failed before the fix (a merge lost 10–18 of 18 approvals in 3 rounds;
/// an undo lost 1–17 of 60 in 6 rounds, the service on SQLite least: 10 rounds there).
@Suite("store races: merge and undo against approvals", .serialized)
struct StoreRaceTests {
  static let configuredRounds = ProcessInfo.processInfo.environment["SNAPDIFF_RACE_ROUNDS"].flatMap { Int($0) }
  static let postgres = PostgresServiceTests.available
  /// 30 minutes for the suite's few rounds; a stress run gets 4 hours a scenario (1,000 rounds
  /// of undo vs approve at the quiet 10-round rate of a debug build is 25 minutes, and a loaded
  /// machine ran them 3–5 times slower).
  static let timeLimit = TimeLimitTrait.Duration.minutes(configuredRounds == nil ? 30 : 240)
  /// How often a stress run prints its tally so far, in rounds.
  static let progressEvery = 25

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("merge vs approve: snapdiff processes", .timeLimit(Self.timeLimit))
  func mergeCLI() async throws { try await race(.cli, rounds: 3, Self.mergeRound) }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("merge vs approve: the service on SQLite", .timeLimit(Self.timeLimit))
  func mergeSQLite() async throws { try await race(.sqlite, rounds: 3, Self.mergeRound) }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "merge vs approve: two service instances on PostgreSQL", .timeLimit(Self.timeLimit),
    .enabled(if: postgres, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster"))
  func mergePostgres() async throws { try await race(.postgres, rounds: 3, Self.mergeRound) }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("undo vs approve: snapdiff processes", .timeLimit(Self.timeLimit))
  func undoCLI() async throws { try await race(.cli, rounds: 6, Self.undoRound) }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("undo vs approve: the service on SQLite", .timeLimit(Self.timeLimit))
  func undoSQLite() async throws { try await race(.sqlite, rounds: 10, Self.undoRound) }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(
    "undo vs approve: two service instances on PostgreSQL", .timeLimit(Self.timeLimit),
    .enabled(if: postgres, "SNAPDIFF_TEST_POSTGRES_URL is not set: scripts/test.sh starts a cluster"))
  func undoPostgres() async throws { try await race(.postgres, rounds: 6, Self.undoRound) }

  /// Runs `round` `rounds` times (`SNAPDIFF_RACE_ROUNDS` when set) against one project served
  /// through `door`, and checks the tally.
  @available(macOS 14, iOS 17, tvOS 17, *)
  func race(
    _ door: RaceBench.Door, rounds defaultRounds: Int, _ round: @escaping @Sendable (RaceBench, Int) throws -> Tally
  ) async throws {
    let rounds = Self.configuredRounds ?? defaultRounds
    let executable = try #require(ExternalTool.snapdiff, "no snapdiff built beside the tests")
    let database = door == .postgres ? try TestPostgres.newDatabase() : nil
    let (tally, logs) = try await withFixture { fixture in
      try await offCooperativePool {
        let bench = try RaceBench(door: door, root: fixture.root, executable: executable, database: database)
        defer { bench.stop() }
        var tally = Tally()
        for index in 0..<rounds {
          tally.add(try round(bench, index))
          tally.unavailableAnswers = bench.unavailableAnswers
          // A stress run says how far it got as it goes (a run stopped early still shows its
          // rounds), flushed at once for a test binary run on its own (scripts/stress/store_races.sh).
          if Self.configuredRounds != nil, (index + 1) % Self.progressEvery == 0, index + 1 < rounds {
            print("store race \(tally.scenario) (\(door)): \(index + 1) of \(rounds) rounds so far, \(tally.summary)")
            fflush(nil)
          }
        }
        return (tally, bench.logs())
      }
    }
    print("store race \(tally.scenario) (\(door)): \(rounds) rounds, \(tally.summary)")
    #expect(tally.lost.isEmpty, "\(tally.lost.count) lost: \(tally.lost.prefix(5))\n\(logs)")
    #expect(tally.unanswered.isEmpty, "\(tally.unanswered.prefix(5))\n\(logs)")
    #expect(tally.answered > 0)
  }

  // MARK: - Merge vs approve

  /// Keys already in the overlay when the merge starts, and approvals that race it.
  static let overlayKeys = 16
  static let racingApprovals = 6

  /// One branch: an overlay of `overlayKeys` baselines, a closed run on the branch with
  /// `racingApprovals` new snapshots; the merge and the approvals (one request or process each)
  /// started at once. Each approval answered is then in the store or in the overlay; each baseline
  /// the overlay held before is in the store.
  static func mergeRound(_ bench: RaceBench, _ round: Int) throws -> Tally {
    var tally = Tally(scenario: "merge vs approve")
    let branch = "feature/r\(round)"
    let overlay = bench.baselines + "/" + (try BranchOverlay.folder(of: branch))
    var before: [String: RGBAImage] = [:]
    for index in 0..<overlayKeys {
      let key = "merged/r\(round)/\(index)"
      before[key] = frame(round: round, key: 100 + index)
      try FileSystem.createDirectories(PathText.parent(of: overlay + "/" + key))
      try FileIO.writeAtomically(ServerFixture.png(before[key]!), to: overlay + "/" + key + ".png", synced: false)
    }
    let run = try bench.openRun(branch: branch, base: "main")
    var frames: [String: RGBAImage] = [:]
    for index in 0..<racingApprovals {
      let key = "approved/r\(round)/\(index)"
      frames[key] = frame(round: round, key: index)
      try bench.put(run, key, frames[key]!, port: index)
    }
    try bench.close(run)
    let keys = frames.keys.sorted()
    var answers: [String: Bool] = [:]
    let lock = NSLock()
    var merged = false
    var sides: [() throws -> Void] = [{ merged = try bench.merge(branch) }]
    for (index, key) in keys.enumerated() {
      sides.append {
        let answered = try bench.approve(run, key, port: index)
        lock.withLock { answers[key] = answered }
      }
    }
    try RaceBench.together(sides)
    guard merged else {
      tally.unanswered.append("the merge of \(branch)")
      return tally
    }
    for (key, image) in before {
      if try bench.image(bench.baselines + "/" + key + ".png") != image {
        tally.lost.append("\(key): in the overlay before the merge, not in the store after")
      }
    }
    let record = try bench.record(run)
    for key in keys {
      guard answers[key] == true else {
        tally.unanswered.append("approve \(key) of run \(run)")
        continue
      }
      tally.answered += 1
      if record[key] != "approved" {
        tally.lost.append("\(key) (round \(round)): answered, but run \(run) says \(record[key] ?? "nothing")")
        continue
      }
      let inStore = try bench.image(bench.baselines + "/" + key + ".png") == frames[key]
      let inOverlay = try bench.image(overlay + "/" + key + ".png") == frames[key]
      if inStore {
        tally.merged += 1
      } else if inOverlay {
        tally.keptInOverlay += 1
      } else {
        tally.lost.append("\(key) (round \(round)): approved, in neither the store nor the overlay")
      }
    }
    return tally
  }

  // MARK: - Undo vs approve

  static let undoKeys = 10

  /// One run with a new frame for each key (failed against the baseline now), closed; then, for
  /// every key, its approval and an undo, each on a thread (or process) of its own, all started
  /// at once. A snapshot the
  /// run says approved must have that frame as its baseline, and every baseline must be the one
  /// the log's newest approval not undone wrote (or the first one, when every approval is undone).
  static func undoRound(_ bench: RaceBench, _ round: Int) throws -> Tally {
    var tally = Tally(scenario: "undo vs approve")
    let keys = (0..<undoKeys).map { "undo/\($0)" }
    if round == 0 {
      for (index, key) in keys.enumerated() {
        try bench.writeBaseline(key, frame(round: 10_000, key: index))
      }
    }
    let run = try bench.openRun(branch: nil, base: nil)
    var frames: [String: RGBAImage] = [:]
    for (index, key) in keys.enumerated() {
      frames[key] = frame(round: round, key: index)
      try bench.put(run, key, frames[key]!, port: index)
    }
    try bench.close(run)
    let approvals = Answers()
    let undos = Answers()
    var sides: [() throws -> Void] = []
    for (index, key) in keys.enumerated() {
      sides.append { approvals.set(key, try bench.approve(run, key, port: index)) }
      sides.append { undos.set(key, try bench.undo(key, port: index + 1)) }
    }
    try RaceBench.together(sides)
    let record = try bench.record(run)
    let expected = try bench.baselinesByLog(keys)
    for key in keys {
      let now = try FileIO.read(bench.baselines + "/" + key + ".png")
      let current = SHA256.hex(now)
      var problems: [String] = []
      if current != expected[key] {
        problems.append(
          "the baseline is \(current.prefix(12)), the log's newest approval not undone wrote \(expected[key]?.prefix(12) ?? "none")"
        )
      }
      if approvals.of(key) == true {
        tally.answered += 1
        if record[key] == "approved" {
          if try PNGDecoder().decode(now, path: key) != frames[key] {
            problems.append("run \(run) says approved, the baseline is another")
          }
        } else if record[key] == "failed" {
          // Undone after it was approved: the run has it back to review.
          tally.reopened += 1
        } else {
          problems.append("run \(run) says \(record[key] ?? "nothing")")
        }
      } else {
        tally.unanswered.append("approve \(key) of run \(run)")
      }
      if undos.of(key) == true { tally.undone += 1 } else if undos.of(key) == false { tally.refused += 1 }
      if !problems.isEmpty { tally.lost.append("\(key) (round \(round)): " + problems.joined(separator: "; ")) }
    }
    return tally
  }

  /// A 40×20 frame unique to (`round`, `key`): a rectangle, and the two numbers in a pixel.
  static func frame(round: Int, key: Int) -> RGBAImage {
    var image = ServerFixture.screen([PixelRect(x: 4 + key % 30, y: 4 + round % 12, width: 5, height: 4)])
    image[x: 0, y: 0] = RGBAColor(red: UInt8(round & 0xFF), green: UInt8((round >> 8) & 0xFF), blue: UInt8(key & 0xFF))
    return image
  }
}

/// What the rounds of one scenario found.
struct Tally: Sendable {
  var scenario = ""
  /// Approvals answered (HTTP 200, exit 0).
  var answered = 0
  /// Merge vs approve: approvals the merge promoted into the store; approvals that landed after
  /// and stay in the overlay.
  var merged = 0
  var keptInOverlay = 0
  /// Undo vs approve: undos done and refused (nothing left to undo, or the baseline changed);
  /// approvals undone afterwards (their run has them back to review).
  var undone = 0
  var refused = 0
  var reopened = 0
  var lost: [String] = []
  var unanswered: [String] = []
  /// Requests the service answered 503 (the database busy past a second), each asked again.
  var unavailableAnswers = 0

  mutating func add(_ other: Tally) {
    scenario = other.scenario
    answered += other.answered
    merged += other.merged
    keptInOverlay += other.keptInOverlay
    undone += other.undone
    refused += other.refused
    reopened += other.reopened
    lost += other.lost
    unanswered += other.unanswered
  }

  var summary: String {
    let detail =
      scenario.hasPrefix("merge")
      ? "\(merged) merged, \(keptInOverlay) kept in the overlay"
      : "\(undone) undos done, \(refused) refused, \(reopened) approvals undone and reopened"
    let retried = unavailableAnswers == 0 ? "" : ", \(unavailableAnswers) answers 503 asked again"
    return "\(answered) approvals answered (\(detail)), \(lost.count) lost" + retried
  }
}

/// Which answers (`true`: 200 or exit 0) each key got.
final class Answers: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [String: Bool] = [:]
  func set(_ key: String, _ answered: Bool) { lock.withLock { answers[key] = answered } }
  func of(_ key: String) -> Bool? { lock.withLock { answers[key] } }
}

/// One project and its front door: `snapdiff` processes (with a `snapdiff serve` on SQLite to
/// open runs and take frames, as CI does), one service on SQLite, or two on PostgreSQL (requests
/// alternate between them).
@available(macOS 14, iOS 17, tvOS 17, *)
final class RaceBench: @unchecked Sendable {
  enum Door: String, CustomStringConvertible {
    case cli, sqlite, postgres
    var description: String { rawValue }
  }

  let door: Door
  let root: String
  let executable: String
  let servers: [ServeProcess]
  var baselines: String { root + "/baselines" }

  init(door: Door, root: String, executable: String, database: String?) throws {
    self.door = door
    self.root = root
    self.executable = executable
    try FileSystem.createDirectories(root + "/baselines")
    let arguments = database.map { ["--database", $0] } ?? []
    var servers = [
      try ServeProcess(executable: executable, root: root, token: nil, arguments: arguments, logName: "a.log")
    ]
    if door == .postgres {
      servers.append(
        try ServeProcess(executable: executable, root: root, token: nil, arguments: arguments, logName: "b.log"))
    }
    self.servers = servers
  }

  func stop() { for server in servers { _ = server.stop() } }

  func logs() -> String { servers.map { $0.log() }.joined(separator: "\n") }

  /// The port of the instance the `index`-th request goes to.
  func port(_ index: Int) -> Int { servers[index % servers.count].port }

  func writeBaseline(_ key: String, _ image: RGBAImage) throws {
    try BaselineStore(root: baselines).write(ServerFixture.png(image), for: SnapshotKey(key))
  }

  func image(_ path: String) throws -> RGBAImage? {
    FileSystem.isFile(path) ? try PNGDecoder().decode(contentsOf: path) : nil
  }

  /// Each snapshot's status in the closed run.
  func record(_ run: String) throws -> [String: String] {
    let record = try RunFolder(path: root + "/.snapdiff/runs/" + run).load()
    return Dictionary(uniqueKeysWithValues: record.snapshots.map { ($0.key, $0.status.rawValue) })
  }

  /// The hash each key's baseline must have by the approval log: its newest approval not undone
  /// wrote it (or the one before the first approval, when all are undone).
  func baselinesByLog(_ keys: [String]) throws -> [String: String] {
    let entries = try ApprovalLog(dataDirectory: root + "/.snapdiff").entries()
    var result: [String: String] = [:]
    for key in keys {
      var stack: [ApprovalEntry] = []
      var first: String?
      for entry in entries where entry.key == key {
        switch entry.action {
        case .approve:
          if first == nil { first = entry.old }
          stack.append(entry)
        case .undo: stack.removeAll { $0.id == entry.undoes }
        }
      }
      let now = SHA256.hex(try FileIO.read(baselines + "/" + key + ".png"))
      result[key] = stack.last?.new ?? first ?? now
    }
    return result
  }

  // MARK: The service (every door opens runs and takes frames through it)

  func openRun(branch: String?, base: String?) throws -> String {
    var fields = [#""name": "race""#]
    if let branch { fields.append(#""branch": "\#(branch)""#) }
    if let base { fields.append(#""baseBranch": "\#(base)""#) }
    let response = try post("/api/v1/runs", body: "{" + fields.joined(separator: ", ") + "}", port: port(0))
    guard response.status == 201, let id = (try? PostgresServiceTests.json(response.body))?["id"] as? String else {
      throw RaceFailure("opening a run: \(response.head)\n\(response.body)")
    }
    return id
  }

  func put(_ run: String, _ key: String, _ image: RGBAImage, port index: Int) throws {
    let png = ServerFixture.png(image)
    let response = try retryingUnavailable { try PostgresServiceTests.put(run, key, png, port: port(index)) }
    guard response.status == 200 else { throw RaceFailure("PUT \(key): \(response.head)\n\(response.body)") }
  }

  func close(_ run: String) throws {
    let response = try post("/api/v1/runs/\(run)/close", body: #"{"complete": false}"#, port: port(1))
    guard response.status == 200 else { throw RaceFailure("closing \(run): \(response.head)\n\(response.body)") }
  }

  // MARK: The racing operations, through the door

  /// Approves one snapshot: `true` when answered 200 (or the process exited 0).
  func approve(_ run: String, _ key: String, port index: Int) throws -> Bool {
    switch door {
    case .cli: return try snapdiff(["approve", "--run", run, key]).status == 0
    case .sqlite, .postgres:
      let port = port(index)
      let request = PostgresServiceTests.request("POST", snapshotURI(run, key, "/approve"), port: port)
      let response = try retryingUnavailable { try RawHTTP.send(request, port: port) }
      guard response.status == 200 else {
        throw RaceFailure("approve \(key) of run \(run): \(response.head)\n\(response.body)")
      }
      return true
    }
  }

  /// Undoes the key's newest approval: `true` when done (200, exit 0), `false` when refused
  /// (409, exit 2: nothing to undo, or the baseline changed since).
  func undo(_ key: String, port index: Int) throws -> Bool {
    switch door {
    case .cli: return try snapdiff(["approve", "--undo", key]).status == 0
    case .sqlite, .postgres:
      let port = port(index)
      let uri = "/api/v1/baselines/" + PercentEncoding.segment(key) + "/undo"
      let request = PostgresServiceTests.request("POST", uri, port: port)
      let response = try retryingUnavailable { try RawHTTP.send(request, port: port) }
      guard response.status == 200 || response.status == 409 else {
        throw RaceFailure("undo \(key): \(response.head)\n\(response.body)")
      }
      return response.status == 200
    }
  }

  /// Merges `branch`: `true` when answered 200 (or exit 0).
  func merge(_ branch: String) throws -> Bool {
    switch door {
    case .cli: return try snapdiff(["branch", "merge", branch]).status == 0
    case .sqlite, .postgres:
      let port = port(1)
      let uri = "/api/v1/branches/" + PercentEncoding.segment(branch) + "/merge"
      let request = PostgresServiceTests.request("POST", uri, port: port)
      return try retryingUnavailable { try RawHTTP.send(request, port: port) }.status == 200
    }
  }

  private func snapdiff(_ arguments: [String]) throws -> ProcessOutput {
    var environment = ProcessInfo.processInfo.environment
    environment["CI"] = nil
    environment["SNAPDIFF_RECORD"] = nil
    environment["SNAPDIFF_USER"] = "racer"
    let output = ExternalTool.finish(
      try ExternalTool.start(executable, arguments, in: root, environment: environment))
    // A refusal (exit 2) is an answer; anything else (a crash) is not.
    guard output.status == 0 || output.status == 2 else {
      throw RaceFailure("snapdiff \(arguments.joined(separator: " ")): exit \(output.status)\n\(output.standardError)")
    }
    return output
  }

  private func post(_ uri: String, body: String, port: Int) throws -> RawHTTP.Response {
    try retryingUnavailable {
      try RawHTTP.send(
        "POST \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
    }
  }

  /// `send()` again after a 503, as a client does: the service answers 503 with `Retry-After` at
  /// once when the database gives it no connection within a second (a loaded machine, issue
  /// #29's outage answer), and has then done nothing. A request answered 200 after retries counts
  /// like any other; the retries are counted (``unavailableAnswers``).
  private func retryingUnavailable(_ send: () throws -> RawHTTP.Response) throws -> RawHTTP.Response {
    var response = try send()
    for _ in 0..<Self.unavailableRetries where response.status == 503 {
      lock.withLock { unavailable += 1 }
      Thread.sleep(forTimeInterval: 0.25)
      response = try send()
    }
    return response
  }

  static let unavailableRetries = 40
  private let lock = NSLock()
  private var unavailable = 0
  /// How many answers were 503 (each then asked again).
  var unavailableAnswers: Int { lock.withLock { unavailable } }

  /// Runs every one of `bodies` on a thread of its own, all released at once; waits for all, and
  /// throws the first error.
  static func together(_ bodies: [() throws -> Void]) throws {
    let start = DispatchGroup()
    start.enter()
    let done = DispatchGroup()
    let failures = Failures()
    for body in bodies {
      done.enter()
      let work = UncheckedBody(body)
      Thread.detachNewThread {
        start.wait()
        do { try work.body() } catch { failures.add(error) }
        done.leave()
      }
    }
    start.leave()
    done.wait()
    if let first = failures.first { throw first }
  }
}

private struct UncheckedBody: @unchecked Sendable {
  let body: () throws -> Void
  init(_ body: @escaping () throws -> Void) { self.body = body }
}

private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var errors: [any Error] = []
  func add(_ error: any Error) { lock.withLock { errors.append(error) } }
  var first: (any Error)? { lock.withLock { errors.first } }
}

struct RaceFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
