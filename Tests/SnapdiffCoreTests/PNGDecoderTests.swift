import SnapdiffCore
import Testing

/// Every PNG colour type and bit depth, plain and interlaced, decoded to the values other tools
/// read. Inputs are written byte by byte by `PNGFileBuilder`, not by the encoder under test.
@Suite("PNG decoding")
struct PNGDecoderTests {
  struct Format: Sendable, CustomTestStringConvertible {
    var colorType: UInt8
    var bitDepth: UInt8
    var interlaced: Bool
    var testDescription: String {
      "colour type \(colorType), \(bitDepth)-bit\(interlaced ? ", interlaced" : "")"
    }
  }

  static let formats: [Format] = {
    let depths: [(UInt8, [UInt8])] = [
      (0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16]),
    ]
    return depths.flatMap { colorType, bitDepths in
      bitDepths.flatMap { depth in
        [false, true].map { Format(colorType: colorType, bitDepth: depth, interlaced: $0) }
      }
    }
  }()

  /// A deterministic sample in range for the format, different per pixel and channel.
  static func sample(_ x: Int, _ y: Int, _ channel: Int, depth: UInt8, paletteSize: Int) -> Int {
    let maximum = paletteSize > 0 ? paletteSize - 1 : (1 << Int(depth)) - 1
    return (x * 7919 + y * 104_729 + channel * 15_485_863) % (maximum + 1)
  }

  /// What an 8-bit reader gives for a sample: low depths replicated, 16-bit scaled with rounding.
  static func eightBit(_ value: Int, depth: UInt8) -> UInt8 {
    switch depth {
    case 1: UInt8(value * 255)
    case 2: UInt8(value * 85)
    case 4: UInt8(value * 17)
    case 8: UInt8(value)
    default: UInt8((value * 255 + 32767) / 65535)
    }
  }

  @Test("decodes every colour type and bit depth", arguments: formats)
  func decodes(_ format: Format) throws {
    let width = 13
    let height = 11
    let paletteSize = format.colorType == 3 ? 1 << Int(format.bitDepth) : 0
    let palette: [(UInt8, UInt8, UInt8)] = (0..<paletteSize).map { (index: Int) in
      (UInt8(index * 3 % 256), UInt8(index * 5 % 256), UInt8(255 - index))
    }
    let builder = PNGFileBuilder(
      width: width, height: height, colorType: format.colorType, bitDepth: format.bitDepth,
      interlaced: format.interlaced, palette: palette
    ) { x, y, channel in
      Self.sample(x, y, channel, depth: format.bitDepth, paletteSize: paletteSize)
    }
    let image = try PNGDecoder().decode(builder.build(), path: "generated.png")
    #expect(image.width == width && image.height == height)
    for y in 0..<height {
      for x in 0..<width {
        let s = { (channel: Int) in Self.sample(x, y, channel, depth: format.bitDepth, paletteSize: paletteSize) }
        let e = { (channel: Int) in Self.eightBit(s(channel), depth: format.bitDepth) }
        let expected: RGBAColor =
          switch format.colorType {
          case 0: RGBAColor(red: e(0), green: e(0), blue: e(0))
          case 2: RGBAColor(red: e(0), green: e(1), blue: e(2))
          case 3:
            RGBAColor(red: palette[s(0)].0, green: palette[s(0)].1, blue: palette[s(0)].2)
          case 4: RGBAColor(red: e(0), green: e(0), blue: e(0), alpha: e(1))
          default: RGBAColor(red: e(0), green: e(1), blue: e(2), alpha: e(3))
          }
        #expect(image[x: x, y: y] == expected, "pixel (\(x), \(y))")
        if image[x: x, y: y] != expected { return }
      }
    }
  }

  @Test("16-bit samples are scaled with rounding, not truncated")
  func sixteenBitRounding() throws {
    // 0x01FF is 1.99 in 8 bits: rounding gives 2 (truncation would give 1); 0x8080 gives 128.
    let values = [0x01FF, 0x8080, 0xFFFF, 0x0000]
    let builder = PNGFileBuilder(width: 4, height: 1, colorType: 0, bitDepth: 16) { x, _, _ in values[x] }
    let image = try PNGDecoder().decode(builder.build())
    #expect(image.pixels == [2, 2, 2, 255, 128, 128, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255])
  }

  @Test("tRNS makes one gray, RGB or palette colour transparent")
  func transparencyChunk() throws {
    let gray = PNGFileBuilder(width: 2, height: 1, colorType: 0, bitDepth: 8, transparency: [0, 7]) {
      x, _, _ in x == 0 ? 7 : 9
    }
    #expect(try PNGDecoder().decode(gray.build()).pixels == [7, 7, 7, 0, 9, 9, 9, 255])

    let rgb = PNGFileBuilder(
      width: 2, height: 1, colorType: 2, bitDepth: 8, transparency: [0, 1, 0, 2, 0, 3]
    ) { x, _, channel in x == 0 ? channel + 1 : 200 }
    #expect(try PNGDecoder().decode(rgb.build()).pixels == [1, 2, 3, 0, 200, 200, 200, 255])

    let palette = PNGFileBuilder(
      width: 3, height: 1, colorType: 3, bitDepth: 8, palette: [(10, 20, 30), (40, 50, 60), (70, 80, 90)],
      transparency: [0, 128]
    ) { x, _, _ in x }
    #expect(
      try PNGDecoder().decode(palette.build()).pixels
        == [10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255])
  }

  @Test("a gAMA chunk is not applied: the raw samples come back, as pixelmatch and Pillow read them")
  func gammaChunkIsIgnored() throws {
    // gamma 1.0 (linear) would turn 128 into about 188 if it were applied to reach sRGB.
    let builder = PNGFileBuilder(width: 2, height: 1, colorType: 2, bitDepth: 8, gamma: 100_000) {
      x, _, _ in x == 0 ? 128 : 64
    }
    let data = builder.build()
    #expect(try PNGDecoder().header(of: data).hasGammaChunk)
    #expect(try PNGDecoder().decode(data).pixels == [128, 128, 128, 255, 64, 64, 64, 255])
  }

  @Test("a file without IEND is accepted, as libpng, browsers and Pillow accept it")
  func missingEnd() throws {
    let builder = PNGFileBuilder(width: 2, height: 2, colorType: 6, bitDepth: 8, includeEnd: false) {
      x, y, c in x + y + c
    }
    #expect(try PNGDecoder().decode(builder.build()).pixelCount == 4)
  }

  @Test("the header is read without decoding")
  func header() throws {
    let data = PNGFileBuilder(
      width: 300, height: 200, colorType: 3, bitDepth: 4, interlaced: true,
      palette: [(0, 0, 0)]
    ) { _, _, _ in 0 }.build()
    let header = try PNGDecoder().header(of: data)
    #expect(header.size == PixelSize(width: 300, height: 200))
    #expect(header.colorType == .palette && header.bitDepth == 4 && header.isInterlaced)
  }
}

