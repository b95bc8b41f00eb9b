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
  var layout: [SnapshotRecord.LayoutChange]?
  var unmatchedSelectors: [String]?
  var error: String?
  var skipReason: String?
  var baselineURL: String?
  var currentURL: String?
  var diffURL: String?

  init(_ record: SnapshotRecord, run: String) {
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
    layout = record.layout
    unmatchedSelectors = record.unmatchedSelectors
    error = record.error
    skipReason = record.skipReason
    let base = APIPaths.snapshot(run: run, key: record.key)
    baselineURL = record.baseline.map { _ in base + "/baseline.png" }
    currentURL = record.current.flatMap { $0.hasSuffix(".png") ? base + "/current.png" : nil }
    diffURL = record.diff.map { _ in base + "/diff.png" }
  }
}

/// The API's paths, built the way the router reads them.
enum APIPaths {
  static let prefix = "/api/v1"

  static func run(_ id: String) -> String { prefix + "/runs/" + segment(id) }

  /// `/api/v1/runs/<run>/snapshots/<key>`, the key as one segment (`/` written `%2F`).
  static func snapshot(run: String, key: String) -> String { Self.run(run) + "/snapshots/" + segment(key) }

  /// `text` percent-encoded as one URL path segment: every byte but the unreserved characters
  /// (`A–Z a–z 0–9 - . _ ~`).
  static func segment(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A percent-encoded path (or segment) decoded; `nil` for a bad escape or bytes that are not
  /// UTF-8. `+` stays `+` (it means a space only in forms).
  static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    func hexValue(_ byte: UInt8?) -> UInt8? {
      switch byte {
      case .some(let b) where (48...57).contains(b): b - 48
      case .some(let b) where (65...70).contains(b): b - 55
      case .some(let b) where (97...102).contains(b): b - 87
      default: nil
      }
    }
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = hexValue(iterator.next()), let low = hexValue(iterator.next()) else { return nil }
        bytes.append(high << 4 | low)
      } else {
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
