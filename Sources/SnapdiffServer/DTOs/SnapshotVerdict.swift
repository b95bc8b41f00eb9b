import SnapdiffCore

/// One snapshot's verdict as the API sends it: `run.json`'s snapshot record (without its
/// file-system paths) plus the URLs of its images.
struct SnapshotVerdict: Encodable, Sendable {
  var key: String
  var status: SnapshotStatus
  /// The snapshot passes as it stands (passed, approved or skipped, without an error).
  var passed: Bool
  var differentPixels: Int
  var antialiasedPixels: Int
  var ignoredPixels: Int
  var totalPixels: Int
  var differentRatio: Double
  var regions: [SnapshotRecord.Region]
  var baselineSize: SnapshotRecord.Size?
  var currentSize: SnapshotRecord.Size?
  var changeHash: String?
  var recorded: Bool
  var previouslyRejected: Bool
  var baselineEnvironment: String?
  var matchLevel: MatchLevel?
  var colorConversion: String?
  var layout: [SnapshotRecord.LayoutChange]?
  var text: [String]?
  var unmatchedSelectors: [String]?
  var error: String?
  var skipReason: String?
  /// The SHA-256 of the images as the run compared them (`RunImages`).
  var baselineHash: String?
  var currentHash: String?
  var diffHash: String?
  var baselineURL: String?
  var currentURL: String?
  var diffURL: String?
  /// The run's review page: absolute with `--public-url`, else a path on this server.
  var pageURL: String

  /// - Parameters:
  ///   - page: the run's review page (absolute with `--public-url`).
  ///   - shown: how the server's folders are named in the `error` (the fuzz harness, which has
  ///     no server, passes none).
  init(_ record: SnapshotRecord, run: String, page: String, shown: ShownPaths? = nil) {
    key = record.key
    status = record.status
    passed = [.passed, .approved, .skipped].contains(record.status) && record.error == nil
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
    baselineEnvironment = record.baselineEnvironment
    matchLevel = record.matchLevel
    colorConversion = record.colorConversion
    layout = record.layout
    text = record.text
    unmatchedSelectors = record.unmatchedSelectors
    error = record.error.map { shown?.hide($0) ?? $0 }
    skipReason = record.skipReason
    baselineHash = record.baselineHash
    currentHash = record.currentHash
    diffHash = record.diffHash
    let base = APIPaths.snapshot(run: run, key: record.key)
    baselineURL = record.baseline.map { _ in base + "/baseline.png" }
    currentURL = record.current.flatMap { $0.hasSuffix(".png") ? base + "/current.png" : nil }
    diffURL = record.diff.map { _ in base + "/diff.png" }
    pageURL = page
  }
}

/// The API's paths, built the way the router reads them.
enum APIPaths {
  static let prefix = "/api/v1"

  static func run(_ id: String) -> String { prefix + "/runs/" + segment(id) }

  /// `/api/v1/runs/<run>/snapshots/<key>`, the key as one segment (`/` written `%2F`).
  static func snapshot(run: String, key: String) -> String { Self.run(run) + "/snapshots/" + segment(key) }

  /// `text` as one URL path segment (`/` written `%2F`).
  static func segment(_ text: String) -> String { PercentEncoding.segment(text) }

  /// A percent-encoded path (or segment) decoded; `nil` for a bad escape or bytes that are not
  /// UTF-8.
  static func decode(_ text: Substring) -> String? { PercentEncoding.decode(text) }
}
