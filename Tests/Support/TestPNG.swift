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
    let zlib = PNGBytes.zlibStored(rows)
    let header = PNGBytes.ihdr(width: width, height: height, colorType: 2)
    let bytes = PNGBytes.signature + PNGBytes.chunk("IHDR", header) + PNGBytes.chunk("IDAT", zlib) + PNGBytes.chunk("IEND", [])
    return Data(bytes)
  }
}
