#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compares two RGBA rasters the way pixelmatch v6 does (YIQ colour distance, anti-aliasing
/// detection, semi-transparent pixels blended over white), with ignore regions, tolerances,
/// grouped regions, and images of different sizes.
///
/// ```swift
/// let diff = PixelDiff(options: DiffOptions(threshold: 0.05))
/// let (result, image) = diff.compareDrawingDiff(baseline, current)
/// if !result.passed { try PNGEncoder(speed: .fast).write(image, to: "diff.png") }
/// ```
///
/// The diff image shows the baseline as faded gray, differences in `diffColor` (or
/// `diffColorAlt` where the current image is darker), anti-aliasing in `aaColor`, ignore regions
/// tinted blue with their suppressed differences in `ignoredColor`, and, for images of different
/// sizes, everything outside their overlap in `diffColor`. With `diffMask`, only the coloured
/// pixels are drawn, on transparent black.
public struct PixelDiff: Sendable {
  public var options: DiffOptions

  public init(options: DiffOptions = DiffOptions()) {
    self.options = options
  }

  /// Counts the differences without drawing anything.
  ///
  /// - Complexity: O(width × height); equal pixels cost one 32-bit compare, a byte-identical
  ///   pair one `memcmp`.
  public func compare(_ baseline: RGBAImage, _ current: RGBAImage) -> DiffResult {
    run(baseline, current, drawing: false).result
  }

  /// Counts the differences and draws the diff image, `max(width) × max(height)` pixels.
  ///
  /// - Complexity: O(width × height).
  public func compareDrawingDiff(_ baseline: RGBAImage, _ current: RGBAImage)
    -> (result: DiffResult, diffImage: RGBAImage)
  {
    let (result, image) = run(baseline, current, drawing: true)
    return (result, image!)
  }

  private func run(_ baseline: RGBAImage, _ current: RGBAImage, drawing: Bool)
    -> (result: DiffResult, image: RGBAImage?)
  {
    let width = max(baseline.width, current.width)
    let height = max(baseline.height, current.height)
    let mask = IgnoreMask(regions: options.ignoreRegions, width: width, height: height)
    var counts = DiffCounts()
    var regions = DiffRegions(width: width, height: height)
    var output = drawing ? [UInt8](repeating: 0, count: width * height * 4) : []

    if baseline.size == current.size && baseline.pixelCount == 0 {
      counts.identical = true
    } else if baseline.size == current.size {
      let identical = baseline.pixels.withUnsafeBytes { a in
        current.pixels.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
      }
      counts.identical = identical
      baseline.pixels.withUnsafeBytes { a in
        current.pixels.withUnsafeBytes { b in
          output.withUnsafeMutableBytes { out in
            var kernel = DiffKernel(
              a: PixelWords(base: a.baseAddress!, width: width, height: height),
              b: PixelWords(base: b.baseAddress!, width: width, height: height),
              output: drawing ? out.baseAddress : nil, options: options, mask: mask)
            if identical {
              kernel.drawUnchanged()
            } else {
              kernel.scan(&counts, &regions)
            }
          }
        }
      }
    } else {
      compareSizeMismatch(
        baseline, current, width: width, height: height, mask: mask, drawing: drawing,
        output: &output, counts: &counts, regions: &regions)
    }

    let total = width * height
    let different = counts.different
    let ratio = total == 0 ? 0 : Double(different) / Double(total)
    let result = DiffResult(
      differentPixels: different, antialiasedPixels: counts.antialiased,
      ignoredPixels: counts.ignored, totalPixels: total, identical: counts.identical,
      passed: different <= options.maxDiffPixels && ratio <= options.maxDiffRatio,
      regions: different == 0 ? [] : regions.boxes(), baselineSize: baseline.size,
      currentSize: current.size,
      changeHash: different == 0
        ? nil : counts.changeHash.finish(baseline: baseline.size, current: current.size))
    let image = drawing ? RGBAImage(width: width, height: height, pixels: output) : nil
    return (result, image)
  }

