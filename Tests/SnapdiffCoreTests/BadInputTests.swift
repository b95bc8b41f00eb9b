import Foundation
import SnapdiffCore
import Testing

/// Damaged and hostile input: each is a clear error naming the file and the problem.
@Suite("bad input")
struct BadInputTests {
  /// A real 64×48 RGBA image with varied pixels (so its IDAT is large enough to damage).
  static let goodPNG: [UInt8] = PNGFileBuilder(width: 64, height: 48, colorType: 6, bitDepth: 8) {
    x, y, channel in (x * 31 + y * 17 + channel * 59) % 256
  }.build()

  /// `goodPNG` with one byte of its image data flipped: its CRC and Adler-32 no longer match.
  static var damagedPNG: [UInt8] {
    var data = goodPNG
    data[idatDataOffset + 100] ^= 0xFF
    return data
  }

  /// The byte offset of the first IDAT chunk's data.
  static var idatDataOffset: Int {
    var offset = 8
    while true {
      let length =
        Int(goodPNG[offset]) << 24 | Int(goodPNG[offset + 1]) << 16
        | Int(goodPNG[offset + 2]) << 8 | Int(goodPNG[offset + 3])
      let type = String(decoding: goodPNG[offset + 4..<offset + 8], as: UTF8.self)
      if type == "IDAT" { return offset + 8 }
      offset += 12 + length
    }
  }

  func decodeError(_ data: [UInt8], path: String = "shot.png", decoder: PNGDecoder = PNGDecoder())
    -> PNGError?
  {
    do {
      _ = try decoder.decode(data, path: path)
      return nil
    } catch {
      return error
    }
  }

  @Test("the good file decodes")
  func control() throws {
    #expect(try PNGDecoder().decode(Self.goodPNG).pixelCount == 64 * 48)
  }

  @Test("a zero-length file")
  func empty() {
    let error = decodeError([])
    #expect(error?.kind == .notPNG)
    #expect(error?.description == "shot.png: not a PNG file: the file is empty (0 bytes)")
  }

  @Test("not a PNG")
  func notPNG() {
    let error = decodeError(Array("GIF89a, certainly not a PNG file at all".utf8))
    #expect(error?.kind == .notPNG)
    #expect(error?.description.hasPrefix("shot.png: not a PNG file") == true)
  }

  @Test(
    "truncated in the signature, the header, the IDAT and before IEND",
    arguments: [4, 20, 40, -30, -20])
  func truncated(_ cut: Int) {
    let length = cut > 0 ? cut : Self.goodPNG.count + cut
    let error = decodeError(Array(Self.goodPNG.prefix(length)))
    #expect(error?.kind == .truncated, "cut at \(length): \(String(describing: error))")
    #expect(error?.description.hasPrefix("shot.png: truncated PNG") == true)
  }

  @Test("a flipped byte in IDAT")
  func flippedByte() throws {
    let error = decodeError(Self.damagedPNG)
    #expect(error?.kind == .corrupt)
    // zlib's Adler-32 notices before the chunk's CRC is read.
    #expect(error?.description == "shot.png: corrupt PNG: IDAT: incorrect data check")

    // The same in a real deflate-compressed file.
    var real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("pixelmatch/1a.png"))))
    real[real.count / 2] ^= 0x55
    #expect(decodeError(real)?.kind == .corrupt, "\(String(describing: decodeError(real)))")
  }

  @Test("a bad CRC on the header chunk")
  func badHeaderCRC() {
    var data = Self.goodPNG
    data[8 + 8 + 13] ^= 0x01  // the IHDR chunk's CRC
    let error = decodeError(data)
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("CRC") == true, "\(String(describing: error))")
  }

  @Test("a damaged zlib stream with a valid CRC")
  func badZlibStream() {
    var builder = PNGFileBuilder(width: 8, height: 8, colorType: 2, bitDepth: 8) { _, _, _ in 1 }
    var chunks = builder.chunks()
    let index = chunks.firstIndex { $0.0 == "IDAT" }!
    chunks[index].1[2] = 0x07  // block type 3: reserved, invalid
    builder.includeEnd = true
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in chunks { file += PNGBytes.chunk(type, data) }
    let error = decodeError(file)
    #expect(error?.kind == .corrupt, "\(String(describing: error))")
  }

  @Test("width or height 0 in the header", arguments: [(0, 5), (5, 0)])
  func zeroDimension(_ size: (Int, Int)) {
    let data = PNGFileBuilder(width: size.0, height: size.1, colorType: 6, bitDepth: 8) { _, _, _ in 0 }
      .build()
    let error = decodeError(data)
    #expect(error?.kind == .corrupt || error?.kind == .emptyImage, "\(String(describing: error))")
  }

  @Test("over the pixel limit: refused from the header, before the image is allocated")
  func overLimit() {
    // A decompression bomb: a tiny file declaring 100000 × 100000 pixels (40 GB decoded).
    var chunks = PNGFileBuilder(width: 1, height: 1, colorType: 6, bitDepth: 8) { _, _, _ in 0 }.chunks()
    chunks[0].1.replaceSubrange(0..<8, with: PNGBytes.bigEndian(100_000) + PNGBytes.bigEndian(100_000))
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in chunks { file += PNGBytes.chunk(type, data) }
    let error = decodeError(file)
    #expect(error?.kind == .tooLarge)
    #expect(
      error?.description
        == "shot.png: image too large: 100000×100000 is 10000 megapixels, over the limit of 200")
  }

  @Test("the limit is configurable")
  func configurableLimit() throws {
    let small = PNGDecoder(maxPixels: 64 * 48 - 1)
    #expect(decodeError(Self.goodPNG, decoder: small)?.kind == .tooLarge)
    #expect(try PNGDecoder(maxPixels: 64 * 48).decode(Self.goodPNG).pixelCount == 64 * 48)
  }

  @Test("a missing file, a directory")
  func fileErrors() throws {
    #expect(throws: FileError(path: "/no/such/file.png", message: "cannot open: no such file or directory")) {
      try PNGDecoder().decode(contentsOf: "/no/such/file.png")
    }
    try withTemporaryDirectory { folder in
      #expect(throws: FileError(path: folder, message: "is a directory, not a file")) {
        try PNGDecoder().decode(contentsOf: folder)
      }
    }
  }

  @Test("a failed write leaves the old file in place")
  func failedWriteKeepsOldFile() throws {
    try withTemporaryDirectory { folder in
      let path = folder + "/keep.png"
      try PNGEncoder().write(RGBAImage(width: 1, height: 1, filledWith: .red), to: path)
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(throws: FileError.self) {
        try PNGEncoder().write(RGBAImage(width: 1, height: 1, filledWith: .yellow), to: folder + "/missing/keep.png")
      }
      #expect(throws: PNGError.self) {
        try PNGEncoder().write(RGBAImage(width: 0, height: 3, pixels: []), to: path)
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
  }
}
