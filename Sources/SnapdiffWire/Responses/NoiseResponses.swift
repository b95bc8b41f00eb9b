import SnapdiffModel

/// `GET /api/v1/noise` and `POST /api/v1/noise/remove`: fingerprints of known noise, by snapshot.
public struct KnownNoiseList: Codable, Sendable, Equatable {
  public var entries: [Entry]

  public struct Entry: Codable, Sendable, Equatable {
    public var key: String
    /// The environment folder of the baseline, when not the store's root.
    public var environment: String?
    /// The baseline changed since the fingerprint was recorded: it matches nothing.
    public var stale: Bool
    public var fingerprint: NoiseFingerprint

    public init(key: String, environment: String?, stale: Bool, fingerprint: NoiseFingerprint) {
      self.key = key
      self.environment = environment
      self.stale = stale
      self.fingerprint = fingerprint
    }
  }

  public init(entries: [Entry]) { self.entries = entries }
}

/// `GET /api/v1/flaky`: snapshots whose verdict flipped between runs on the same baseline and
/// the same commit, most flips first.
public struct FlakyList: Codable, Sendable, Equatable {
  /// How many runs were read (the newest, `?runs=`).
  public var runsRead: Int
  public var snapshots: [Snapshot]

  public struct Snapshot: Codable, Sendable, Equatable {
    public var key: String
    public var flips: Int
    public var passed: Int
    public var failed: Int
    /// The baseline compared (SHA-256), the environment and the commit the runs share.
    public var baselineHash: String
    public var environment: String?
    public var commit: String?
    /// The runs, oldest first, and each one's verdict (`true`: passed).
    public var runs: [String]
    public var verdicts: [Bool]

    public init(
      key: String, flips: Int, passed: Int, failed: Int, baselineHash: String, environment: String?,
      commit: String?, runs: [String], verdicts: [Bool]
    ) {
      self.key = key
      self.flips = flips
      self.passed = passed
      self.failed = failed
      self.baselineHash = baselineHash
      self.environment = environment
      self.commit = commit
      self.runs = runs
      self.verdicts = verdicts
    }
  }

  public init(runsRead: Int, snapshots: [Snapshot]) {
    self.runsRead = runsRead
    self.snapshots = snapshots
  }
}
