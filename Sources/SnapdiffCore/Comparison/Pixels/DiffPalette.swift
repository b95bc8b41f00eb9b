import CPNGCodec

/// A diff image drawn straight as palette indexes, in the form a PNG stores them: `height`
/// scanlines of a 0 filter byte and one index a pixel. A diff image has few colours (the
/// baseline's luminance faded toward white: about 26 grays at the default `alpha` 0.1, as many
/// tinted in ignore regions, and a few marker colours), so drawing indexes skips both the RGBA
/// image (4 bytes a pixel written, then read again) and the writer's mapping of it to a palette.
struct PaletteImage {
  let width: Int
  let height: Int
  /// `height × (width + 1)` bytes.
  var lines: [UInt8]
  /// RGBA words in memory order (as `RGBAImage` stores pixels), at most 256.
  var colors: [UInt32]
}

/// The colours of a diff image being drawn, each given an index the first time it is drawn.
struct DiffPalette {
  private(set) var colors: [UInt32] = []
  private var indexes: [UInt32: UInt8] = [:]

  /// The index of `word`, given one if it is new; `nil` when the palette is full.
  mutating func index(of word: UInt32) -> UInt8? {
    if let index = indexes[word] { return index }
    guard colors.count < 256 else { return nil }
    let index = UInt8(colors.count)
    colors.append(word)
    indexes[word] = index
    return index
  }

  /// Draws `baseline`'s faded gray (tinted in ignore regions; transparent black for a diff
  /// mask) with `marks` over it, as palette indexes: the pixels `DiffOutcome.diffImage()` draws.
  /// `nil` when they need more than 256 colours, or the image is empty.
  ///
  /// - Complexity: O(width × height): one read of the baseline and one byte written a pixel; a
  ///   run of one colour (most of a screenshot) costs a compare a pixel.
  static func draw(_ baseline: RGBAImage, marks: DiffMarks, options: DiffOptions) -> PaletteImage? {
    let width = baseline.width
    let height = baseline.height
    guard width > 0, height > 0 else { return nil }
    var palette = DiffPalette()
    let stride = width + 1
    let mask = IgnoreMask(regions: options.ignoreRegions, width: width, height: height)
    var fits = true
    var lines = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, initialized in
      initialized = buffer.count
      guard let out = buffer.baseAddress else { return }
      cpng_advise_huge_pages(out, buffer.count)
      baseline.pixels.withUnsafeBytes { a in
        let words = PixelWords(base: a.baseAddress!, width: width, height: height)
        let kernel = DiffKernel(a: words, b: words, output: nil, options: options, mask: mask)
        fits = kernel.drawUnchangedIndexes(into: out, palette: &palette)
      }
    }
    guard fits else { return nil }
    // The marks over the gray, each looked up once per run of one colour.
    var lastWord: UInt32 = 0
    var lastIndex: UInt8? = nil
    lines.withUnsafeMutableBufferPointer { out in
      marks.forEachMark { index, word in
        guard fits else { return }
        if word != lastWord || lastIndex == nil {
          lastWord = word
          lastIndex = palette.index(of: word)
          guard lastIndex != nil else {
            fits = false
            return
          }
        }
        let (y, x) = index.quotientAndRemainder(dividingBy: width)
        out[y &* stride &+ 1 &+ x] = lastIndex!
      }
    }
    guard fits else { return nil }
    return PaletteImage(width: width, height: height, lines: lines, colors: palette.colors)
  }
}

extension DiffKernel {
  /// What `drawUnchanged` draws, as palette indexes into PNG scanlines (`PaletteImage.lines`);
  /// `false` when the grays need more than 256 colours.
  func drawUnchangedIndexes(into lines: UnsafeMutablePointer<UInt8>, palette: inout DiffPalette) -> Bool {
    let width = a.width
    let stride = width &+ 1
    if diffMask {
      // Only differences are drawn: everything else is transparent black.
      guard let clear = palette.index(of: 0) else { return false }
      for y in 0..<a.height {
        lines[y &* stride] = 0
        (lines + (y &* stride &+ 1)).update(repeating: clear, count: width)
      }
      return true
    }
    // The index of each gray value, plain (0…255) and tinted (256…511), once drawn.
    var grays = [Int16](repeating: -1, count: 512)
    return grays.withUnsafeMutableBufferPointer { grays in
      for y in 0..<a.height {
        let line = lines + y &* stride
        line[0] = 0
        var fits = true
        mask.forEachSegment(row: y, width: width) { start, end, ignored in
          guard fits else { return }
          let tint = ignored ? 256 : 0
          // The last baseline colour and its index: flat screenshots repeat colours.
          var lastPixel = a[y &* width &+ start]
          var lastIndex: UInt8
          if let index = grayIndex(of: lastPixel, tint: tint, grays, &palette) {
            lastIndex = index
          } else {
            fits = false
            return
          }
          let row = y &* width
          for x in start..<end {
            let pixel = a[row &+ x]
            if pixel != lastPixel {
              guard let index = grayIndex(of: pixel, tint: tint, grays, &palette) else {
                fits = false
                return
              }
              lastPixel = pixel
              lastIndex = index
            }
            line[1 &+ x] = lastIndex
          }
        }
        guard fits else { return false }
      }
      return true
    }
  }

  /// The palette index of `pixel`'s faded gray (tinted when `tint` is 256).
  @inline(__always)
  private func grayIndex(
    of pixel: UInt32, tint: Int, _ grays: UnsafeMutableBufferPointer<Int16>, _ palette: inout DiffPalette
  ) -> UInt8? {
    let slot = Int(grayValue(pixel, alpha: alpha)) &+ tint
    if grays[slot] >= 0 { return UInt8(truncatingIfNeeded: grays[slot]) }
    guard let index = palette.index(of: grayWord(pixel, tinted: tint != 0)) else { return nil }
    grays[slot] = Int16(index)
    return index
  }
}
