import Foundation

/// PNG files for tests that cannot link the engine (the test API as an iOS bundle builds it):
/// 8-bit RGB, stored deflate blocks, with the CRC-32 and Adler-32 PNG requires.
public enum TestPNG {
  /// An opaque RGB PNG of `width`×`height`, every pixel `color(x, y)`.
  public static func rgb(width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
    withoutActuallyEscaping(color) { color in
      Data(
        PNGFileBuilder(width: width, height: height, colorType: 2, bitDepth: 8) { x, y, channel in
          let (r, g, b) = color(x, y)
          return Int([r, g, b][channel])
        }.build())
    }
  }
}
