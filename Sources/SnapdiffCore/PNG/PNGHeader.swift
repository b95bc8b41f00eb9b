/// What a PNG's header says, read without decoding the image.
public struct PNGHeader: Sendable, Hashable {
  public var width: Int
  public var height: Int
  /// Bits per sample: 1, 2, 4, 8 or 16.
  public var bitDepth: Int
  public var colorType: ColorType
  public var isInterlaced: Bool
  /// A `tRNS` chunk gives transparency to a colour type without an alpha channel.
  public var hasTransparencyChunk: Bool
  /// A `gAMA` chunk is present. Its value is never applied: snapdiff reads raw samples.
  public var hasGammaChunk: Bool

  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// The PNG colour types.
  public enum ColorType: Int, Sendable, Hashable {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6
  }
}
