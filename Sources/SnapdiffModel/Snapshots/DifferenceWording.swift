/// How every part of snapdiff words a comparison's figures, so that a test's failure message,
/// `snapdiff compare`, `check` and the service say the same thing the same way:
/// `17,143 of 329,160 pixels differ (5.208%) in 58×17 at (24, 320), 340×52 at (25, 520)`.
public enum DifferenceWording {
  /// `1234567` → `"1,234,567"`.
  public static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return value < 0 ? "-" + grouped : grouped
  }

  /// A fraction as a percentage with up to three decimals: `0.00123` → `"0.123%"`, and
  /// `"<0.001%"` for a difference too small to show.
  public static func percent(_ fraction: Double) -> String {
    guard fraction.isFinite else { return "?%" }
    let thousandths = (fraction * 100_000).rounded()
    if thousandths == 0 && fraction > 0 { return "<0.001%" }
    let whole = Int(thousandths)
    var text = String(whole / 1000)
    var decimals = String(whole % 1000)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    if !decimals.isEmpty { text += "." + decimals }
    return text + "%"
  }

  /// The figures in one sentence, as `snapdiff compare` prints them: the sizes when they
  /// differ, the count and share of differing pixels, and the first `regionsShown` areas (0:
  /// only how many, for a report that draws them).
  ///
  /// ```swift
  /// DifferenceWording.sentence(differentPixels: 147, totalPixels: 329_160, differentRatio: 0.000447,
  ///                            regions: [PixelRect(x: 4, y: 2, width: 40, height: 16)])
  /// // "147 of 329,160 pixels differ (0.045%) in 1 area: 40×16 at (4, 2)"
  /// ```
  public static func sentence(
    differentPixels: Int, totalPixels: Int, differentRatio: Double, regions: [PixelRect] = [],
    baselineSize: PixelSize? = nil, currentSize: PixelSize? = nil, regionsShown: Int = 3
  ) -> String {
    var text = ""
    if let baselineSize, let currentSize, baselineSize != currentSize {
      text += "sizes differ: baseline \(baselineSize), current \(currentSize); "
    }
    text += "\(count(differentPixels)) of \(count(totalPixels)) pixels differ (\(percent(differentRatio)))"
    if !regions.isEmpty {
      text += " in \(count(regions.count)) \(regions.count == 1 ? "area" : "areas")"
      if regionsShown > 0 {
        text += ": " + regions.prefix(regionsShown).map(\.description).joined(separator: ", ")
        if regions.count > regionsShown { text += ", …" }
      }
    }
    return text
  }
}
