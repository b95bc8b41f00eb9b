/// Numbers and figures as the reports write them, the same way `snapdiff compare` prints them.
public enum ReportFormat {
  /// `1234567` → `"1,234,567"` (``DifferenceWording/count(_:)``).
  public static func count(_ value: Int) -> String { DifferenceWording.count(value) }

  /// `0.00123` → `"0.123%"` (``DifferenceWording/percent(_:)``).
  public static func percent(_ fraction: Double) -> String { DifferenceWording.percent(fraction) }

  /// `1 failed, 3 passed`: a run's counts in the order that needs attention first, as `check`,
  /// `status` and the GitHub job summary word them.
  public static func statusCounts(_ counts: [SnapshotStatus: Int]) -> String {
    let order: [SnapshotStatus] = [.failed, .new, .missing, .rejected, .skipped, .approved, .passed]
    return order.compactMap { status in counts[status].map { "\($0) \(status.rawValue)" } }.joined(separator: ", ")
  }

  /// `390×844`.
  static func size(_ size: SnapshotRecord.Size) -> String { "\(size.width)×\(size.height)" }

  /// `58×17 at (24, 320)`.
  static func region(_ region: SnapshotRecord.Region) -> String {
    "\(region.width)×\(region.height) at (\(region.x), \(region.y))"
  }

  /// `1 area`, `3 areas`.
  static func plural(_ value: Int, _ singular: String, _ plural: String) -> String {
    "\(count(value)) \(value == 1 ? singular : plural)"
  }

  /// The comparison in one sentence, as `snapdiff compare` says it: `17,143 of 329,160 pixels
  /// differ (5.208%) in 3 areas`, with the sizes when they differ.
  static func figures(_ snapshot: SnapshotRecord) -> String {
    DifferenceWording.sentence(
      differentPixels: snapshot.differentPixels, totalPixels: snapshot.totalPixels,
      differentRatio: snapshot.differentRatio, regions: snapshot.regions,
      baselineSize: snapshot.baselineSize, currentSize: snapshot.currentSize,
      regionsShown: 0)
  }

  /// What was not counted: `140 anti-aliased, 12 ignored`, or `nil` when nothing was left out.
  static func uncounted(_ snapshot: SnapshotRecord) -> String? {
    var parts: [String] = []
    if snapshot.antialiasedPixels > 0 {
      parts.append("\(count(snapshot.antialiasedPixels)) anti-aliased")
    }
    if snapshot.ignoredPixels > 0 { parts.append("\(count(snapshot.ignoredPixels)) ignored") }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// The key's first `/`-component (the `<id> - <test name>` folder) and the rest; a key
  /// without `/` has no group.
  static func splitKey(_ key: String) -> (group: String?, name: String) {
    guard let slash = key.firstIndex(of: "/") else { return (nil, key) }
    return (String(key[..<slash]), String(key[key.index(after: slash)...]))
  }
}
