import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the fuzzers (`scripts/fuzz/run.sh`) found, kept as tests: every input that crashed a
/// harness is in `Fixtures/fuzz-regressions/`, named after its harness (`png-…`, `diff-…`,
/// `tree-…`, `xcui-…`), and replayed here with the harness's checks. `run.sh` also seeds the
/// fuzzers with them, so a regression is found again at once.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
  static let folder = "fuzz-regressions"

  static func inputs(_ prefix: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path(folder))) ?? []
    return names.filter { $0.hasPrefix(prefix + "-") }.sorted()
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(folder + "/" + name))))
  }

  @Test("every saved input has a harness")
  func everyInputIsReplayed() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path(Self.folder))
    #expect(!names.isEmpty)
    for name in names {
      #expect(["png-", "diff-", "tree-", "xcui-", "request-"].contains { name.hasPrefix($0) }, "\(name)")
    }
  }

  // MARK: - The saved inputs, through each harness's checks

  @Test("PNG inputs: the fast path and libpng agree, and nothing crashes", arguments: inputs("png"))
  func png(_ name: String) throws {
    let bytes = try Self.bytes(name)
    let fast = PNGDecoder(maxPixels: 1 << 16)
    var libpng = fast
    libpng.usesFastPath = false
    let viaFast = Result { () throws(PNGError) in try fast.decode(bytes, path: name) }
    let viaLibpng = Result { () throws(PNGError) in try libpng.decode(bytes, path: name) }
    switch (viaFast, viaLibpng) {
    case (.success(let a), .success(let b)): #expect(a == b)
    case (.failure(let a), .failure(let b)): #expect(a == b)
    default: Issue.record("one path decodes \(name), the other does not")
    }
  }

  @Test("diff inputs: counting and drawing agree and the tallies add up", arguments: inputs("diff"))
  func diff(_ name: String) throws {
    let input = DiffFuzzInput(try Self.bytes(name))
    let (a, b) = (input.baseline, input.current)
    let diff = PixelDiff(options: input.options)
    let counted = diff.compare(a, b)
    let (drawn, image) = diff.compareDrawingDiff(a, b)
    #expect(counted == drawn)
    #expect(image.width == max(a.width, b.width) && image.height == max(a.height, b.height))
    #expect(
      counted.differentPixels + counted.antialiasedPixels + counted.ignoredPixels
        <= counted.totalPixels)
    #expect(counted.identical == (a == b))
  }

  @Test(
    "tree inputs: refused with the file named, or a tree that encodes and decodes back",
    arguments: inputs("tree"))
  func tree(_ name: String) throws {
    let bytes = try Self.bytes(name)
    guard let tree = try? ElementTree.decode(bytes, path: name) else {
      #expect(throws: ConfigurationError.self) { try ElementTree.decode(bytes, path: name) }
      return
    }
    #expect(try ElementTree.decode(tree.encoded(), path: "again") == tree)
  }

  @Test(
    "XCUITest dump inputs: refused, or a tree the JSON format accepts", arguments: inputs("xcui"))
  func xcui(_ name: String) throws {
    let text = String(decoding: try Self.bytes(name), as: UTF8.self)
    guard let tree = try? XCUITextDump.parse(text, path: name) else { return }
    #expect(try ElementTree.decode(tree.encoded(), path: "again") == tree)
  }

  // MARK: - Each crash, spelled out

  /// `diff-ignore-region-overflow.bin`: an ignore region of `Int.min` everywhere made
  /// `PixelRect.clamped` compute `x + width` and trap (arithmetic overflow). The same trap was
  /// reachable from the command line (`--ignore 9223372036854775807,0,9223372036854775807,1`) and
  /// from a settings file's `ignoreRegions`. Fixed: the far edges saturate.
  @Test("ignore regions at the ends of Int clamp instead of overflowing")
  func ignoreRegionOverflow() throws {
    let input = DiffFuzzInput(try Self.bytes("diff-ignore-region-overflow.bin"))
    #expect(
      input.options.ignoreRegions.contains(PixelRect(x: .min, y: .min, width: .min, height: .min)))

    let cases: [(PixelRect, PixelRect)] = [
      (
        PixelRect(x: .min, y: .min, width: .min, height: .min),
        PixelRect(x: 0, y: 0, width: 0, height: 0)
      ),
      (
        PixelRect(x: .max, y: .max, width: .max, height: .max),
        PixelRect(x: 8, y: 6, width: 0, height: 0)
      ),
      (
        PixelRect(x: 0, y: 0, width: .max, height: .max), PixelRect(x: 0, y: 0, width: 8, height: 6)
      ),
      (
        PixelRect(x: .min, y: 2, width: .max, height: 1), PixelRect(x: 0, y: 2, width: 0, height: 1)
      ),
      (PixelRect(x: 3, y: 1, width: .min, height: 2), PixelRect(x: 3, y: 1, width: 0, height: 2)),
    ]
    for (region, clamped) in cases {
      #expect(region.clamped(toWidth: 8, height: 6) == clamped, "\(region)")
    }

    let baseline = RGBAImage(
      width: 8, height: 6, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
    let current = RGBAImage(width: 8, height: 6, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
    var options = DiffOptions()
    options.ignoreRegions = cases.map(\.0)
    let result = PixelDiff(options: options).compare(baseline, current)
    // (0, 0, max, max) covers the whole image; the others cover nothing.
    #expect(result.ignoredPixels == 48 && result.differentPixels == 0)
    // Different sizes take the overlap path, which clamps the regions again.
    let wider = RGBAImage(width: 9, height: 6, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
    #expect(PixelDiff(options: options).compare(baseline, wider).ignoredPixels == 54)
  }

  /// `png-itxt-2gb-length.png`: a 1953-byte file whose iTXt chunk claims 2,033,975,333 bytes.
  /// libpng allocated and zeroed the claimed length before reading the chunk (2 GB, 3 s per
  /// decode; the fuzzer's 2 GB limit stopped it). Fixed: CPNGCodec has libpng skip the text,
  /// ICC, Exif and other metadata chunks it would buffer whole (none of them changes a pixel).
  @Test("a chunk claiming 2 GB in a 2 KB file fails at once, without allocating the claim")
  func hugeChunkLength() throws {
    let bytes = try Self.bytes("png-itxt-2gb-length.png")
    let before = peakResidentBytes()
    for fastPath in [true, false] {
      var decoder = PNGDecoder()
      decoder.usesFastPath = fastPath
      #expect(
        throws: PNGError(
          kind: .truncated, path: "huge.png", message: "the file ends before the image data does")
      ) {
        try decoder.decode(bytes, path: "huge.png")
      }
    }
    // The peak only grows if something touched the claimed size (other tests stay far below).
    #expect(peakResidentBytes() - before < 1 << 30)
  }

  @Test("the metadata chunks libpng now skips change no pixel")
  func skippedMetadataChunks() throws {
    let plain = PNGFileBuilder(width: 3, height: 2, colorType: 6, bitDepth: 8) { x, y, c in
      x * 50 + y * 20 + c
    }
    var chunks = plain.chunks()
    let metadata: [(String, [UInt8])] = [
      ("tEXt", Array("Comment\u{0}hello".utf8)),
      ("zTXt", Array("Comment\u{0}\u{0}".utf8) + [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
      ("iTXt", Array("XML:com.adobe.xmp\u{0}\u{0}\u{0}\u{0}\u{0}<x/>".utf8)),
      ("eXIf", Array("MM\u{0}*".utf8)),
      ("sPLT", Array("p\u{0}\u{8}".utf8)),
      ("iCCP", Array("icc\u{0}\u{0}".utf8) + [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
    ]
    chunks.insert(contentsOf: metadata, at: 1)
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (type, data) in chunks { file += PNGBytes.chunk(type, data) }
    #expect(try PNGDecoder().decode(file) == PNGDecoder().decode(plain.build()))
  }

  /// `xcui-unclosed-quotes.txt` (a small copy of the pattern): every element line leaves a quote
  /// open. Each one was joined with up to 50 following lines, the joined text parsed again for
  /// every line added: 35 ms a line in a debug build, minutes for a 1 MB dump (fuzz-xcui ran at
  /// 300 executions a second). Fixed: a line without a `'` that could close the quote is not
  /// parsed again, and all joining is capped at 64 times the dump's length. Without the fix
  /// these dumps take minutes, so the time limit fails the test.
  @Test(
    "dumps full of unclosed quotes parse in linear time", .timeLimit(.minutes(1)),
    arguments: [("unclosed", 5000), ("reopened', x", 1000)])
  func unclosedQuotes(_ pattern: String, _ count: Int) throws {
    var text = "Attributes: Application, 0x1, pid: 1, label: 'X'\nElement subtree:\n"
    text += " →Application, 0x1, pid: 1, label: 'X'\n"
    for index in 0..<count {
      text += "    Button, 0x2, {{0.0, \(index % 800).0}, {10.0, 10.0}}, label: '\(pattern) "
      text += String(repeating: "x", count: 200) + "\n"
    }
    let tree = try XCUITextDump.parse(text, path: "quotes.txt")
    // Each line is read on its own, its label running to the end of the line.
    #expect(tree.root.children.count == count)
    #expect(tree.root.children[0].label.hasPrefix(pattern))
  }
}
