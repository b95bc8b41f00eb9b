import CPNGReader

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

  /// Counts the differences as `compare` does, and keeps what drawing the diff image later
  /// needs: the marked pixels (bounded: `DiffMarks`) and the two images. The diff image of a
  /// failed comparison then costs no second comparison (`DiffOutcome.diffImage()`,
  /// `DiffOutcome.diffPNG()`).
  ///
  /// - Complexity: O(width × height), as `compare`; plus O(marked pixels) of memory.
  public func compareKeepingMarks(_ baseline: RGBAImage, _ current: RGBAImage) -> DiffOutcome {
    let run = run(baseline, current, drawing: false, marking: true)
    // Images of different sizes are compared through their overlap, whose marks are not
    // kept: their diff image is drawn by a drawing pass.
    let marks = run.matched.baseline.size == run.matched.current.size ? run.marks : nil
    return DiffOutcome(
      result: run.result, engine: self, baseline: baseline, current: current,
      drawnBaseline: run.matched.baseline, marks: marks)
  }

  /// Counts the differences and draws the diff image, `max(width) × max(height)` pixels.
  ///
  /// - Complexity: O(width × height).
  public func compareDrawingDiff(_ baseline: RGBAImage, _ current: RGBAImage)
    -> (result: DiffResult, diffImage: RGBAImage)
  {
    let run = run(baseline, current, drawing: true)
    return (run.result, run.image!)
  }

  private func run(_ baseline: RGBAImage, _ current: RGBAImage, drawing: Bool, marking: Bool = false)
    -> (
      result: DiffResult, image: RGBAImage?, marks: DiffMarks,
      matched: (baseline: RGBAImage, current: RGBAImage)
    )
  {
    // Images tagged with different colour spaces are first brought to sRGB.
    let (baseline, current, conversion) = ColorMatching(matchLevel: options.matchLevel.pixelLevel)
      .matched(baseline, current)
    let width = max(baseline.width, current.width)
    let height = max(baseline.height, current.height)
    let mask = IgnoreMask(regions: options.ignoreRegions, width: width, height: height)
    var counts = DiffCounts()
    if marking && baseline.size == current.size { counts.marks = DiffMarks(pixelCount: width * height) }
    var regions = DiffRegions(width: width, height: height)
    // Same-size comparisons draw every pixel unless only differences are drawn (a mask): then
    // the buffer needs no zeroing first.
    var output =
      drawing
      ? Self.outputBuffer(
        count: width * height * 4, zeroed: baseline.size != current.size || options.diffMask)
      : []

    if baseline.size == current.size && baseline.pixelCount == 0 {
      counts.identical = true
    } else if baseline.size == current.size {
      // Counting (no drawing) visits only the rows that differ, found on two threads; drawing
      // visits every pixel, and needs only to know whether any differs.
      let differingRows =
        drawing
        ? nil
        : baseline.pixels.withUnsafeBytes { a in
          current.pixels.withUnsafeBytes { b in
            DifferingRows(a.baseAddress!, b.baseAddress!, rowBytes: width &* 4, height: height)
          }
        }
      let identical =
        differingRows?.noneDiffer
        ?? baseline.pixels.withUnsafeBytes { a in
          current.pixels.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
      counts.identical = identical
      baseline.pixels.withUnsafeBytes { a in
        current.pixels.withUnsafeBytes { b in
          output.withUnsafeMutableBytes { out in
            let kernel = DiffKernel(
              a: PixelWords(base: a.baseAddress!, width: width, height: height),
              b: PixelWords(base: b.baseAddress!, width: width, height: height),
              output: drawing ? out.baseAddress : nil, options: options, mask: mask)
            if identical {
              kernel.drawUnchanged()
            } else {
              kernel.scan(&counts, &regions, differingRows: differingRows)
            }
          }
        }
      }
    } else {
      compareSizeMismatch(
        baseline, current, width: width, height: height, mask: mask, drawing: drawing,
        output: &output, counts: &counts, regions: &regions)
    }

    var result = makeResult(
      counts: counts, regions: &regions, baselineSize: baseline.size, currentSize: current.size)
    result.colorConversion = conversion
    let image = drawing ? RGBAImage(width: width, height: height, pixels: output) : nil
    return (result, image, counts.marks, (baseline, current))
  }

  /// The result of comparing two byte-identical images of `size`, known without their pixels
  /// (two byte-identical PNG files decode to the same pixels).
  func identicalResult(size: PixelSize) -> DiffResult {
    var regions = DiffRegions(width: 0, height: 0)
    var counts = DiffCounts()
    counts.identical = true
    return makeResult(counts: counts, regions: &regions, baselineSize: size, currentSize: size)
  }

  /// What `compareKeepingMarks(image, image)` returns, without comparing the image with itself:
  /// no marks, so the diff image is the image's faded gray.
  func identicalOutcome(_ image: RGBAImage) -> DiffOutcome {
    DiffOutcome(
      result: identicalResult(size: image.size), engine: self, baseline: image, current: image, drawnBaseline: image,
      marks: DiffMarks(pixelCount: image.pixelCount))
  }

  /// A diff image's buffer, on huge pages where the system offers them (it is written once,
  /// whole), zeroed only when some pixels may stay undrawn.
  static func outputBuffer(count: Int, zeroed: Bool) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      cpng_advise_huge_pages(buffer.baseAddress, buffer.count)
      if zeroed, let base = buffer.baseAddress { memset(base, 0, buffer.count) }
      initialized = buffer.count
    }
  }

  private func makeResult(
    counts: DiffCounts, regions: inout DiffRegions, baselineSize: PixelSize, currentSize: PixelSize
  ) -> DiffResult {
    let total = max(baselineSize.width, currentSize.width) * max(baselineSize.height, currentSize.height)
    let different = counts.different
    return DiffResult(
      differentPixels: different, antialiasedPixels: counts.antialiased,
      ignoredPixels: counts.ignored, totalPixels: total, identical: counts.identical,
      passed: options.passes(differentPixels: different, totalPixels: total),
      regions: different == 0 ? [] : regions.boxes(), baselineSize: baselineSize,
      currentSize: currentSize,
      changeHash: different == 0
        ? nil : counts.changeHash.finish(baseline: baselineSize, current: currentSize))
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
  /// The pixels drawn in a colour of their own, when asked to keep them.
  var marks = DiffMarks.none
}

