#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tallies of one comparison.
struct DiffCounts {
  var different = 0
  var antialiased = 0
  var ignored = 0
  /// At `rendering-tolerant`: differing pixels judged rendering noise (`RenderingNoise`).
  var tolerated = 0
  /// At `rendering-tolerant`: the pixels beyond the threshold, judged with their patches once
  /// the scan is over (`DiffKernel.settleUnexplained`).
  var unsettled = UnsettledPixels()
  /// At `rendering-tolerant`: the shift by which everything that differs is one exact copy
  /// moved (`MovedElements.loneMove`), every pixel beyond the threshold then counted.
  var loneMove: PixelShift?
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
  /// How two differing pixels are measured: the match level's metric, one per comparison.
  let metric: MatchLevel.PixelMetric
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
    metric = options.matchLevel.pixelMetric
    maxDelta = metric.usesDeltaE ? options.deltaE : maxYIQDelta * options.threshold * options.threshold
    // Exact matching counts every differing pixel: no anti-aliasing allowance. Rendering noise
    // has its own, wider rule in place of pixelmatch's anti-aliasing test (`RenderingNoise`).
    includeAA = options.includeAA || !metric.testsAntialiasing
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
    var perceptual = PerceptualDelta(active: metric == .ciede2000)
    var rows = UnexplainedRows(width: metric == .renderingNoise ? width : 0)
    for y in 0..<height {
      let rowStart = y &* width
      if skipEqualRows {
        if let differingRows {
          if !differingRows.flags[y] { continue }
        } else if memcmp(a.base + rowStart &* 4, b.base + rowStart &* 4, rowBytes) == 0 {
          continue
        }
      }
      rows.advance(to: y)
      mask.forEachSegment(row: y, width: width) { start, end, ignored in
        scanSegment(y: y, from: start, to: end, ignored: ignored, &counts, &regions, &perceptual, &rows)
      }
    }
  }

  @inline(__always)
  private func scanSegment(
    y: Int, from start: Int, to end: Int, ignored: Bool, _ counts: inout DiffCounts,
    _ regions: inout DiffRegions, _ perceptual: inout PerceptualDelta, _ rows: inout UnexplainedRows
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
      switch metric {
      case .exact: delta = exactDelta(first, second)
      case .luminance: delta = luminanceDelta(first, second)
      case .yiq, .renderingNoise: delta = colorDelta(first, second)
      case .ciede2000: delta = perceptual.delta(first, second)
      }
      if abs(delta) <= maxDelta {
        // Similar enough: drawn like an unchanged pixel.
        gray?.storeBytes(of: cache.word(for: first, self), toByteOffset: index &* 4, as: UInt32.self)
      } else if ignored {
        // Masked by the caller: never counted, shown so a reviewer sees what was hidden.
        counts.ignored &+= 1
        mark(ignoredWord, at: index, &counts)
      } else if metric == .renderingNoise {
        // Inside an area already unexplained (the four neighbours scanned before it), a pixel
        // joins that patch untested: a changed screen costs a few compares a pixel.
        let explained =
          !rows.surrounded(x: x, y: y)
          && (RenderingNoise.explained(a, b, x: x, y: y, maxDelta: maxDelta)
            || RenderingNoise.reblended(a, b, x: x, y: y, maxDelta: maxDelta))
        // Judged with its patch once the scan is over.
        counts.unsettled.append(index: index, darker: delta < 0, explained: explained)
        if !explained { rows.mark(x: x) }
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

  /// At `rendering-tolerant`, after the scan: the pixels beyond the threshold are a change
  /// where their patch is (`UnsettledPixels.classify`: counted, drawn as differences), noise
  /// elsewhere (drawn as anti-aliasing is); all of them are a change when everything that
  /// differs is one exact copy moved (`MovedElements.loneMove`).
  func settleUnexplained(_ counts: inout DiffCounts, _ regions: inout DiffRegions) {
    let unsettled = counts.unsettled
    counts.unsettled = UnsettledPixels()
    if unsettled.count >= RenderingNoise.smallestChange, let shift = MovedElements.loneMove(a, b, mask: mask) {
      counts.loneMove = PixelShift(dx: shift.dx, dy: shift.dy)
    }
    let countsAll = counts.loneMove != nil
    unsettled.classify(a, b) { index, darker, isChange in
      if isChange || countsAll {
        counts.different &+= 1
        counts.changeHash.add(index: index, a[index], b[index])
        regions.add(x: index % width, y: index / width)
        mark(darker ? diffAltWord : diffWord, at: index, &counts)
      } else {
        counts.tolerated &+= 1
        if !diffMask { mark(aaWord, at: index, &counts) }
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
