/// What calibration measured: each pair's counts, and from them the confusion table of every
/// setting, for all pairs or for one group.
public struct CalibrationResult: Sendable {
  public var settings: [CalibrationSetting]
  /// One per pair, in the order of the pairs.
  public var measurements: [PairMeasurement]

  /// How one setting did on a set of pairs.
  public struct Counts: Sendable, Equatable {
    /// Noise pairs, and those the setting failed (a false alarm).
    public var noise = 0
    public var noiseFailed = 0
    /// Noise pairs by their class (`rendering`, `appearance`, or `unclassified`).
    public var noiseByClass: [String: Tally] = [:]
    /// Change pairs, and those the setting passed (a missed change).
    public var changes = 0
    public var changesMissed = 0
    /// Pairs of unknown kind, and those that failed: not scored.
    public var unknown = 0
    public var unknownFailed = 0

    public struct Tally: Sendable, Equatable {
      public var pairs = 0
      public var failed = 0
    }

    public var noisePassed: Int { noise - noiseFailed }
    public var changesCaught: Int { changes - changesMissed }

    mutating func add(_ pair: LabelledPair, passed: Bool) {
      switch pair.kind {
      case .noise:
        noise += 1
        noiseByClass[pair.noiseClass ?? CalibrationResult.unclassified, default: Tally()].pairs += 1
        if !passed {
          noiseFailed += 1
          noiseByClass[pair.noiseClass ?? CalibrationResult.unclassified, default: Tally()].failed += 1
        }
      case .change:
        changes += 1
        if passed { changesMissed += 1 }
      case .unknown:
        unknown += 1
        if !passed { unknownFailed += 1 }
      }
    }
  }

  /// The class of a noise pair that names none.
  public static let unclassified = "unclassified"

  /// One line of a confusion table.
  public struct Row: Sendable {
    public var setting: CalibrationSetting
    public var counts: Counts
  }

  /// The confusion table: one row per setting, in the settings' order, over every pair or over
  /// the pairs of `group`.
  public func table(group: String? = nil) -> [Row] {
    let chosen = measurements.filter { group == nil || $0.pair.group == group }
    return settings.map { setting in
      var counts = Counts()
      for measurement in chosen { counts.add(measurement.pair, passed: measurement.passes(setting)) }
      return Row(setting: setting, counts: counts)
    }
  }

  /// The groups the pairs name, sorted.
  public var groups: [String] {
    Array(Set(measurements.compactMap(\.pair.group))).sorted()
  }

  /// The noise classes the pairs name, the most common first (then by name).
  public var noiseClasses: [String] {
    var pairs: [String: Int] = [:]
    for measurement in measurements where measurement.pair.kind == .noise {
      pairs[measurement.pair.noiseClass ?? Self.unclassified, default: 0] += 1
    }
    return pairs.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
  }
}
