#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SnapdiffCore

/// Checks snapshots locally, against the baseline store: the embedded default.
///
/// Every captured frame is written to the frames folder (`<key>.png`, its tree, and a
/// `<key>.snapdiff.json` with the page's masks), so that `snapdiff check FRAMES` in CI sees exactly
/// what the tests saw; the comparison itself runs on the pixels in memory.
public struct LocalSnapshotChecker: Sendable {
  public var baselines: String
  public var environment: String?
  public var frames: String
  public var artifacts: String
  public var recordMode: RecordMode
  public var options: DiffOptions

  public init(
    baselines: String, environment: String? = nil, frames: String, artifacts: String, recordMode: RecordMode,
    options: DiffOptions = DiffOptions()
  ) {
    self.baselines = baselines
    self.environment = environment
    self.frames = frames
    self.artifacts = artifacts
    self.recordMode = recordMode
    self.options = options
  }

  /// Checks `frame` as the snapshot `key`, masking `ignoredElements`.
  public func verify(_ frame: Frame, key rawKey: String, ignoredElements: [ElementIdentifier]) throws
    -> SnapshotVerdict
  {
    let key = try SnapshotKey(rawKey)
    let store = try BaselineStore(root: baselines, environment: environment)
    let masks = try ignoredElements.map { try $0.selector() }
    try writeFrame(frame, key: key, ignoredElements: ignoredElements)

    guard let location = try store.locate(key) else {
      guard recordMode.records(.new) else {
        return SnapshotVerdict(
          key: rawKey, status: .failed,
          message: "No baseline for snapshot '\(rawKey)' in \(store.root) (record mode never, as in CI). Record it locally, or run `snapdiff check \(frames)` and `snapdiff approve --new`.")
      }
      try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key)
      var verdict = SnapshotVerdict(key: rawKey, status: .recorded)
      verdict.baselinePath = store.writePath(for: key)
      return verdict
    }

    let baseline = try Frame.load(location.path)
    var comparison = FrameComparison(options: options, selectors: masks)
    if let settings = try store.settings(at: location) { comparison = try settings.applied(to: comparison) }
    let outcome = try comparison.compare(baseline, frame)
    var verdict = SnapshotVerdict(key: rawKey, status: outcome.passed ? .passed : .failed)
    verdict.differentPixels = outcome.result.differentPixels
    verdict.baselinePath = location.path
    if outcome.passed {
      if recordMode == .all && !outcome.result.identical {
        try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key)
      }
      return verdict
    }

    // A failure leaves what a reviewer needs: the current frame and the diff image.
    let current = artifacts + "/" + key.relativePath()
    let diff = artifacts + "/" + key.relativePath(suffix: ".diff.png")
    try FileSystem.createDirectories(String(current[..<current.lastIndex(of: "/")!]))
    try PNGEncoder().write(frame.image, to: current)
    if let image = try comparison.compare(baseline, frame, drawing: true).diffImage {
      try PNGEncoder(speed: .fast).write(image, to: diff)
    }
    verdict.currentPath = current
    verdict.diffPath = diff
    let rerecord = recordMode == .all || recordMode == .failed
    if rerecord { try store.write(try PNGEncoder().encode(frame.image), tree: frame.tree, for: key) }
    verdict.message = Self.failureMessage(
      key: rawKey, outcome: outcome, baseline: location.path, current: current, diff: diff,
      rerecorded: rerecord, frames: frames)
    return verdict
  }

  static func failureMessage(
    key: String, outcome: FrameComparison.Outcome, baseline: String, current: String, diff: String,
    rerecorded: Bool, frames: String
  ) -> String {
    let result = outcome.result
    var lines = [
      "Snapshot '\(key)' does not match its baseline: \(ReportFormat.count(result.differentPixels)) of \(ReportFormat.count(result.totalPixels)) pixels differ (\(ReportFormat.percent(result.differentRatio)))"
        + (result.regions.isEmpty ? "" : " in \(result.regions.map(\.description).prefix(3).joined(separator: ", "))")
        + (result.sizesMatch ? "" : "; sizes differ: baseline \(result.baselineSize), current \(result.currentSize)")
    ]
    if let layout = outcome.layout, !layout.isEmpty {
      lines.append("  layout: " + layout.map(\.sentence).joined(separator: "; "))
    }
    lines.append("  baseline: \(baseline)")
    lines.append("  current:  \(current)")
    lines.append("  diff:     \(diff)")
    lines.append(
      rerecorded
        ? "The baseline was re-recorded (SNAPDIFF_RECORD); re-run to check."
        : "If the change is intended: snapdiff check \(frames) && snapdiff approve '\(key)', or re-run with SNAPDIFF_RECORD=failed.")
    return lines.joined(separator: "\n")
  }

  /// The frame, its tree and its masks in the frames folder, for `snapdiff check`.
  private func writeFrame(_ frame: Frame, key: SnapshotKey, ignoredElements: [ElementIdentifier]) throws {
    try FileSystem.remove(frames + "/" + key.relativePath(suffix: ".skipped.json"))
    let png = frames + "/" + key.relativePath()
    try FileSystem.createDirectories(String(png[..<png.lastIndex(of: "/")!]))
    try PNGEncoder().write(frame.image, to: png)
    let treePath = frames + "/" + key.relativePath(suffix: ".tree.json")
    if let tree = frame.tree {
      try FileIO.writeAtomically(try tree.encoded(), to: treePath)
    } else {
      try FileSystem.remove(treePath)
    }
    let settingsPath = frames + "/" + key.relativePath(suffix: ".snapdiff.json")
    if ignoredElements.isEmpty {
      try FileSystem.remove(settingsPath)
    } else {
      let list = ignoredElements.map { JSONValue.string($0.selectorText) }
      let json = JSONValue.object([("ignoreElements", .array(list))]).serialized(pretty: true) + "\n"
      try FileIO.writeAtomically(Array(json.utf8), to: settingsPath)
    }
  }

  /// Writes the skip of `key` to the frames folder, so `snapdiff check` reports it.
  public func recordSkip(key rawKey: String, reason: String) throws {
    let key = try SnapshotKey(rawKey)
    // A frame left from an earlier run would be checked as if it had been taken now.
    for suffix in [".png", ".tree.json", ".snapdiff.json"] {
      try FileSystem.remove(frames + "/" + key.relativePath(suffix: suffix))
    }
    let path = frames + "/" + key.relativePath(suffix: ".skipped.json")
    try FileSystem.createDirectories(String(path[..<path.lastIndex(of: "/")!]))
    let json = JSONValue.object([("key", .string(rawKey)), ("reason", .string(reason))]).serialized(pretty: true) + "\n"
    try FileIO.writeAtomically(Array(json.utf8), to: path)
  }
}
