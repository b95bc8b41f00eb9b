/// Reads the colour-space chunks of a PNG (`iCCP`, `sRGB`, `gAMA`, `cHRM`) by walking its chunk
/// list, without decoding anything: they come before the first `IDAT`, so the walk stops there.
///
/// Precedence follows the specification (PNG 3rd edition, §4.3): `iCCP` over `sRGB` over
/// `gAMA`/`cHRM`. A malformed chunk is skipped (libpng treats these chunks' errors as benign and
/// decodes the image without them): an `iCCP` whose stream does not inflate, or whose profile is
/// not an RGB ICC profile of the size it declares, as in libpng's `png_icc_check_header`. A
/// file too short to walk is left to the decoder to reject.
enum PNGColorChunks {
  /// The colour space `data` is tagged with, or `nil` for an untagged PNG.
  static func colorSpace(in data: UnsafeBufferPointer<UInt8>) -> ColorSpaceTag? {
    var iccProfile: ColorSpaceTag?
    var hasSRGB = false
    var gamma: UInt32?
    var chromaticities: ColorSpaceTag.Chromaticities?
    var offset = 8  // the signature
    // Each chunk: length (4), type (4), data, CRC (4).
    while offset + 8 <= data.count {
      let length = Int(bigEndian(data, offset))
      let type = bigEndian(data, offset + 4)
      let start = offset + 8
      guard length <= data.count - start - 4 else { break }
      switch type {
      case Self.idat, Self.iend:
        offset = data.count
        continue
      case Self.iccp:
        iccProfile = Self.iccProfile(data, start: start, length: length) ?? iccProfile
      case Self.srgb where length == 1:
        hasSRGB = true
      case Self.gama where length == 4:
        let value = bigEndian(data, start)
        if value > 0 { gamma = value }
      case Self.chrm where length == 32:
        let values = (0..<8).map { bigEndian(data, start + 4 * $0) }
        chromaticities = ColorSpaceTag.Chromaticities(
          whiteX: values[0], whiteY: values[1], redX: values[2], redY: values[3],
          greenX: values[4], greenY: values[5], blueX: values[6], blueY: values[7])
      default:
        break
      }
      offset = start + length + 4
    }
    if let iccProfile { return iccProfile }
    if hasSRGB { return .sRGB }
    if let gamma { return .gamma(gamma, chromaticities: chromaticities) }
    return nil
  }

  /// `iCCP`: a 1–79 byte Latin-1 name, a 0 byte, compression method 0 (zlib), the profile.
  private static func iccProfile(_ data: UnsafeBufferPointer<UInt8>, start: Int, length: Int)
    -> ColorSpaceTag?
  {
    let chunk = data[start..<start + length]
    guard let zero = chunk.firstIndex(of: 0), zero > start, zero - start < 80,
      zero + 2 < start + length, data[zero + 1] == 0
    else { return nil }
    let name = String(String.UnicodeScalarView(chunk[start..<zero].map { Unicode.Scalar($0) }))
    guard let profile = ZlibInflate.inflate(Array(chunk[(zero + 2)...]), limit: 16 << 20),
      isRGBProfile(profile)
    else { return nil }
    return .iccProfile(name: name, profile: profile)
  }

  /// An ICC header (ICC.1:2010 §7.2): the declared size (bytes 0–3) is the data's, the
  /// signature 'acsp' at 36, the data colour space 'RGB ' at 16 (the pixels are RGB).
  private static func isRGBProfile(_ profile: [UInt8]) -> Bool {
    guard profile.count >= 132 else { return false }
    let size = profile.withUnsafeBufferPointer { bigEndian($0, 0) }
    return Int(size) == profile.count && profile[36..<40].elementsEqual("acsp".utf8)
      && profile[16..<20].elementsEqual("RGB ".utf8)
  }

  @inline(__always)
  private static func bigEndian(_ data: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
    UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8
      | UInt32(data[offset + 3])
  }

  private static let idat: UInt32 = 0x4944_4154
  private static let iend: UInt32 = 0x4945_4E44
  private static let iccp: UInt32 = 0x6943_4350
  private static let srgb: UInt32 = 0x7352_4742
  private static let gama: UInt32 = 0x6741_4D41
  private static let chrm: UInt32 = 0x6348_524D
}
