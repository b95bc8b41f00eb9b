/// Writes PNG files byte by byte (stored deflate blocks, real CRCs and Adler-32), so tests can
/// make every colour type, bit depth, interlacing and chunk combination, and damage them on
/// purpose, without depending on the encoder under test.
public struct PNGFileBuilder {
  public var width: Int
  public var height: Int
  /// 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
  public var colorType: UInt8
  public var bitDepth: UInt8
  public var interlaced = false
  /// PLTE entries for colour type 3.
  public var palette: [(UInt8, UInt8, UInt8)] = []
  /// The raw content of a tRNS chunk.
  public var transparency: [UInt8]? = nil
  /// The gAMA value (gamma × 100000), when the file should carry one.
  public var gamma: UInt32? = nil
  public var includeEnd = true
  /// A byte to put in place of the deflate stream's first (the first stored block's header) to
  /// damage the stream under valid CRCs; nil keeps the stream as written.
  public var zlibBlockHeader: UInt8? = nil
  /// Whether the zlib stream lacks its 4-byte Adler-32 trailer.
  public var dropsAdler = false
  /// The sample of channel `c` of pixel (`x`, `y`), in 0..<2^bitDepth.
  public var sample: (_ x: Int, _ y: Int, _ channel: Int) -> Int

  public init(
    width: Int, height: Int, colorType: UInt8, bitDepth: UInt8, interlaced: Bool = false,
    palette: [(UInt8, UInt8, UInt8)] = [], transparency: [UInt8]? = nil, gamma: UInt32? = nil,
    includeEnd: Bool = true, zlibBlockHeader: UInt8? = nil, dropsAdler: Bool = false,
    sample: @escaping (_ x: Int, _ y: Int, _ channel: Int) -> Int
  ) {
    self.width = width
    self.height = height
    self.colorType = colorType
    self.bitDepth = bitDepth
    self.interlaced = interlaced
    self.palette = palette
    self.transparency = transparency
    self.gamma = gamma
    self.includeEnd = includeEnd
    self.zlibBlockHeader = zlibBlockHeader
    self.dropsAdler = dropsAdler
    self.sample = sample
  }

  /// The file of `width`×`height` 8-bit RGBA `pixels` (4 bytes a pixel, row by row) written as
  /// `colorType` at `bitDepth` 8 or 16: 2 RGB (alpha dropped), 3 a palette of the distinct
  /// colours in order of first appearance with their alphas as tRNS, 4 gray + alpha (red and
  /// alpha), 6 RGBA. At 16 bits a sample v is written as v × 257, which scales back to v exactly.
  public init(
    rgba pixels: [UInt8], width: Int, height: Int, colorType: UInt8 = 6, bitDepth: UInt8 = 8,
    interlaced: Bool = false, includeEnd: Bool = true, zlibBlockHeader: UInt8? = nil, dropsAdler: Bool = false
  ) {
    var colors: [[UInt8]] = []
    if colorType == 3 {
      for index in stride(from: 0, to: pixels.count, by: 4) where !colors.contains(Array(pixels[index..<index + 4])) {
        colors.append(Array(pixels[index..<index + 4]))
      }
    }
    let scale = bitDepth == 16 ? 257 : 1
    let entries = colors
    self.init(
      width: width, height: height, colorType: colorType, bitDepth: bitDepth, interlaced: interlaced,
      palette: colors.map { ($0[0], $0[1], $0[2]) }, transparency: colorType == 3 ? colors.map { $0[3] } : nil,
      includeEnd: includeEnd, zlibBlockHeader: zlibBlockHeader, dropsAdler: dropsAdler
    ) { x, y, channel in
      let pixel = (y * width + x) * 4
      switch colorType {
      case 3: return entries.firstIndex(of: Array(pixels[pixel..<pixel + 4]))!
      case 4: return Int(pixels[pixel + (channel == 0 ? 0 : 3)]) * scale
      default: return Int(pixels[pixel + channel]) * scale
      }
    }
  }

  public var channels: Int {
    switch colorType {
    case 0, 3: 1
    case 2: 3
    case 4: 2
    default: 4
    }
  }

  public func build() -> [UInt8] {
    var file = PNGBytes.signature
    for (type, data) in chunks() { file += PNGBytes.chunk(type, data) }
    return file
  }

  public func chunks() -> [(String, [UInt8])] {
    let header = PNGBytes.ihdr(
      width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced)
    var result: [(String, [UInt8])] = [("IHDR", header)]
    if let gamma { result.append(("gAMA", PNGBytes.bigEndian(gamma))) }
    if !palette.isEmpty { result.append(("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })) }
    if let transparency { result.append(("tRNS", transparency)) }
    var stream = PNGBytes.zlibStored(scanlines())
    if let zlibBlockHeader { stream[2] = zlibBlockHeader }
    if dropsAdler { stream.removeLast(4) }
    result.append(("IDAT", stream))
    if includeEnd { result.append(("IEND", [])) }
    return result
  }

  /// The filtered scanlines (filter type 0), pass by pass when interlaced.
  public func scanlines() -> [UInt8] {
    let passes: [(Int, Int, Int, Int)] =
      interlaced
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    var bytes: [UInt8] = []
    for (x0, y0, dx, dy) in passes {
      let xs = Array(stride(from: x0, to: width, by: dx))
      guard !xs.isEmpty else { continue }
      for y in stride(from: y0, to: height, by: dy) {
        bytes.append(0)
        bytes += packRow(y: y, xs: xs)
      }
    }
    return bytes
  }

  private func packRow(y: Int, xs: [Int]) -> [UInt8] {
    var row: [UInt8] = []
    var accumulator = 0
    var bits = 0
    for x in xs {
      for channel in 0..<channels {
        let value = sample(x, y, channel)
        switch bitDepth {
        case 16: row += [UInt8(value >> 8), UInt8(value & 0xff)]
        case 8: row.append(UInt8(value))
        default:
          accumulator = accumulator << Int(bitDepth) | value
          bits += Int(bitDepth)
          if bits == 8 {
            row.append(UInt8(accumulator))
            accumulator = 0
            bits = 0
          }
        }
      }
    }
    if bits > 0 { row.append(UInt8(accumulator << (8 - bits))) }
    return row
  }
}
