import Foundation
import SnapdiffCore
import Testing

/// Issue #12, "Hardening II": small inputs that used to cost seconds and gigabytes. Each runs the
/// real `snapdiff` process under GNU time (`/usr/bin/time`, Debian's `time` package) and bounds
/// its wall time and peak memory. The bounds are generous for a debug build on a busy 2-core machine, and far
/// below what the inputs cost before (figures in each test).
@Suite(
  "cheap inputs, bounded costs",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: SnapdiffProcess.timeTool), "needs GNU time: apt-get install time"))
struct CheapInputCostTests {
  static let timeLimit = 2.0
  static let memoryLimit = 200 << 20

  /// 68 bytes claiming 1×200,000,000 RGBA: libpng's row pointers alone were 1.6 GB (1.5 GB
  /// resident, 3–9 s) before a byte of image data was read.
  @Test("a 68-byte header claiming 200 million rows fails at once")
  func claimedRows() throws {
    let file =
      PNGBytes.signature
      + PNGBytes.chunk(
        "IHDR", PNGBytes.ihdr(width: 1, height: 200_000_000, bitDepth: 8, colorType: 6, interlaced: false))
      + PNGBytes.chunk("IDAT", PNGBytes.zlibStored([])) + PNGBytes.chunk("IEND", [])
    #expect(file.count == 68)
    try withTemporaryDirectory { folder in
      let cost = try Self.compare(file, in: folder)
      #expect(cost.output.status == 2)
      #expect(
        cost.output.standardError.contains(
          "claim.png: corrupt PNG: Not enough image data: the header's 1×200000000 image is 1000000000 bytes of rows"),
        "\(cost.output.standardError)")
      Self.expectCheap(cost)
    }
  }

  /// The densest deflate stream of a 14142×14142 1-bit image (24 KB, 1031:1) cut inside its one
  /// IDAT chunk: libpng decoded every row the data held (a few seconds, hundreds of MB touched)
  /// before finding the end of the file; now the cut chunk is found first.
  @Test("a 24 KB bomb cut inside its IDAT chunk fails before decoding a row")
  func cutInsideChunk() throws {
    let stream = Bomb.zlibStream(width: 14142, height: 14142)
    #expect(stream.count < 24_500)
    let whole = Bomb.png(width: 14142, height: 14142, stream: stream, chunkSize: stream.count)
    // Cut in the middle of the only IDAT chunk's data.
    let file = Array(whole.prefix(33 + 8 + stream.count / 2))
    try withTemporaryDirectory { folder in
      let cost = try Self.compare(file, in: folder)
      #expect(cost.output.status == 2)
      #expect(
        cost.output.standardError.contains("claim.png: truncated PNG: the file ends before the image data does"),
        "\(cost.output.standardError)")
      Self.expectCheap(cost)
    }
  }

  /// The same stream in 1 KB IDAT chunks, the file cut after half of them (no IEND): the chunks
  /// there cannot hold the image's 25 MB of rows at deflate's best ratio.
  @Test("a bomb cut between IDAT chunks fails before decoding a row")
  func cutBetweenChunks() throws {
    let stream = Bomb.zlibStream(width: 14142, height: 14142)
    let whole = Bomb.png(width: 14142, height: 14142, stream: stream, chunkSize: 1024, end: false)
    let file = Array(whole.prefix(33 + (12 + 1024) * (stream.count / 1024 / 2)))
    try withTemporaryDirectory { folder in
      let cost = try Self.compare(file, in: folder)
      #expect(cost.output.status == 2)
      #expect(
        cost.output.standardError.contains(
          "claim.png: truncated PNG: the file ends before the image data does: the header's 14142×14142 image is 25017198 bytes of rows"
        ), "\(cost.output.standardError)")
      Self.expectCheap(cost)
    }
  }

  /// Deflate's best ratio is exact, not a guess: the densest stream there is of a 1-bit image
  /// (over 1015:1 with its block header here; 1031:1 at 14142², where zlib -9 gives 1028:1)
  /// still decodes, in one chunk and in many.
  @Test("the densest valid stream still decodes", arguments: [0, 1024])
  func densestStreamDecodes(chunkSize: Int) throws {
    // 7961 rows of 251 bytes: all but the first byte in 258-byte matches, no literal left over.
    let stream = Bomb.zlibStream(width: 2000, height: 7961)
    let png = Bomb.png(width: 2000, height: 7961, stream: stream, chunkSize: chunkSize == 0 ? stream.count : chunkSize)
    #expect(Double(7961 * (250 + 1)) / Double(stream.count) > 1015)
    let image = try PNGDecoder().decode(png, path: "dense.png")
    #expect(image.width == 2000 && image.height == 7961)
    #expect(image.pixels.prefix(8) == [0, 0, 0, 255, 0, 0, 0, 255])
    // The same stream 2 % shorter: no longer enough data at deflate's best, refused before decoding.
    let short = Bomb.png(
      width: 2000, height: 7961, stream: Array(stream.prefix(stream.count * 98 / 100)), chunkSize: stream.count)
    #expect(throws: PNGError.self) { try PNGDecoder().decode(short, path: "short.png") }
  }

  /// A 69 KB glob cost `approve --dry-run` 16 s of CPU. Globs are now at most 1024 bytes (a
  /// key's longest) and matched in one pass over the key, whatever the pattern.
  @Test("a glob longer than any key is refused; the costliest valid one matches long keys at once")
  func globs() throws {
    try withWorkspace { workspace in
      // Keys near the longest (1024 bytes), of one letter: every `*` has the most ways to match.
      let component = String(repeating: "a", count: 240)
      let keys = (0..<6).map { index in
        [component, component, component, component].joined(separator: "/") + "/"
          + String(repeating: "a", count: 15 + index)
      }
      for key in keys { try workspace.writeFrame(key, Workspace.screen([])) }
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)

      let long = String(repeating: "*a", count: 34_500)
      let refused = try SnapdiffProcess.measured(["approve", "--dry-run", long], in: workspace.root)
      #expect(refused.output.status == 2)
      #expect(
        refused.output.standardError.hasPrefix(
          "snapdiff: error: the glob '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a…' is 69000 bytes; a glob, like a key, is at most 1024"
        ),
        "\(refused.output.standardError.prefix(300))")
      Self.expectCheap(refused)
      // The worst cases for backtracking matchers, at the length limit: no match, then a match.
      for (pattern, matches) in [
        ("*" + String(repeating: "a", count: 1021) + "b", false), (String(repeating: "*a", count: 511) + "*b", false),
        (String(repeating: "a*", count: 511) + "?", true),
      ] {
        let cost = try SnapdiffProcess.measured(["approve", "--dry-run", pattern], in: workspace.root)
        #expect(cost.output.status == (matches ? 0 : 2), "\(cost.output.standardError.prefix(200))")
        if matches { #expect(cost.output.standardOutput.hasPrefix("would approve 6 snapshots")) }
        Self.expectCheap(cost)
      }
    }
  }

  // MARK: - Helpers

  static func expectCheap(_ cost: SnapdiffProcess.Cost, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(cost.seconds < timeLimit, "took \(cost.seconds) s", sourceLocation: sourceLocation)
    #expect(
      cost.peakBytes < memoryLimit, "peak memory \(cost.peakBytes >> 20) MB", sourceLocation: sourceLocation)
  }

  /// `snapdiff compare claim.png other.png` (an ordinary 60×40 PNG as the other), measured.
  static func compare(_ file: [UInt8], in folder: String) throws -> SnapdiffProcess.Cost {
    let claim = folder + "/claim.png"
    let other = folder + "/other.png"
    try Data(file).write(to: URL(fileURLWithPath: claim))
    try PNGEncoder().write(Workspace.screen([]), to: other)
    return try SnapdiffProcess.measured(["compare", claim, other])
  }
}

