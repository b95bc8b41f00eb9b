/// What a PNG file says about the colour space of its samples (PNG 3rd edition, §11.3.2):
/// an embedded ICC profile (`iCCP`), the sRGB space (`sRGB`), or a gamma with optional
/// chromaticities (`gAMA`, `cHRM`). An untagged image has none, and is read as sRGB.
///
/// Pure data: converting between spaces is `ColorMatching`'s job (LittleCMS).
public enum ColorSpaceTag: Sendable, Hashable {
  /// An `sRGB` chunk.
  case sRGB
  /// An `iCCP` chunk: the profile's name and its ICC data (inflated; its header checked: an RGB
  /// profile of the size it declares).
  case iccProfile(name: String, profile: [UInt8])
  /// A `gAMA` chunk (the file gamma × 100000, 45455 for 1/2.2) and, when present, `cHRM`.
  case gamma(UInt32, chromaticities: Chromaticities?)

  /// A `cHRM` chunk: white point and primaries as CIE x, y × 100000.
  public struct Chromaticities: Sendable, Hashable {
    public var whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY: UInt32

    public init(
      whiteX: UInt32, whiteY: UInt32, redX: UInt32, redY: UInt32, greenX: UInt32, greenY: UInt32,
      blueX: UInt32, blueY: UInt32
    ) {
      self.whiteX = whiteX
      self.whiteY = whiteY
      self.redX = redX
      self.redY = redY
      self.greenX = greenX
      self.greenY = greenY
      self.blueX = blueX
      self.blueY = blueY
    }

    /// sRGB's (ITU-R BT.709 primaries, D65), as the PNG specification writes them with `sRGB`.
    public static let sRGB = Chromaticities(
      whiteX: 31_270, whiteY: 32_900, redX: 64_000, redY: 33_000, greenX: 30_000, greenY: 60_000,
      blueX: 15_000, blueY: 6_000)
  }

  /// Whether samples in this space are sRGB samples for comparison purposes: the `sRGB` chunk,
  /// or gamma 1/2.2 with sRGB's primaries (or none given), which is what encoders write beside
  /// `sRGB` for old readers. An untagged image (`nil`) counts as sRGB too.
  public var isSRGB: Bool {
    switch self {
    case .sRGB: return true
    case .iccProfile: return false
    case .gamma(let gamma, let chromaticities):
      // libpng's tolerance for "sRGB-like" gamma: 45455 ± 0.5 %.
      return (45_228...45_682).contains(gamma) && (chromaticities == nil || chromaticities == .sRGB)
    }
  }
}
