import SnapdiffTestSupport
/// Writes PNG files byte by byte (stored deflate blocks, real CRCs and Adler-32), so tests can
/// make every colour type, bit depth, interlacing and chunk combination, and damage them on
/// purpose, without depending on the encoder under test.
struct PNGFileBuilder {
  var width: Int
  var height: Int
  /// 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
  var colorType: UInt8
  var bitDepth: UInt8
  var interlaced = false
  /// PLTE entries for colour type 3.
  var palette: [(UInt8, UInt8, UInt8)] = []
  /// The raw content of a tRNS chunk.
  var transparency: [UInt8]? = nil
  /// The gAMA value (gamma × 100000), when the file should carry one.
  var gamma: UInt32? = nil
  var includeEnd = true
  /// The sample of channel `c` of pixel (`x`, `y`), in 0..<2^bitDepth.
  var sample: (_ x: Int, _ y: Int, _ channel: Int) -> Int

  var channels: Int {
    switch colorType {
    case 0, 3: 1
    case 2: 3
    case 4: 2
    default: 4
    }
  }

  func build() -> [UInt8] {
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in chunks() { file += Self.chunk(type, data) }
    return file
  }

  func chunks() -> [(String, [UInt8])] {
    var header = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
    header += [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
    var result: [(String, [UInt8])] = [("IHDR", header)]
    if let gamma { result.append(("gAMA", Self.bigEndian(gamma))) }
    if !palette.isEmpty { result.append(("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })) }
    if let transparency { result.append(("tRNS", transparency)) }
    result.append(("IDAT", Self.zlibStored(scanlines())))
    if includeEnd { result.append(("IEND", [])) }
    return result
  }

  /// The filtered scanlines (filter type 0), pass by pass when interlaced.
  func scanlines() -> [UInt8] {
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

  // The byte-level pieces live once, in the shared test support (PNGBytes).
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { PNGBytes.chunk(type, data) }
  static func bigEndian(_ value: UInt32) -> [UInt8] { PNGBytes.bigEndian(value) }
  static func zlibStored(_ data: [UInt8]) -> [UInt8] { PNGBytes.zlibStored(data) }
  static func crc32(_ bytes: [UInt8]) -> UInt32 { PNGBytes.crc32(bytes) }

}
