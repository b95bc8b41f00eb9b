/// The pieces of a PNG file that tests build by hand (a chunk, its CRC-32, a zlib stream of
/// stored blocks with its Adler-32), once for every test target: damaged and unusual files are
/// made from them byte by byte.
public enum PNGBytes {
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A chunk: length, type, data, and the CRC-32 of type and data.
  public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }

  /// An IHDR chunk's data: the size, bit depth, colour type (0 gray, 2 RGB, 3 palette, 4 gray +
  /// alpha, 6 RGBA), deflate, filter method 0, and Adam7 interlacing or none.
  public static func ihdr(width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8, interlaced: Bool = false)
    -> [UInt8]
  {
    bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
  }

  /// The offset of the first IDAT chunk's data in a PNG file.
  public static func idatDataOffset(_ file: [UInt8]) -> Int {
    var offset = 8
    while String(decoding: file[offset + 4..<offset + 8], as: UTF8.self) != "IDAT" {
      offset +=
        12 + Int(file[offset]) << 24 + Int(file[offset + 1]) << 16 + Int(file[offset + 2]) << 8
        + Int(file[offset + 3])
    }
    return offset + 8
  }

  public static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  /// A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
  public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, data.count - offset)
      let final: UInt8 = offset + count == data.count ? 1 : 0
      out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[offset..<offset + count]
      offset += count
    } while offset < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + bigEndian(b << 16 | a)
  }

  private static let crcTable: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
    var c = n
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// PNG's CRC-32 (ISO 3309).
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