/// The densest deflate stream there is for an all-zero image: one dynamic block whose literal/
/// length code gives 1 bit to length 258 (symbol 285) and 2 bits to the literal 0 and to the
/// end of the block, and whose distance code has one 1-bit code (distance 1). Every 258 bytes
/// cost 2 bits: 1032 bytes a byte, the most deflate can do.
enum Bomb {
  /// A zlib stream of the rows of a `width`×`height` 1-bit gray image, all zero.
  static func zlibStream(width: Int, height: Int) -> [UInt8] {
    let total = height * ((width + 7) / 8 + 1)
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(2, count: 2)  // BTYPE: dynamic
    bits.write(286 - 257, count: 5)  // HLIT: codes 0…285
    bits.write(0, count: 5)  // HDIST: one distance code
    // Code-length code lengths, in RFC 1951's order (16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4,
    // 12, 3, 13, 2, 14, 1): 18 → 1 bit, 2 → 2 bits, 1 → 2 bits; the rest unused.
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
    let lengths: [Int: Int] = [18: 1, 2: 2, 1: 2]
    bits.write(order.count - 4, count: 4)  // HCLEN
    for symbol in order { bits.write(lengths[symbol] ?? 0, count: 3) }
    // Canonical codes: 18 → 0; 1 → 10; 2 → 11 (Huffman codes go most significant bit first).
    func lengthSymbol(_ symbol: Int) {
      switch symbol {
      case 18: bits.writeCode(0b0, count: 1)
      case 1: bits.writeCode(0b10, count: 2)
      default: bits.writeCode(0b11, count: 2)
      }
    }
    func zeros(_ count: Int) {
      var left = count
      while left > 0 {
        let run = min(138, left)
        precondition(run >= 11)
        lengthSymbol(18)
        bits.write(run - 11, count: 7)
        left -= run
      }
    }
    // Literal/length lengths: 0 → 2, 1…255 unused, 256 → 2, 257…284 unused, 285 → 1; distance 0 → 1.
    lengthSymbol(2)
    zeros(255)
    lengthSymbol(2)
    zeros(28)
    lengthSymbol(1)
    lengthSymbol(1)
    // Canonical literal/length codes: 285 → 0; 0 → 10; 256 → 11. Distance 0 → 0.
    bits.writeCode(0b10, count: 2)  // the first zero, a literal
    var left = total - 1
    while left >= 258 {
      bits.writeCode(0, count: 1)  // length 258
      bits.writeCode(0, count: 1)  // distance 1
      left -= 258
    }
    for _ in 0..<left { bits.writeCode(0b10, count: 2) }
    bits.writeCode(0b11, count: 2)  // end of block
    let adler = UInt32(total % 65521) << 16 | 1
    return [0x78, 0xDA] + bits.bytes() + PNGBytes.bigEndian(adler)
  }

