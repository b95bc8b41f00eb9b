/// Flaky snapshots, found in the run history: a snapshot whose verdict flipped (passed, then
/// failed, or back) between runs that compared it with the same baseline (its SHA-256) in the
/// same environment, on the same code (the runs' `commit`; runs that record none count as one
/// code, so a local history of `check` runs is read as it is). A baseline that changed, or a
/// new commit, starts a new sequence: a fix is not a flake.
///
/// The one rule for `snapdiff status --flaky` (the run folders `check` writes) and the service's
/// `GET /api/v1/flaky` (the runs its index lists).
///
/// ```swift
/// let flaky = FlakySnapshots.find(in: try FlakySnapshots.newestRuns(in: ".snapdiff/runs", limit: 50))
/// for snapshot in flaky { print(snapshot.key, snapshot.flips) }
/// ```
public enum FlakySnapshots {
  /// A snapshot's verdicts on one baseline and one code, of which at least two differ.
  public struct Finding: Sendable, Equatable, Codable {
    public var key: String
    /// The baseline compared (SHA-256).
    public var baselineHash: String
    public var environment: String?
    /// The code the runs tested, when they say (`RunRecord.commit`).
    public var commit: String?
    /// How many times the verdict changed from one run to the next, oldest first.
    public var flips: Int
    public var passed: Int
    public var failed: Int
    /// The runs, oldest first, and the verdict of each (`true`: passed).
    public var runs: [String]
    public var verdicts: [Bool]
  }

  /// A snapshot's verdict as flakiness reads it: `true` passed (known noise too, and a difference
  /// approved as noise: it passes by a reviewer's word, on the same baseline), `false` failed
  /// (rejected, or approved as the new look after it failed: the run's verdict was a failure),
  /// `nil` not a comparison with a baseline (new, missing, skipped, an error).
  public static func verdict(of snapshot: SnapshotRecord) -> Bool? {
    guard snapshot.error == nil, snapshot.baselineHash != nil else { return nil }
    switch snapshot.status {
    case .passed: return true
    case .failed, .rejected: return false
    // Approved: the comparison failed (a new snapshot has no baseline hash, a missing one no frame).
    case .approved: return snapshot.knownNoise != nil ? true : snapshot.changeHash != nil ? false : nil
    case .new, .missing, .skipped: return nil
    }
  }

  /// The flaky snapshots of `records` (any order), most flips first, then by key.
  public static func find(in records: [RunRecord]) -> [Finding] {
    struct Sequence: Hashable {
      var key: String
      var baselineHash: String
      var environment: String?
      var commit: String?
    }
    var sequences: [Sequence: [(run: String, passed: Bool)]] = [:]
    for record in records.sorted(by: { $0.id < $1.id }) {
      for snapshot in record.snapshots {
        guard let passed = verdict(of: snapshot), let hash = snapshot.baselineHash else { continue }
        let sequence = Sequence(
          key: snapshot.key, baselineHash: hash, environment: snapshot.baselineEnvironment ?? record.environment,
          commit: record.commit)
        sequences[sequence, default: []].append((record.id, passed))
      }
    }
    var findings: [Finding] = []
    for (sequence, verdicts) in sequences {
      let flips = zip(verdicts, verdicts.dropFirst()).filter { $0.passed != $1.passed }.count
      guard flips > 0 else { continue }
      let passed = verdicts.filter(\.passed).count
      findings.append(
        Finding(
          key: sequence.key, baselineHash: sequence.baselineHash, environment: sequence.environment,
          commit: sequence.commit, flips: flips, passed: passed, failed: verdicts.count - passed,
          runs: verdicts.map(\.run), verdicts: verdicts.map(\.passed)))
    }
    return findings.sorted {
      ($0.flips, $1.key, $1.runs.last ?? "") > ($1.flips, $0.key, $0.runs.last ?? "")
    }
  }

  /// The records of the newest `limit` runs in `runsDirectory` (by id, which sorts by time);
  /// a run whose record cannot be read is left out (it has no verdicts to give).
  public static func newestRuns(in runsDirectory: String, limit: Int) throws -> [RunRecord] {
    let runs = FileSystem.absolute(runsDirectory)
    guard FileSystem.isDirectory(runs) else { return [] }
    let ids = try FileSystem.entries(of: runs).filter {
      RunFolder.isValidID($0) && FileSystem.isFile(runs + "/" + $0 + "/run.json")
    }
    return records(ids: Array(ids.sorted().suffix(max(limit, 0))), in: runs)
  }

  /// The records of the runs `ids` in `runsDirectory` (one that cannot be read left out).
  public static func records(ids: [String], in runsDirectory: String) -> [RunRecord] {
    ids.compactMap { id in
      (try? RunFolder.inside(runsDirectory, id: id)).flatMap { try? $0.load() }
    }
  }
}
