import Dispatch

/// `snapdiff calibrate`: compares labelled pairs at every setting, so that a team picks its match
/// level from its own screenshots. Each pair is decoded once and compared once per pixel
/// comparison its settings need; the pairs are shared out over `jobs` threads (the work queue
/// `check --jobs` uses).
///
/// ```swift
/// let pairs = try LabelledPairs.load("corpora/ios-snapshots")
/// let result = try Calibration(pairs: pairs).run()
/// for row in result.table() { print(row.setting.name, row.counts.noiseFailed, row.counts.changesMissed) }
/// ```
public struct Calibration: Sendable {
  public var pairs: [LabelledPair]
  public var settings: [CalibrationSetting]
  public var jobs: Int
  public var decoder: PNGDecoder

  public init(
    pairs: [LabelledPair], settings: [CalibrationSetting] = CalibrationSetting.standard(),
    jobs: Int = ProcessorCount.active, decoder: PNGDecoder = PNGDecoder()
  ) {
    self.pairs = pairs
    self.settings = settings
    self.jobs = max(1, jobs)
    self.decoder = decoder
  }

  /// Compares every pair. `progress(done, total, id)` is called as pairs finish (from worker
  /// threads, one call at a time).
  ///
  /// - Throws: `CalibrationError` naming the pair (and, through the decoder's error, the file)
  ///   whose image cannot be read or decoded; the pairs after it are not compared.
  /// - Complexity: O(pairs × pixel comparisons × pixels).
  public func run(progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws -> CalibrationResult {
    let comparisons = CalibrationSetting.pixelComparisons(of: settings)
    let results = ResultSlots<Result<PairMeasurement, CalibrationError>>(count: pairs.count)
    let progressCalls = DispatchQueue(label: "snapdiff.calibrate.progress")
    let next = Counter()
    let done = Counter()
    let failed = Counter()
    let pairs = self.pairs
    let decoder = self.decoder
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(pairs.count, 1))) { _ in
      // A pair that cannot be read ends the run: its table would not be the one asked for.
      while failed.current == 0, let index = next.take(below: pairs.count) {
        let pair = pairs[index]
        let measured = Result { () throws(CalibrationError) -> PairMeasurement in
          try Self.measure(pair, comparisons, decoder: decoder)
        }
        if case .failure = measured { failed.increment() }
        results.set(index, measured)
        let finished = done.increment()
        if let progress { progressCalls.sync { progress(finished, pairs.count, pair.id) } }
      }
    }
    var measurements: [PairMeasurement] = []
    for result in results.values() { measurements.append(try result.get()) }
    return CalibrationResult(settings: settings, measurements: measurements)
  }

  /// Decodes one pair and counts its differing pixels at each comparison.
  static func measure(
    _ pair: LabelledPair, _ comparisons: [CalibrationSetting.PixelComparison], decoder: PNGDecoder
  ) throws(CalibrationError) -> PairMeasurement {
    let baseline: RGBAImage
    let current: RGBAImage
    do {
      (baseline, current) = try TwoThreads.run(
        { try decoder.decode(contentsOf: pair.baseline) }, { try decoder.decode(contentsOf: pair.current) })
    } catch {
      throw CalibrationError(pairID: pair.id, problem: String(describing: error))
    }
    var counts: [CalibrationSetting.PixelComparison: PairMeasurement.Count] = [:]
    var difference: DifferenceClass?
    let byDefault = CalibrationSetting.defaultSetting.comparison
    for comparison in comparisons + (comparisons.contains(byDefault) ? [] : [byDefault]) {
      let result = PixelDiff(options: comparison.options).compare(baseline, current)
      counts[comparison] = PairMeasurement.Count(
        differentPixels: result.differentPixels, totalPixels: result.totalPixels)
      // What a check at the default settings would say of the pair: its kind of difference.
      if comparison == byDefault {
        difference = DifferenceClassifier(threshold: comparison.options.threshold).classify(
          baseline, current, result: result)
      }
    }
    return PairMeasurement(pair: pair, counts: counts, difference: difference)
  }
}

/// A labelled pair that could not be compared, named.
public struct CalibrationError: Error, Sendable, Equatable, CustomStringConvertible {
  public var pairID: String
  public var problem: String

  public var description: String { "pair '\(pairID)': \(problem)" }
}

/// What one pair measured: its differing pixels at each pixel comparison.
public struct PairMeasurement: Sendable {
  public struct Count: Sendable, Hashable {
    public var differentPixels: Int
    public var totalPixels: Int
  }

  public var pair: LabelledPair
  public var counts: [CalibrationSetting.PixelComparison: Count]
  /// When the pair fails at the default setting (`strict`): the kind of difference a check
  /// reports for it (`DifferenceClassifier`).
  public var difference: DifferenceClass?

  /// Whether the pair passes at `setting` (which must be one it was measured for).
  public func passes(_ setting: CalibrationSetting) -> Bool {
    guard let count = counts[setting.comparison] else {
      preconditionFailure("\(pair.id) was not measured at \(setting.name)")
    }
    return setting.passes(differentPixels: count.differentPixels, totalPixels: count.totalPixels)
  }
}