  /// Images of different sizes: compare their top-left overlap as usual; every pixel outside
  /// it differs (unless ignored).
  private func compareSizeMismatch(
    _ baseline: RGBAImage, _ current: RGBAImage, width: Int, height: Int, mask: IgnoreMask,
    drawing: Bool, output: inout [UInt8], counts: inout DiffCounts, regions: inout DiffRegions
  ) {
    let overlap = PixelRect(
      x: 0, y: 0, width: min(baseline.width, current.width),
      height: min(baseline.height, current.height))
    if !overlap.isEmpty {
      var overlapOptions = options
      overlapOptions.ignoreRegions = options.ignoreRegions.map {
        $0.clamped(toWidth: overlap.width, height: overlap.height)
      }
      let inner = PixelDiff(options: overlapOptions).run(
        baseline.cropped(to: overlap), current.cropped(to: overlap), drawing: drawing)
      counts.different = inner.result.differentPixels
      counts.antialiased = inner.result.antialiasedPixels
      counts.ignored = inner.result.ignoredPixels
      counts.changeHash.add(innerHash: inner.result.changeHash)
      for box in inner.result.regions { regions.add(box) }
      if let innerImage = inner.image {
        let rowBytes = overlap.width * 4
        for y in 0..<overlap.height {
          output.replaceSubrange(
            y * width * 4..<y * width * 4 + rowBytes,
            with: innerImage.pixels[y * rowBytes..<(y + 1) * rowBytes])
        }
      }
    }
    let diffWord = options.diffColor.word.littleEndian
    let ignoredWord = options.ignoredColor.word.littleEndian
    output.withUnsafeMutableBytes { out in
      for y in 0..<height {
        let outsideStart = y < overlap.height ? overlap.width : 0
        mask.forEachSegment(row: y, width: width) { start, end, ignored in
          let from = max(start, outsideStart)
          guard from < end else { return }
          if ignored {
            counts.ignored += end - from
          } else {
            counts.different += end - from
            counts.changeHash.add(outsideSpan: y * width + from, count: end - from)
            regions.add(PixelRect(x: from, y: y, width: end - from, height: 1))
          }
          guard drawing else { return }
          for x in from..<end {
            out.storeBytes(
              of: ignored ? ignoredWord : diffWord, toByteOffset: (y * width + x) * 4, as: UInt32.self)
          }
        }
      }
    }
  }
}

/// The tallies of one comparison.
struct DiffCounts {
  var different = 0
  var antialiased = 0
  var ignored = 0
  var identical = false
  /// FNV-1a over every counted pixel's position and both colours.
  var changeHash = ChangeHasher()
}

/// The per-pixel loop over two same-size rasters, with pointers taken once per image.
struct DiffKernel {
  let a: PixelWords
  let b: PixelWords
  let output: UnsafeMutableRawPointer?
  let mask: IgnoreMask
  let maxDelta: Double
  let includeAA: Bool
  let diffMask: Bool
  let alpha: Double
  let aaWord: UInt32
  let diffWord: UInt32
  let diffAltWord: UInt32
  let ignoredWord: UInt32
  /// The last unchanged pixel drawn and its gray, since flat screenshots repeat colours.
  private var lastGrayInput: UInt32 = 0
  private var lastGrayOutput: UInt32 = 0
  private var lastGrayTinted = false
  private var hasLastGray = false

  init(
    a: PixelWords, b: PixelWords, output: UnsafeMutableRawPointer?, options: DiffOptions,
    mask: IgnoreMask
  ) {
    self.a = a
    self.b = b
    self.output = output
    self.mask = mask
    // pixelmatch's order of operations, so the same threshold gives the same double.
    maxDelta = maxYIQDelta * options.threshold * options.threshold
    includeAA = options.includeAA
    diffMask = options.diffMask
    alpha = options.alpha
    aaWord = options.aaColor.word.littleEndian
    diffWord = options.diffColor.word.littleEndian
    diffAltWord = (options.diffColorAlt ?? options.diffColor).word.littleEndian
    ignoredWord = options.ignoredColor.word.littleEndian
  }

