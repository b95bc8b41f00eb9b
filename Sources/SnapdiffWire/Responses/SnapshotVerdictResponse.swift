import SnapdiffModel

/// One snapshot's verdict as the API sends it (`PUT …/snapshots/{key}`, `GET` of a snapshot,
/// `…/skip`): `run.json`'s snapshot record without its file-system paths, plus the URLs of its
/// images. The service encodes it from its record; the test API's service checker decodes it.
public struct SnapshotVerdictResponse: Codable, Sendable, Equatable {
  public var key: String
  public var status: SnapshotStatus
  /// The snapshot passes as it stands (passed, approved or skipped, without an error).
  public var passed: Bool
  public var differentPixels: Int
  public var antialiasedPixels: Int
  public var ignoredPixels: Int
  public var totalPixels: Int
  public var differentRatio: Double
  public var regions: [PixelRect]
  public var baselineSize: PixelSize?
  public var currentSize: PixelSize?
  public var changeHash: String?
  /// The frame was written as the baseline (the record mode said so).
  public var recorded: Bool
  public var previouslyRejected: Bool
  /// The comparison found a difference approved as noise on this baseline: the snapshot
  /// passed on it (`passed` is true), and this is the fingerprint that let it through.
  public var knownNoise: NoiseFingerprint?
  public var baselineEnvironment: String?
  /// The accepted variant the frame matched, when it did not match the baseline itself
  /// (`baselineURL` then serves the variant).
  public var variant: String?
  public var matchLevel: MatchLevel?
  public var colorConversion: String?
  public var layout: [LayoutChange]?
  public var text: [String]?
  public var unmatchedSelectors: [String]?
  /// For a failed comparison: what kind of difference it found (`rendering` alone, a shift, a
  /// colour, an element).
  public var difference: DifferenceClass?
  /// What the snapshot's regions found, in words (run.json's `regionNotes`): where each
  /// floating region's content was found, and what a region could not do as asked.
  public var regionNotes: [String]?
  /// The accessibility validation of the current frame, when one was asked for.
  public var contrast: ContrastRecord?
  /// Why the snapshot could not be compared (the service's folders hidden).
  public var error: String?
  public var skipReason: String?
  /// The SHA-256 of the images as the run compared them.
  public var baselineHash: String?
  public var currentHash: String?
  public var diffHash: String?
  /// Paths on the service (``APIPaths/snapshot(run:key:)`` + `/baseline.png`, …).
  public var baselineURL: String?
  public var currentURL: String?
  public var diffURL: String?
  /// The run's review page: absolute with `--public-url`, else a path on the service.
  public var pageURL: String

  /// A verdict with no figures yet: the service fills in the rest from its record.
  public init(key: String, status: SnapshotStatus, passed: Bool, pageURL: String) {
    self.key = key
    self.status = status
    self.passed = passed
    differentPixels = 0
    antialiasedPixels = 0
    ignoredPixels = 0
    totalPixels = 0
    differentRatio = 0
    regions = []
    recorded = false
    previouslyRejected = false
    self.pageURL = pageURL
  }
}
