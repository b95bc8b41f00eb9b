import Foundation
import SnapdiffCore

/// A run folder on disk laid out as `snapdiff check` lays it out, with a snapshot of every status
/// and keys that need escaping everywhere (spaces, slashes, `&`, `<`, quotes, `#`, `%`, non-ASCII):
///
/// ```
/// <root>/frames/<key>.png                    current frames (the run's currentDirectory)
/// <root>/baselines/<key>.png                 the baseline store
/// <root>/.snapdiff/runs/<id>/current/...     copies of frames that differ or are new
/// <root>/.snapdiff/runs/<id>/diff/...        diff images
/// ```
struct ReportFixture {
  static let runID = "20261122-034512-123"
  static let failed = "Home - test_search/Home - search action"
  static let resized = "Cart & Checkout/Total <b>\"price\"</b> it's"
  static let rejected = "Settings - test_theme/Dark <script>alert(1)</script>"
  static let new = "Onboarding/Welcome – café"
  static let missing = "Legacy/Old # banner?"
  static let approved = "Home - test_search/Home - approved 100%"
  static let passed = "Home - test_search/Home - idle"
  static let passedFlat = "splash"
  static let broken = "Broken/corrupt frame"

  /// The error message of `broken`, with an ANSI escape that XML cannot hold.
  static let brokenError =
    "Broken/corrupt frame.png: truncated PNG: \u{1B}[31mthe file ends\u{1B}[0m"

  let root: String
  let runFolder: String
  let record: RunRecord

  /// The run folder's path to a file under `root`.
  static func up(_ path: String) -> String { "../../../" + path }

  /// Writes the images and returns the record that names them.
  static func make(in root: String, recordMode: RecordMode = .missing) throws -> ReportFixture {
    let runFolder = root + "/.snapdiff/runs/" + runID
    let baselineColor = RGBAColor(red: 40, green: 90, blue: 200)
    let currentColor = RGBAColor(red: 220, green: 60, blue: 40)
    let diffColor = RGBAColor(red: 255, green: 0, blue: 0)
    func png(_ path: String, _ width: Int, _ height: Int, _ color: RGBAColor) throws {
      let absolute =
        path.hasPrefix("../../../") ? root + "/" + path.dropFirst(9) : runFolder + "/" + path
      let folder = (absolute as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try PNGEncoder(speed: .fast).write(
        RGBAImage(width: width, height: height, filledWith: color), to: absolute)
    }
    func size(_ width: Int, _ height: Int) -> SnapshotRecord.Size {
      SnapshotRecord.Size(width: width, height: height)
    }

    var snapshots: [SnapshotRecord] = []

    func changed(
      _ key: String, _ status: SnapshotStatus, baseline: (Int, Int) = (40, 30),
      current: (Int, Int) = (40, 30)
    ) throws -> SnapshotRecord {
      let (width, height) = (max(baseline.0, current.0), max(baseline.1, current.1))
      var snapshot = SnapshotRecord(key: key, status: status)
      snapshot.baseline = up("baselines/\(key).png")
      snapshot.current = "current/\(key).png"
      snapshot.diff = "diff/\(key).png"
      try png(snapshot.baseline!, baseline.0, baseline.1, baselineColor)
      try png(snapshot.current!, current.0, current.1, currentColor)
      try png(snapshot.diff!, width, height, diffColor)
      snapshot.baselineSize = size(baseline.0, baseline.1)
      snapshot.currentSize = size(current.0, current.1)
      snapshot.totalPixels = width * height
      snapshot.differentPixels = 143
      snapshot.antialiasedPixels = 12
      snapshot.differentRatio = Double(snapshot.differentPixels) / Double(snapshot.totalPixels)
      snapshot.regions = [
        .init(x: 2, y: 3, width: 10, height: 5), .init(x: 20, y: 4, width: 6, height: 7),
      ]
      snapshot.changeHash = "c0ffee"
      return snapshot
    }

    var failed = try changed(Self.failed, .failed)
    failed.previouslyRejected = true
    snapshots.append(failed)
    // Wider than a browser's column, so that the page must scale both images alike.
    snapshots.append(try changed(resized, .failed, baseline: (1500, 60), current: (1800, 90)))
    snapshots.append(try changed(rejected, .rejected))

    var new = SnapshotRecord(key: Self.new, status: .new)
    new.current = "current/\(Self.new).png"
    try png(new.current!, 40, 30, currentColor)
    new.currentSize = size(40, 30)
    if recordMode != .never {
      new.baseline = up("baselines/\(Self.new).png")
      try png(new.baseline!, 40, 30, currentColor)
      new.recorded = true
    }
    snapshots.append(new)

    var missing = SnapshotRecord(key: Self.missing, status: .missing)
    missing.baseline = up("baselines/\(Self.missing).png")
    try png(missing.baseline!, 40, 30, baselineColor)
    missing.baselineSize = size(40, 30)
    snapshots.append(missing)

    snapshots.append(try changed(approved, .approved))

    for key in [passed, passedFlat] {
      var snapshot = SnapshotRecord(key: key, status: .passed)
      snapshot.baseline = up("baselines/\(key).png")
      snapshot.current = up("frames/\(key).png")
      try png(snapshot.baseline!, 40, 30, baselineColor)
      try png(snapshot.current!, 40, 30, baselineColor)
      snapshot.baselineSize = size(40, 30)
      snapshot.currentSize = size(40, 30)
      snapshot.totalPixels = 1200
      snapshots.append(snapshot)
    }

    var broken = SnapshotRecord(key: Self.broken, status: .failed)
    broken.baseline = up("baselines/\(Self.broken).png")
    try png(broken.baseline!, 40, 30, baselineColor)
    broken.error = brokenError
    snapshots.append(broken)

    let record = RunRecord(
      id: runID, createdAt: "2026-11-22T03:45:12.123Z", currentDirectory: up("frames"),
      baselinesDirectory: up("baselines"), environment: "iPhone15-iOS17@3x",
      recordMode: recordMode, complete: true, snapshots: snapshots)
    return ReportFixture(root: root, runFolder: runFolder, record: record)
  }

  /// Writes `text` to `name` in the run folder and returns the file's path.
  @discardableResult
  func write(_ text: String, as name: String) throws -> String {
    let path = runFolder + "/" + name
    try FileIO.writeAtomically(Array(text.utf8), to: path)
    return path
  }
}
