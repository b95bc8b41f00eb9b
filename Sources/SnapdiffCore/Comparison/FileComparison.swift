/// Compares two PNG files: reads and decodes both at once on two threads, diffs them, and
/// writes the diff image when asked.
///
/// ```swift
/// let comparison = FileComparison(options: DiffOptions(threshold: 0.05))
/// let outcome = try comparison.compare(baseline: "a.png", current: "b.png", diffPath: "diff.png")
/// print(outcome.result.differentPixels)
/// ```
public struct FileComparison: Sendable {
  public var options: DiffOptions
  public var decoder: PNGDecoder

  public init(options: DiffOptions = DiffOptions(), decoder: PNGDecoder = PNGDecoder()) {
    self.options = options
    self.decoder = decoder
  }

  /// What a file comparison produced.
  public struct Outcome: Sendable {
    public var result: DiffResult
    /// Where the diff image was written, if it was.
    public var diffPath: String?
    /// For a failed comparison: what kind of difference it is (`DifferenceClassifier`).
    public var difference: DifferenceClass? = nil
  }

  /// Compares the PNG at `baseline` with the PNG at `current`.
  ///
  /// Two byte-identical files are identical images: their signature, header and size limit are
  /// checked (a file without a valid header is still an error) but nothing is decoded, so image
  /// data that would not decode passes too (a speed feature: most frames of most runs equal
  /// their baseline). A diff image asked for agrees: the baseline is decoded to draw its faded
  /// backdrop, and when it does not decode the image is drawn without one.
  ///
  /// - Parameters:
  ///   - diffPath: where to write the diff image (atomically, with `PNGEncoder(speed: .fast)`,
  ///     not `fsync`ed: it is made again on request); `nil` counts only.
  /// - Throws: `FileError` or `PNGError` naming the file that cannot be read, decoded or written.
  /// - Complexity: O(width × height).
  public func compare(baseline: String, current: String, diffPath: String? = nil) throws -> Outcome {
    let engine = PixelDiff(options: options)
    let baselineImage: RGBAImage
    let currentImage: RGBAImage
    // Files of equal size may be byte-identical: read the baseline and compare the current
    // file with it piece by piece. Files of different sizes never are, and each thread reads
    // its own file and decodes it at once.
    if let size = FileIO.regularFileSize(baseline), size == FileIO.regularFileSize(current) {
      let first = try FileIO.read(baseline)
      if FileIO.contentEquals(current, first) {
        let header = try decoder.header(of: first, path: baseline)
        guard let diffPath else {
          return Outcome(result: engine.identicalResult(size: header.size), diffPath: nil)
        }
        // The count above passes identical bytes without decoding them; the diff image must
        // agree, so bytes that do not decode (identical, so a corrupt baseline and its exact
        // copy) still pass, and the diff image has no backdrop: white, or transparent as a mask.
        let image =
          (try? decoder.decode(first, path: baseline))
          ?? RGBAImage(
            width: header.width, height: header.height, filledWith: RGBAColor(red: 255, green: 255, blue: 255))
        let outcome = engine.identicalOutcome(image)
        try outcome.writeDiffImage(to: diffPath, synced: false)
        return Outcome(result: outcome.result, diffPath: diffPath)
      }
      let decoder = self.decoder
      (baselineImage, currentImage) = try TwoThreads.run(
        { try decoder.decode(first, path: baseline) }, { try decoder.decode(contentsOf: current) })
    } else {
      (baselineImage, currentImage) = try decodeBoth(baseline, current)
    }
    // A failure says what kind of difference it found.
    let classifier = DifferenceClassifier(threshold: options.threshold)
    func classified(_ result: DiffResult) -> DifferenceClass? {
      classifier.classify(baselineImage, currentImage, result: result)
    }
    guard let diffPath else {
      let result = engine.compare(baselineImage, currentImage)
      return Outcome(result: result, diffPath: nil, difference: classified(result))
    }
    // One comparison: the diff image is drawn from its marks, as palette indexes.
    let outcome = engine.compareKeepingMarks(baselineImage, currentImage)
    try outcome.writeDiffImage(to: diffPath, synced: false)
    return Outcome(result: outcome.result, diffPath: diffPath, difference: classified(outcome.result))
  }

  /// Reads and decodes both files concurrently; the baseline's error wins when both fail.
  func decodeBoth(_ first: String, _ second: String) throws -> (RGBAImage, RGBAImage) {
    let decoder = self.decoder
    return try TwoThreads.run({ try decoder.decode(contentsOf: first) }, { try decoder.decode(contentsOf: second) })
  }
}