@Suite("PNG encoding")
struct PNGEncoderTests {
  @Test("encoded images decode to the same pixels, compact and fast", arguments: [PNGEncoder.Speed.compact, .fast])
  func roundTrip(_ speed: PNGEncoder.Speed) throws {
    var pixels: [UInt8] = []
    for index in 0..<(37 * 23) {
      pixels += [UInt8(index % 256), UInt8(index * 3 % 256), UInt8(index * 7 % 256), UInt8(index * 11 % 256)]
    }
    let image = RGBAImage(width: 37, height: 23, pixels: pixels)
    let data = try PNGEncoder(speed: speed).encode(image)
    #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(try PNGDecoder().decode(data) == image)
  }

  @Test("fixtures survive a decode, encode, decode round trip")
  func fixtureRoundTrip() throws {
    for name in ["pixelmatch/2a.png", "pixelmatch/4a.png", "pixelmatch/5a.png", "odiff/extreme-alpha.png"] {
      let image = try Fixtures.image(name)
      #expect(try PNGDecoder().decode(PNGEncoder(speed: .fast).encode(image)) == image, "\(name)")
    }
  }

  @Test("written files replace the old one whole")
  func writesAtomically() throws {
    try withTemporaryDirectory { folder in
      let path = folder + "/diff.png"
      let small = RGBAImage(width: 2, height: 2, filledWith: .red)
      let large = RGBAImage(width: 64, height: 64, filledWith: .yellow)
      try PNGEncoder().write(small, to: path)
      try PNGEncoder().write(large, to: path)
      #expect(try PNGDecoder().decode(contentsOf: path) == large)
      let leftovers = try FileManagerList.names(in: folder)
      #expect(leftovers == ["diff.png"])
    }
  }

  @Test("an empty raster cannot be encoded")
  func emptyRaster() {
    #expect(throws: PNGError.self) { try PNGEncoder().encode(RGBAImage(width: 0, height: 0, pixels: [])) }
  }
}