/// The per-pixel loop over two same-size rasters, with pointers taken once per image.
///
/// The kernel itself is immutable: what changes per pixel (tallies, regions, the gray cache)
/// lives in locals passed `inout`, so the compiler keeps it in registers.
struct DiffKernel {
  let a: PixelWords
  let b: PixelWords
  let output: UnsafeMutableRawPointer?
  let mask: IgnoreMask
  let maxDelta: Double
  let matchLevel: MatchLevel
  let includeAA: Bool
  let diffMask: Bool
  let alpha: Double
  let aaWord: UInt32
  let diffWord: UInt32
  let diffAltWord: UInt32
  let ignoredWord: UInt32

  init(
    a: PixelWords, b: PixelWords, output: UnsafeMutableRawPointer?, options: DiffOptions,
    mask: IgnoreMask
  ) {
    self.a = a
    self.b = b
    self.output = output
    self.mask = mask
    // pixelmatch's order of operations, so the same threshold gives the same double.
    // The levels that decide from element trees compare their pixels at another level.
    matchLevel = options.matchLevel.pixelLevel
    maxDelta =
      matchLevel == .perceptual
      ? options.deltaE : maxYIQDelta * options.threshold * options.threshold
    // Exact matching counts every differing pixel: no anti-aliasing allowance.
    includeAA = options.includeAA || options.matchLevel == .exact
    diffMask = options.diffMask
    alpha = options.alpha
    aaWord = options.aaColor.word.littleEndian
    diffWord = options.diffColor.word.littleEndian
    diffAltWord = (options.diffColorAlt ?? options.diffColor).word.littleEndian
    ignoredWord = options.ignoredColor.word.littleEndian
  }

  private var width: Int { a.width }
  private var height: Int { a.height }

  /// Where unchanged pixels are drawn (as faded gray): nowhere when counting only, or when only
  /// differences are drawn (a mask).
  private var grayOutput: UnsafeMutableRawPointer? { diffMask ? nil : output }

  /// Draws every pixel as unchanged: the output of a byte-identical pair.
  func drawUnchanged() {
    guard let gray = grayOutput else { return }
    for y in 0..<height {
      mask.forEachSegment(row: y, width: width) { start, end, ignored in
        var cache = GrayCache(self, tinted: ignored)
        for index in (y &* width &+ start)..<(y &* width &+ end) {
          gray.storeBytes(
            of: cache.word(for: a[index], self), toByteOffset: index &* 4, as: UInt32.self)
        }
      }
    }
  }

