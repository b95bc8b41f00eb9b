// Suggested: Tests/SnapdiffCoreTests/PerformancePathTests.swift
// Pins what the performance work must not change: the fast PNG decode path gives libpng's
// pixels and libpng's errors, the fast diff-image writer round-trips exactly in every format it
// picks, and a byte-identical pair is answered from the header alone.
import Foundation
import SnapdiffCore
import Testing

@Suite("performance paths")
struct PerformancePathTests {
  // MARK: the fast decode path against libpng

  /// A PNG with `builder`'s chunks but its image data: `idats` as the IDAT chunks, in order.
  static func file(_ builder: PNGFileBuilder, idats: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in builder.chunks() where type != "IDAT" && type != "IEND" {
      bytes += PNGBytes.chunk(type, data)
    }
    for idat in idats { bytes += PNGBytes.chunk("IDAT", idat) }
    return bytes + PNGBytes.chunk("IEND", [])
  }

  /// Every fixture PNG decodes to the same pixels (or the same error) with and without it.
  @Test("fast decode path equals libpng on every fixture")
  func fastPathEqualsLibpng() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: Fixtures.directory)
      .filter { $0.hasSuffix(".png") }
    #expect(files.count > 20)
    var slow = PNGDecoder()
    slow.usesFastPath = false
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(file))))
      let fast = Result { try PNGDecoder().decode(bytes, path: file) }
      let reference = Result { try slow.decode(bytes, path: file) }
      switch (fast, reference) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(file)")
      case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(file)")
      default: Issue.record("\(file): one path failed, the other did not")
      }
    }
  }

  /// Every filter type, RGB and RGBA, odd widths, IDAT chunks of 1 byte, and damage anywhere:
  /// the two paths agree byte for byte, error for error.
  @Test("fast decode path equals libpng on filtered, split and damaged files", arguments: [2, 6])
  func fastPathOnBuiltFiles(_ colorType: UInt8) throws {
    var slow = PNGDecoder()
    slow.usesFastPath = false
    for (width, height) in [(1, 1), (3, 2), (17, 9), (64, 48)] {
      let good = PNGFileBuilder(width: width, height: height, colorType: colorType, bitDepth: 8) {
        x, y, c in (x * 31 + y * 17 + c * 59) % 256
      }.build()
      var variants = [good]
      for offset in stride(from: 8, to: good.count, by: max(1, good.count / 40)) {
        var damaged = good
        damaged[offset] ^= 0x5A
        variants.append(damaged)
        variants.append(Array(good.prefix(offset)))
      }
      for data in variants {
        let fast = Result { try PNGDecoder().decode(data, path: "x.png") }
        let reference = Result { try slow.decode(data, path: "x.png") }
        switch (fast, reference) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
        default: Issue.record("\(width)×\(height): one path failed, the other did not")
        }
      }
    }
  }

  /// Rows of every filter type (None, Sub, Up, Average, Paeth, in turn and at random) over
  /// random bytes, so each predictor meets every kind of neighbour (Paeth's ties included), in
  /// images wide and tall enough for the fast path's 16-byte loads and its in-place unfiltering
  /// (the inflated rows written into the end of the output): the same pixels as libpng.
  @Test("fast decode path equals libpng on rows of every filter over random bytes", arguments: [2, 6])
  func fastPathOnEveryFilter(_ colorType: UInt8) throws {
    var slow = PNGDecoder()
    slow.usesFastPath = false
    var random = SystemRandomNumberGenerator()
    let channels = colorType == 2 ? 3 : 4
    for (width, height) in [(1, 7), (5, 11), (33, 40), (301, 97)] {
      let builder = PNGFileBuilder(width: width, height: height, colorType: colorType, bitDepth: 8) { _, _, _ in 0 }
      var rows: [UInt8] = []
      for y in 0..<height {
        rows.append(y < 10 ? UInt8(y % 5) : UInt8.random(in: 0...4, using: &random))
        // Mostly small values, as real filtered rows are; some rows wholly random.
        let wild = y % 3 == 0
        for _ in 0..<(width * channels) {
          rows.append(wild ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 0...3, using: &random) &- 1)
        }
      }
      let bytes = Self.file(builder, idats: [PNGBytes.zlibStored(rows)])
      let fast = try PNGDecoder().decode(bytes, path: "x.png")
      let reference = try slow.decode(bytes, path: "x.png")
      #expect(fast == reference, "\(width)×\(height), colour type \(colorType)")
    }
  }

  /// Runs of Paeth rows (unfiltered two at a time, the second two pixels behind the first) and
  /// of RGB None, Sub and Up rows (four pixels at a time), odd heights so that a pair meets the
  /// last row, widths around the four-pixel steps: the same pixels as libpng.
  @Test(
    "fast decode path equals libpng on runs of Paeth rows and on RGB rows four pixels at a time", arguments: [2, 6])
  func fastPathOnRowRuns(_ colorType: UInt8) throws {
    var slow = PNGDecoder()
    slow.usesFastPath = false
    var random = SystemRandomNumberGenerator()
    let channels = colorType == 2 ? 3 : 4
    for (width, height) in [(1, 3), (2, 5), (3, 4), (4, 7), (5, 9), (7, 3), (33, 21), (301, 45)] {
      let builder = PNGFileBuilder(width: width, height: height, colorType: colorType, bitDepth: 8) { _, _, _ in 0 }
      var rows: [UInt8] = []
      for y in 0..<height {
        // Paeth runs of 2, 3, 1 and 4 rows between None, Sub and Up rows.
        let filters: [UInt8] = [4, 4, 2, 4, 4, 4, 0, 4, 1, 4, 4, 4, 4, 2, 1, 0]
        rows.append(filters[y % filters.count])
        for _ in 0..<(width * channels) {
          rows.append(
            y % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 0...3, using: &random) &- 1)
        }
      }
      let bytes = Self.file(builder, idats: [PNGBytes.zlibStored(rows)])
      let fast = try PNGDecoder().decode(bytes, path: "x.png")
      let reference = try slow.decode(bytes, path: "x.png")
      #expect(fast == reference, "\(width)×\(height), colour type \(colorType)")
    }
  }

  /// The zlib stream's edges, where the whole-stream inflater (libdeflate) and the streaming one
  /// (zlib) must both hand over to libpng or agree with it: more image data than the image,
  /// less, bytes after the Adler-32, the stream split across chunks anywhere (the trailer too),
  /// and IDAT chunks after the stream's end.
  @Test("fast decode path equals libpng at the zlib stream's edges", arguments: [2, 6])
  func fastPathAtStreamEdges(_ colorType: UInt8) throws {
    var slow = PNGDecoder()
    slow.usesFastPath = false
    let builder = PNGFileBuilder(width: 7, height: 5, colorType: colorType, bitDepth: 8) { x, y, c in
      (x * 13 + y * 7 + c) % 256
    }
    let rows = builder.scanlines()
    let rowBytes = rows.count / 5
    func file(_ idats: [[UInt8]]) -> [UInt8] { Self.file(builder, idats: idats) }
    let stream = PNGBytes.zlibStored(rows)
    var cases: [(String, [UInt8])] = [
      ("whole", file([stream])),
      ("one row too many", file([PNGBytes.zlibStored(rows + rows.prefix(rowBytes))])),
      ("one byte too few", file([PNGBytes.zlibStored(Array(rows.dropLast()))])),
      ("bytes after the trailer", file([stream + [1, 2, 3]])),
      ("an empty IDAT after the stream", file([stream, []])),
      ("an IDAT of garbage after the stream", file([stream, [9, 9, 9, 9]])),
      ("no trailer", file([Array(stream.dropLast(4))])),
    ]
    for cut in [1, 2, 3, stream.count / 2, stream.count - 4, stream.count - 2, stream.count - 1] {
      cases.append(("split at \(cut)", file([Array(stream.prefix(cut)), Array(stream.dropFirst(cut))])))
    }
    cases.append(
      ("split in three", file([Array(stream.prefix(5)), Array(stream[5..<stream.count - 3]), Array(stream.suffix(3))])))
    for (name, data) in cases {
      let fast = Result { try PNGDecoder().decode(data, path: "x.png") }
      let reference = Result { try slow.decode(data, path: "x.png") }
      switch (fast, reference) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(name)")
      case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(name)")
      default: Issue.record("\(name): one path failed, the other did not (fast: \(fast), libpng: \(reference))")
      }
    }
    #expect((try? PNGDecoder().decode(file([stream]), path: "x.png")) != nil)
  }

  // MARK: the fast writer

  /// Palette (gray and markers), palette with tRNS (a mask), RGB (over 256 opaque colours),
  /// RGBA (over 256 colours, some transparent), tiny and tall images, and images large enough
  /// to be written in two halves where the halves' colours differ.
  @Test("the fast writer round-trips exactly in every format")
  func fastWriterRoundTrips() throws {
    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> RGBAColor) -> RGBAImage {
      var image = RGBAImage(width: width, height: height, filledWith: .red)
      for y in 0..<height { for x in 0..<width { image[x: x, y: y] = pixel(x, y) } }
      return image
    }
    let cases: [(String, RGBAImage)] = [
      ("1×1", image(1, 1) { _, _ in .red }),
      (
        "gray palette",
        image(300, 200) { x, y in
          RGBAColor(red: UInt8(230 + (x + y) % 26), green: UInt8(230 + (x + y) % 26), blue: UInt8(230 + (x + y) % 26))
        }
      ),
      ("mask", image(300, 200) { x, _ in x % 7 == 0 ? .red : RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }),
      ("rgb", image(300, 200) { x, y in RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: 9) }),
      ("rgba", image(300, 200) { x, y in RGBAColor(red: UInt8(x % 256), green: 1, blue: 2, alpha: UInt8(y % 256)) }),
      ("tall", image(1, 3000) { _, y in y % 2 == 0 ? .red : .yellow }),
      // Two halves (over 2^18 pixels): the bottom half's colours are new to the top half's
      // palette, so its indexes are renumbered.
      (
        "halves",
        image(600, 600) { x, y in
          y < 300
            ? RGBAColor(red: UInt8(x % 100), green: 0, blue: 0) : RGBAColor(red: 0, green: UInt8(x % 120), blue: 0)
        }
      ),
      // Each half fits in 256 colours, both together do not: RGB.
      (
        "halves over 256",
        image(600, 600) { x, y in
          y < 300
            ? RGBAColor(red: UInt8(x % 200), green: 0, blue: 0) : RGBAColor(red: 0, green: UInt8(x % 200), blue: 0)
        }
      ),
    ]
    for (name, original) in cases {
      let bytes = try PNGEncoder(speed: .fast).encode(original)
      #expect(try PNGDecoder().decode(bytes) == original, "\(name)")
    }
  }

  // MARK: byte-identical files

  /// Byte-identical files: identical without decoding, so even a damaged IDAT passes, with or
  /// without a diff image; but the signature, header and size limit are still checked.
  @Test("byte-identical files are compared from the header")
  func byteIdenticalFiles() throws {
    try withTemporaryDirectory { folder in
      let good = BadInputTests.goodPNG
      let damaged = BadInputTests.damagedPNG
      let a = folder + "/a.png"
      let b = folder + "/b.png"
      FileManager.default.createFile(atPath: a, contents: Data(damaged))
      FileManager.default.createFile(atPath: b, contents: Data(damaged))
      let outcome = try FileComparison().compare(baseline: a, current: b)
      #expect(outcome.result.identical && outcome.result.passed)
      #expect(outcome.result.totalPixels == 64 * 48)

      // Asked for a diff image, the verdict agrees (identical, passed) and the diff image is
      // drawn without the damaged baseline as its backdrop.
      let drawn = try FileComparison().compare(baseline: a, current: b, diffPath: folder + "/d.png")
      #expect(drawn.result.identical && drawn.result.passed && drawn.result.differentPixels == 0)
      let diffImage = try PNGDecoder().decode(contentsOf: folder + "/d.png")
      #expect(diffImage.width == 64 && diffImage.height == 48)
      // Over the size limit: refused from the header.
      #expect(throws: PNGError.self) {
        try FileComparison(decoder: PNGDecoder(maxPixels: 100)).compare(baseline: a, current: b)
      }
      // Not a PNG at all.
      let text = Data("same bytes, not a PNG".utf8)
      FileManager.default.createFile(atPath: a, contents: text)
      FileManager.default.createFile(atPath: b, contents: text)
      #expect(throws: PNGError.self) { try FileComparison().compare(baseline: a, current: b) }
    }
  }

  /// Same size, different bytes: decoded and compared as usual; and the diff image of a
  /// byte-identical pair equals the one drawn from decoded pixels.
  @Test("same-size files and identical diff images")
  func sameSizeFiles() throws {
    try withTemporaryDirectory { folder in
      let a = Fixtures.path("pixelmatch/1a.png")
      let copy = folder + "/copy.png"
      try FileManager.default.copyItem(atPath: a, toPath: copy)
      let options = DiffOptions(ignoreRegions: [PixelRect(x: 10, y: 10, width: 50, height: 20)])
      let diff = folder + "/d.png"
      let outcome = try FileComparison(options: options).compare(baseline: a, current: copy, diffPath: diff)
      let image = try Fixtures.image("pixelmatch/1a.png")
      let expected = PixelDiff(options: options).compareDrawingDiff(image, image)
      #expect(outcome.result == expected.result)
      #expect(try PNGDecoder().decode(contentsOf: diff) == expected.diffImage)

      var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: a)))
      bytes[bytes.count - 20] ^= 1  // inside IEND's neighbourhood: same size, other bytes
      #expect(FileIO.contentEquals(a, bytes) == false)
      #expect(FileIO.contentEquals(a, [UInt8](try Data(contentsOf: URL(fileURLWithPath: a)))))
    }
  }
}
