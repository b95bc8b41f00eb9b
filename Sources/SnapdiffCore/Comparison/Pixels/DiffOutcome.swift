import CPNGCodec

/// A comparison's result with what drawing its diff image needs (`PixelDiff.compareKeepingMarks`):
/// the marked pixels the counting pass recorded and the baseline under them. A failed snapshot
/// is compared once: its diff image is the baseline's faded gray (drawn from the baseline alone)
/// with the marks over it, pixel for pixel what `PixelDiff.compareDrawingDiff` draws.
///
/// ```swift
/// let outcome = PixelDiff().compareKeepingMarks(baseline, current)
/// if !outcome.result.passed { try outcome.writeDiffImage(to: "diff.png") }
/// ```
///
/// When the marks were not all kept (more than an eighth of the pixels marked, or images of
/// different sizes), the diff image is drawn by a second, drawing comparison: the same pixels.
public struct DiffOutcome: Sendable {
  public let result: DiffResult
  private let engine: PixelDiff
  /// The images as given, for a drawing pass.
  private let baseline: RGBAImage
  private let current: RGBAImage
  /// The baseline as compared (brought to sRGB when the two images' colour spaces differed):
  /// what the faded gray is drawn from.
  private let drawnBaseline: RGBAImage
  /// Every marked pixel, or `nil` when they were not all kept.
  private let marks: DiffMarks?

  init(
    result: DiffResult, engine: PixelDiff, baseline: RGBAImage, current: RGBAImage, drawnBaseline: RGBAImage,
    marks: DiffMarks?
  ) {
    self.result = result
    self.engine = engine
    self.baseline = baseline
    self.current = current
    self.drawnBaseline = drawnBaseline
    self.marks = marks?.isComplete == true ? marks : nil
  }

  /// Whether the diff image is drawn from the marks kept (else by a second comparison: more
  /// than an eighth of the pixels marked, or images of different sizes).
  public var drawsFromMarks: Bool { marks != nil }

  /// The diff image, `max(width) × max(height)` pixels: what `compareDrawingDiff` returns.
  ///
  /// - Complexity: O(width × height) over the baseline alone when the marks were kept, else a
  ///   second comparison.
  public func diffImage() -> RGBAImage {
    guard let marks else { return engine.compareDrawingDiff(baseline, current).diffImage }
    let width = drawnBaseline.width
    let height = drawnBaseline.height
    let options = engine.options
    var output = PixelDiff.outputBuffer(count: width * height * 4, zeroed: options.diffMask)
    drawnBaseline.pixels.withUnsafeBytes { a in
      output.withUnsafeMutableBytes { out in
        guard let base = a.baseAddress, let outBase = out.baseAddress else { return }
        let words = PixelWords(base: base, width: width, height: height)
        let mask = IgnoreMask(regions: options.ignoreRegions, width: width, height: height)
        DiffKernel(a: words, b: words, output: outBase, options: options, mask: mask).drawUnchanged()
        marks.forEachMark { index, word in
          outBase.storeBytes(of: word, toByteOffset: index &* 4, as: UInt32.self)
        }
      }
    }
    return RGBAImage(width: width, height: height, pixels: output)
  }

  /// The diff image as a PNG file's bytes, the same pixels as `diffImage()` encoded by
  /// `PNGEncoder(speed: .fast)`. With the marks kept and at most 256 colours (a faded gray
  /// baseline and a few marker colours: the usual diff image), it is drawn straight as palette
  /// indexes: no RGBA image and no mapping of it to a palette. Otherwise (`alpha` near 1 gives
  /// more grays than a palette holds) the RGBA image is drawn and encoded as RGB or RGBA.
  ///
  /// - Throws: `PNGError` with kind `.encodingFailed` (an empty image).
  public func diffPNG() throws(PNGError) -> [UInt8] {
    if let marks, let indexed = DiffPalette.draw(drawnBaseline, marks: marks, options: engine.options) {
      return try PNGEncoder(speed: .fast).encode(indexed)
    }
    return try PNGEncoder(speed: .fast).encode(diffImage())
  }

  /// Writes `diffPNG()` to `path` atomically, as `PNGEncoder.write` does.
  ///
  /// - Throws: `PNGError` naming `path` when encoding fails, `FileError` when the file cannot
  ///   be written.
  public func writeDiffImage(to path: String, synced: Bool = true) throws {
    try PNGEncoder.write(to: path, synced: synced) { () throws(PNGError) in try diffPNG() }
  }
}
