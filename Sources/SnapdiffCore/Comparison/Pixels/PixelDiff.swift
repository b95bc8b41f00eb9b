import CPNGCodec

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
    let (baseline, current, conversion) = ColorMatching(metric: options.matchLevel.pixelMetric)
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
              kernel.settleUnexplained(&counts, &regions)
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
      ignoredPixels: counts.ignored, toleratedPixels: counts.tolerated, totalPixels: total, identical: counts.identical,
      passed: options.passes(differentPixels: different, totalPixels: total),
      regions: different == 0 ? [] : regions.boxes(), baselineSize: baselineSize,
      currentSize: currentSize,
      changeHash: different == 0
        ? nil : counts.changeHash.finish(baseline: baselineSize, current: currentSize),
      loneMove: counts.loneMove)
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
      counts.tolerated = inner.result.toleratedPixels
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
