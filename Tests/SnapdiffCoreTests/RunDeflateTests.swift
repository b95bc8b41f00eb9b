// The fast writer's deflate encoder for palette images (Sources/CDeflate/CRunDeflate.c),
// driven through `PNGEncoder(speed: .fast)` and read back by libpng (zlib's inflate) and by the
// fast decode path: every kind of block it writes, and the edges of its matches.
import SnapdiffCore
import Testing

@Suite("run-and-row deflate of palette images")
struct RunDeflateTests {
  /// A deterministic generator (xorshift), so that a failure can be replayed.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(bound))
    }
  }

  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let black = RGBAColor(red: 0, green: 0, blue: 0)

  /// `count` distinct opaque colours.
  static func colors(_ count: Int) -> [RGBAColor] {
    (0..<count).map { RGBAColor(red: UInt8($0 % 256), green: UInt8(($0 * 7) % 256), blue: 200) }
  }

  static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> RGBAColor) -> RGBAImage {
    var image = RGBAImage(width: width, height: height, filledWith: .red)
    for y in 0..<height { for x in 0..<width { image[x: x, y: y] = pixel(x, y) } }
    return image
  }

  /// Encodes `original` with the fast writer and checks that it is a palette PNG that libpng and
  /// the fast decode path both read back exactly; returns the file's size.
  @discardableResult
  static func roundTrip(_ original: RGBAImage, _ name: String) throws -> Int {
    let bytes = try PNGEncoder(speed: .fast).encode(original)
    #expect(bytes[25] == 3, "\(name): written as a palette")
    var libpng = PNGDecoder()
    libpng.usesFastPath = false
    #expect(try libpng.decode(bytes, path: name) == original, "\(name): libpng")
    #expect(try PNGDecoder().decode(bytes, path: name) == original, "\(name): fast path")
    return bytes.count
  }

  @Test("noise of 256 colours is written as stored blocks, a little larger than its pixels")
  func incompressible() throws {
    var random = Random(state: 0x9E37_79B9_7F4A_7C15)
    let palette = Self.colors(256)
    // 700 × 400 pixels: two halves, and far more tokens than one block holds. No Huffman code
    // beats 8 bits a byte on them, so every block is stored.
    let noise = Self.image(700, 400) { _, _ in palette[random.next(256)] }
    let size = try Self.roundTrip(noise, "noise")
    #expect(size < 700 * 400 + 401 + 2_000, "stored blocks, not a Huffman code that grew: \(size) bytes")
  }

  @Test("one colour: runs and rows reach back across the halves' cut")
  func oneColour() throws {
    let flat = Self.image(600, 600) { x, y in x == 300 && y == 301 ? .yellow : Self.white }
    let size = try Self.roundTrip(flat, "flat")
    #expect(size < 6_000, "360,000 pixels of one colour: \(size) bytes")
  }

  @Test("skewed colour frequencies need codes limited to 15 bits")
  func skewedFrequencies() throws {
    // Twenty colours on 1, 2, 3, 5, … 10,946 pixels (Fibonacci's numbers; with the block's end
    // symbol, a plain Huffman code for them is a chain 20 bits deep), all literals: one row (no
    // row above), the most frequent colour spread evenly so that no colour repeats four times
    // in a row (no run), the others shuffled between.
    var counts = [1, 2]
    while counts.count < 20 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
    let total = counts.reduce(0, +)
    let most = counts.removeLast()
    var others = counts.enumerated().flatMap { colour, count in [Int](repeating: colour, count: count) }
    var random = Random(state: 42)
    for i in stride(from: others.count - 1, to: 0, by: -1) { others.swapAt(i, random.next(i + 1)) }
    var pixels: [Int] = []
    for i in 0..<total { pixels.append(i * most % total < most ? 19 : others.removeLast()) }
    let palette = Self.colors(20)
    try Self.roundTrip(Self.image(total, 1) { x, _ in palette[pixels[x]] }, "skewed")
  }

  @Test("rows longer than the deflate window are matched by runs only")
  func rowsWiderThanTheWindow() throws {
    // 33,000 pixels a row: the row above is 33,001 bytes back, past deflate's 32,768.
    let wide = Self.image(33_000, 9) { x, y in (x / 5 + y) % 3 == 0 ? Self.black : Self.white }
    try Self.roundTrip(wide, "wide")
  }

  @Test("text-like rows: literals between short runs, rows like the ones above")
  func textLikeRows() throws {
    var random = Random(state: 7)
    let grays: [RGBAColor] = (0..<26).map { (step: Int) -> RGBAColor in
      let level = UInt8(230 + step)
      return RGBAColor(red: level, green: level, blue: level)
    }
    // Lines of "glyphs" (random grays in 6-pixel cells) between flat bands, each glyph row
    // repeated once or not: every match kind and every literal stretch length up to 16.
    var cells: [Int: RGBAColor] = [:]
    let text = Self.image(513, 517) { x, y in
      guard y % 40 < 12, x % 9 < 6 else { return grays[25] }
      let key = (y / 2) * 1_000 + x
      if let cached = cells[key] { return cached }
      let gray = grays[random.next(26)]
      cells[key] = gray
      return gray
    }
    try Self.roundTrip(text, "text")
    for (width, height) in [(1, 1), (2, 1), (17, 1), (18, 2), (19, 3), (3, 40)] {
      var small = Random(state: UInt64(width * 1_000 + height))
      try Self.roundTrip(Self.image(width, height) { _, _ in grays[small.next(3)] }, "\(width)×\(height)")
    }
  }
}
