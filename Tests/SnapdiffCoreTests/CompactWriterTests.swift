// The compact writer (`PNGEncoder(speed: .compact)`: baselines, rendered trees): snapdiff's own,
// with libpng's filter heuristic and libdeflate (Sources/CPNGCodec/CPNGWriter.c, CPNGFilters.c),
// read back by libpng and by the fast decode path against the pixels it was given and against
// libpng's own writer.
import SnapdiffCore
import Testing

@Suite("compact writer")
struct CompactWriterTests {
  static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> RGBAColor) -> RGBAImage {
    var image = RGBAImage(width: width, height: height, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
    for y in 0..<height { for x in 0..<width { image[x: x, y: y] = pixel(x, y) } }
    return image
  }

  /// Writes `original` with both writers; checks the colour type written and that libpng and the
  /// fast path read exactly the pixels back. Returns both files' sizes (own, libpng's).
  @discardableResult
  static func roundTrip(_ original: RGBAImage, _ name: String, colorType: UInt8) throws -> (Int, Int) {
    let own = try PNGEncoder().encode(original)
    var libpngWriter = PNGEncoder()
    libpngWriter.usesOwnCompactWriter = false
    let reference = try libpngWriter.encode(original)
    #expect(own[25] == colorType, "\(name): colour type \(own[25]), not \(colorType)")
    var libpng = PNGDecoder()
    libpng.usesFastPath = false
    #expect(try libpng.decode(own, path: name) == original, "\(name): libpng")
    #expect(try PNGDecoder().decode(own, path: name) == original, "\(name): fast path")
    #expect(try libpng.decode(reference, path: name) == original, "\(name): libpng's writer")
    #expect(try PNGEncoder().encode(original) == own, "\(name): the same bytes twice")
    return (own.count, reference.count)
  }

  @Test("every format, odd widths and every filter round-trip exactly")
  func everyFormat() throws {
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> Int {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return Int(seed % 251)
    }
    // A smooth gradient (Sub, Up and Average win), noise (None or Paeth), and edges: rows of
    // 1 to 37 pixels, so that the 16-byte filter loop ends on every remainder.
    let photo = Self.image(301, 97) { x, y in
      x < 150
        ? RGBAColor(red: UInt8((x + y) % 256), green: UInt8((2 * x + y) % 256), blue: UInt8(y % 256))
        : RGBAColor(red: UInt8(next()), green: UInt8((x * y) % 256), blue: UInt8(next()))
    }
    try Self.roundTrip(photo, "RGB photo", colorType: 2)
    let translucent = Self.image(130, 41) { x, y in
      RGBAColor(red: UInt8(x % 256), green: UInt8(next()), blue: UInt8(y * 5 % 256), alpha: UInt8((x * 3 + y) % 256))
    }
    try Self.roundTrip(translucent, "RGBA", colorType: 6)
    for width in 1...37 {
      // 300 rows of distinct blues: over 256 colours, so RGB.
      let strip = Self.image(width, 300) { x, y in
        RGBAColor(red: UInt8(next()), green: UInt8(x * 7 % 256), blue: UInt8(y % 256))
      }
      try Self.roundTrip(strip, "\(width)×300 RGB", colorType: 2)
    }
    let few = Self.image(64, 64) { x, y in (x / 8 + y / 8) % 2 == 0 ? RGBAColor(red: 20, green: 30, blue: 40) : .yellow
    }
    try Self.roundTrip(few, "two colours", colorType: 3)
    let clear = Self.image(33, 9) { x, _ in x % 3 == 0 ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) : .red }
    try Self.roundTrip(clear, "palette with transparency", colorType: 3)
  }

  @Test("a rendered screen: a palette, smaller than libpng's RGBA")
  func renderedScreen() throws {
    let tree = try ElementTree.load(Fixtures.path("trees/login.tree.json"))
    let image = ElementRenderer().render(tree)
    let (own, libpng) = try Self.roundTrip(image, "rendered", colorType: 3)
    #expect(own < libpng, "\(own) bytes against libpng's \(libpng)")
  }
}