  private var width: Int { a.width }
  private var height: Int { a.height }

  /// Draws every pixel as unchanged: the output of a byte-identical pair.
  mutating func drawUnchanged() {
    guard output != nil, !diffMask else { return }
    for y in 0..<height {
      mask.forEachSegment(row: y, width: width) { start, end, ignored in
        for x in start..<end { drawGray(at: y &* width &+ x, tinted: ignored) }
      }
    }
  }

  mutating func scan(_ counts: inout DiffCounts, _ regions: inout DiffRegions) {
    // With nothing to draw for unchanged pixels, a row that is byte-equal costs one memcmp.
    let skipEqualRows = output == nil || diffMask
    let rowBytes = width &* 4
    for y in 0..<height {
      let rowStart = y &* width
      if skipEqualRows
        && memcmp(
          a.base + rowStart &* 4, b.base + rowStart &* 4, rowBytes) == 0
      {
        continue
      }
      mask.forEachSegment(row: y, width: width) { start, end, ignored in
        scanSegment(y: y, from: start, to: end, ignored: ignored, &counts, &regions)
      }
    }
  }

  @inline(__always)
  private mutating func scanSegment(
    y: Int, from start: Int, to end: Int, ignored: Bool, _ counts: inout DiffCounts,
    _ regions: inout DiffRegions
  ) {
    let rowStart = y &* width
    for x in start..<end {
      let index = rowStart &+ x
      let first = a[index]
      let second = b[index]
      // Equal words: no colour math at all.
      if first == second {
        drawGray(at: index, tinted: ignored)
        continue
      }
      let delta = colorDelta(first, second)
      if abs(delta) <= maxDelta {
        // Similar enough: drawn like an unchanged pixel.
        drawGray(at: index, tinted: ignored)
      } else if ignored {
        // Masked by the caller: never counted, shown so a reviewer sees what was hidden.
        counts.ignored &+= 1
        draw(ignoredWord, at: index)
      } else if !includeAA
        && (isAntialiased(a, x: x, y: y, other: b) || isAntialiased(b, x: x, y: y, other: a))
      {
        // One of the pixels is anti-aliasing: drawn, not counted (and never in a mask).
        counts.antialiased &+= 1
        if !diffMask { draw(aaWord, at: index) }
      } else {
        // A real difference; the alternative colour marks where the current image is darker.
        counts.different &+= 1
        counts.changeHash.add(index: index, first, second)
        regions.add(x: x, y: y)
        draw(delta < 0 ? diffAltWord : diffWord, at: index)
      }
    }
  }

  @inline(__always)
  private func draw(_ word: UInt32, at index: Int) {
    guard let output else { return }
    output.storeBytes(of: word, toByteOffset: index &* 4, as: UInt32.self)
  }

  /// The faded baseline pixel; inside an ignore region, tinted blue.
  @inline(__always)
  private mutating func drawGray(at index: Int, tinted: Bool) {
    guard let output, !diffMask else { return }
    let pixel = a[index]
    if !(hasLastGray && pixel == lastGrayInput && tinted == lastGrayTinted) {
      let value = UInt32(grayValue(pixel, alpha: alpha))
      let redGreen = tinted ? value * 3 / 4 : value
      let blue = tinted ? 255 : value
      lastGrayOutput = (redGreen | redGreen << 8 | blue << 16 | 0xff00_0000).littleEndian
      lastGrayInput = pixel
      lastGrayTinted = tinted
      hasLastGray = true
    }
    output.storeBytes(of: lastGrayOutput, toByteOffset: index &* 4, as: UInt32.self)
  }
}