  /// Compares every pixel, or with nothing to draw for unchanged pixels, those of the rows that
  /// differ: the rows `differingRows` marks when given, else a row that is byte-equal costs one
  /// `memcmp`.
  func scan(_ counts: inout DiffCounts, _ regions: inout DiffRegions, differingRows: DifferingRows? = nil) {
    let skipEqualRows = grayOutput == nil
    let rowBytes = width &* 4
    var perceptual = PerceptualDelta(active: matchLevel == .perceptual)
    for y in 0..<height {
      let rowStart = y &* width
      if skipEqualRows {
        if let differingRows {
          if !differingRows.flags[y] { continue }
        } else if memcmp(a.base + rowStart &* 4, b.base + rowStart &* 4, rowBytes) == 0 {
          continue
        }
      }
      mask.forEachSegment(row: y, width: width) { start, end, ignored in
        scanSegment(y: y, from: start, to: end, ignored: ignored, &counts, &regions, &perceptual)
      }
    }
  }

  @inline(__always)
  private func scanSegment(
    y: Int, from start: Int, to end: Int, ignored: Bool, _ counts: inout DiffCounts,
    _ regions: inout DiffRegions, _ perceptual: inout PerceptualDelta
  ) {
    let rowStart = y &* width
    let gray = grayOutput
    var cache = GrayCache(self, tinted: ignored)
    for x in start..<end {
      let index = rowStart &+ x
      let first = a[index]
      let second = b[index]
      // Equal words: no colour math at all.
      if first == second {
        gray?.storeBytes(of: cache.word(for: first, self), toByteOffset: index &* 4, as: UInt32.self)
        continue
      }
      let delta: Double
      switch matchLevel {
      case .exact: delta = exactDelta(first, second)
      case .ignoreColors: delta = luminanceDelta(first, second)
      case .strict, .layout: delta = colorDelta(first, second)
      case .perceptual, .textAware: delta = perceptual.delta(first, second)
      }
      if abs(delta) <= maxDelta {
        // Similar enough: drawn like an unchanged pixel.
        gray?.storeBytes(of: cache.word(for: first, self), toByteOffset: index &* 4, as: UInt32.self)
      } else if ignored {
        // Masked by the caller: never counted, shown so a reviewer sees what was hidden.
        counts.ignored &+= 1
        mark(ignoredWord, at: index, &counts)
      } else if !includeAA
        && (isAntialiased(a, x: x, y: y, other: b) || isAntialiased(b, x: x, y: y, other: a))
      {
        // One of the pixels is anti-aliasing: drawn, not counted (and never in a mask).
        counts.antialiased &+= 1
        if !diffMask { mark(aaWord, at: index, &counts) }
      } else {
        // A real difference; the alternative colour marks where the current image is darker.
        counts.different &+= 1
        counts.changeHash.add(index: index, first, second)
        regions.add(x: x, y: y)
        mark(delta < 0 ? diffAltWord : diffWord, at: index, &counts)
      }
    }
  }

  /// Draws a pixel in a colour of its own, and records it when marks are kept.
  @inline(__always)
  private func mark(_ word: UInt32, at index: Int, _ counts: inout DiffCounts) {
    counts.marks.record(word, at: index)
    guard let output else { return }
    output.storeBytes(of: word, toByteOffset: index &* 4, as: UInt32.self)
  }

  /// The faded baseline pixel; inside an ignore region, tinted blue.
  @inline(__always)
  func grayWord(_ pixel: UInt32, tinted: Bool) -> UInt32 {
    let value = UInt32(grayValue(pixel, alpha: alpha))
    let redGreen = tinted ? value * 3 / 4 : value
    let blue = tinted ? 255 : value
    return (redGreen | redGreen << 8 | blue << 16 | 0xff00_0000).littleEndian
  }
}

/// The last baseline colour drawn as gray and its gray: flat screenshots repeat colours, so most
/// unchanged pixels cost a compare and a store. One per segment (a segment is all tinted or not).
private struct GrayCache {
  private var input: UInt32
  private var output: UInt32
  private let tinted: Bool

  @inline(__always)
  init(_ kernel: DiffKernel, tinted: Bool) {
    self.tinted = tinted
    input = 0
    output = kernel.grayWord(0, tinted: tinted)
  }

  @inline(__always)
  mutating func word(for pixel: UInt32, _ kernel: DiffKernel) -> UInt32 {
    if pixel != input {
      input = pixel
      output = kernel.grayWord(pixel, tinted: tinted)
    }
    return output
  }
}