  /// A PNG of that image with `stream` in IDAT chunks of `chunkSize` bytes.
  static func png(width: Int, height: Int, stream: [UInt8], chunkSize: Int, end: Bool = true) -> [UInt8] {
    var file =
      PNGBytes.signature
      + PNGBytes.chunk(
        "IHDR", PNGBytes.ihdr(width: width, height: height, bitDepth: 1, colorType: 0, interlaced: false))
    var offset = 0
    while offset < stream.count {
      let count = min(chunkSize, stream.count - offset)
      file += PNGBytes.chunk("IDAT", Array(stream[offset..<offset + count]))
      offset += count
    }
    return end ? file + PNGBytes.chunk("IEND", []) : file
  }

  struct BitWriter {
    private var buffer: [UInt8] = []
    private var current: UInt32 = 0
    private var used = 0

    /// `count` bits of `value`, least significant first (deflate's header fields, extra bits).
    mutating func write(_ value: Int, count: Int) {
      for index in 0..<count { push(UInt32(value >> index) & 1) }
    }

    /// A Huffman code of `count` bits, most significant first.
    mutating func writeCode(_ code: Int, count: Int) {
      for index in stride(from: count - 1, through: 0, by: -1) { push(UInt32(code >> index) & 1) }
    }

    private mutating func push(_ bit: UInt32) {
      current |= bit << used
      used += 1
      if used == 8 {
        buffer.append(UInt8(current))
        current = 0
        used = 0
      }
    }

    func bytes() -> [UInt8] { used == 0 ? buffer : buffer + [UInt8(current)] }
  }
}
