/// The `perceptual` match level's pixel delta: ΔE00 between two pixels read as sRGB, with
/// semi-transparent pixels blended over white first (as pixelmatch does for its YIQ delta).
///
/// ΔE00 costs about thirty floating-point operations with `atan2`, `pow`, `exp`, `sin` and `cos`,
/// so it is only asked for pixels whose bytes differ, and recent pairs are kept: a changed
/// button repeats the same two colours thousands of times.
struct PerceptualDelta {
  /// A power of two: the cache is direct-mapped by a hash of the pair.
  private static let cacheSize = 4096
  /// Pair keys (`first << 32 | second`); 0 means empty, since two equal words never ask.
  private var keys: [UInt64]
  private var values: [Double]
  private let linear: [Double]

  /// - Parameter active: whether `delta` will be asked at all; an inactive one allocates nothing
  ///   (the other match levels' scans create one too).
  init(active: Bool = true) {
    keys = active ? [UInt64](repeating: 0, count: Self.cacheSize) : []
    values = active ? [Double](repeating: 0, count: Self.cacheSize) : []
    linear = active ? SRGBToLab.linearTable : []
  }

  /// ΔE00 between two little-endian RGBA words; negative when the second is darker (lower L*),
  /// the sign convention of `colorDelta`.
  @inline(__always)
  mutating func delta(_ first: UInt32, _ second: UInt32) -> Double {
    let key = UInt64(first) << 32 | UInt64(second)
    // Fibonacci hashing: the top bits of the product spread neighbouring colours apart.
    let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52)
    if keys[slot] == key { return values[slot] }
    let one = lab(first)
    let two = lab(second)
    let difference = CIEDE2000.difference(one, two)
    let signed = two.l < one.l ? -difference : difference
    keys[slot] = key
    values[slot] = signed
    return signed
  }

  /// A pixel's Lab colour; an opaque one through the 8-bit table, others blended over white.
  @inline(__always)
  private func lab(_ pixel: UInt32) -> LabColor {
    if pixel >> 24 == 255 {
      return SRGBToLab.lab(
        linearRed: linear[Int(pixel & 0xff)], green: linear[Int((pixel >> 8) & 0xff)],
        blue: linear[Int((pixel >> 16) & 0xff)])
    }
    let (r, g, b) = channels(pixel)
    return SRGBToLab.lab(
      linearRed: SRGBToLab.linear(r / 255), green: SRGBToLab.linear(g / 255),
      blue: SRGBToLab.linear(b / 255))
  }
}
