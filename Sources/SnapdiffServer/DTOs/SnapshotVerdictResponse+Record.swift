import SnapdiffCore
import SnapdiffWire

extension SnapshotVerdictResponse {
  /// The API's verdict of a snapshot record: its figures, without its file-system paths, and
  /// the URLs of its images.
  ///
  /// - Parameters:
  ///   - page: the run's review page (absolute with `--public-url`).
  ///   - shown: how the server's folders are named in the `error`.
  init(_ record: SnapshotRecord, run: String, page: String, shown: ShownPaths? = nil) {
    self.init(key: record.key, status: record.status, passed: record.passes, pageURL: page)
    differentPixels = record.differentPixels
    antialiasedPixels = record.antialiasedPixels
    ignoredPixels = record.ignoredPixels
    totalPixels = record.totalPixels
    differentRatio = record.differentRatio
    regions = record.regions
    baselineSize = record.baselineSize
    currentSize = record.currentSize
    changeHash = record.changeHash
    recorded = record.recorded
    previouslyRejected = record.previouslyRejected
    knownNoise = record.knownNoise
    baselineEnvironment = record.baselineEnvironment
    variant = record.variant
    matchLevel = record.matchLevel
    colorConversion = record.colorConversion
    layout = record.layout
    text = record.text
    unmatchedSelectors = record.unmatchedSelectors
    difference = record.difference
    regionNotes = record.regionNotes
    contrast = record.contrast
    error = record.error.map { shown?.hide($0) ?? $0 }
    skipReason = record.skipReason
    baselineHash = record.baselineHash
    currentHash = record.currentHash
    diffHash = record.diffHash
    let base = APIPaths.snapshot(run: run, key: record.key)
    baselineURL = record.baseline.map { _ in base + "/baseline.png" }
    currentURL = record.current.flatMap { $0.hasSuffix(".png") ? base + "/current.png" : nil }
    diffURL = record.diff.map { _ in base + "/diff.png" }
  }
}
