import Foundation

/// PNG files for tests that cannot link the engine (the test API as an iOS bundle builds it):
/// 8-bit RGB, stored deflate blocks, with the CRC-32 and Adler-32 PNG requires.
public enum TestPNG {
  /// An opaque RGB PNG of `width`×`height`, every pixel `color(x, y)`.
  public static func rgb(width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
    var rows: [UInt8] = []
    rows.reserveCapacity(height * (width * 3 + 1))
    for y in 0..<height {
      rows.append(0)
      for x in 0..<width {
        let (r, g, b) = color(x, y)
        rows += [r, g, b]
      }
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, rows.count - offset)
      let last: UInt8 = offset + count == rows.count ? 1 : 0
      zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      zlib += rows[offset..<offset + count]
      offset += count
    } while offset < rows.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in rows {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    zlib += bigEndian((b << 16) | a)
    var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [8, 2, 0, 0, 0]
    let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    return Data(bytes)
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
  }
}
