import Dispatch

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
  }

  /// Compares the PNG at `baseline` with the PNG at `current`.
  ///
  /// - Parameters:
  ///   - diffPath: where to write the diff image (atomically, with libpng's fast setting);
  ///     `nil` counts only.
  /// - Throws: `FileError` or `PNGError` naming the file that cannot be read, decoded or written.
  /// - Complexity: O(width × height).
  public func compare(baseline: String, current: String, diffPath: String? = nil) throws -> Outcome {
    let (baselineImage, currentImage) = try decodeBoth(baseline, current)
    let engine = PixelDiff(options: options)
    guard let diffPath else {
      return Outcome(result: engine.compare(baselineImage, currentImage), diffPath: nil)
    }
    let (result, image) = engine.compareDrawingDiff(baselineImage, currentImage)
    try PNGEncoder(speed: .fast).write(image, to: diffPath)
    return Outcome(result: result, diffPath: diffPath)
  }

  /// Decodes both files concurrently; the baseline's error wins when both fail.
  func decodeBoth(_ first: String, _ second: String) throws -> (RGBAImage, RGBAImage) {
    let results = DecodeSlots()
    let decoder = self.decoder
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let path = index == 0 ? first : second
      let outcome = Result { try decoder.decode(contentsOf: path) }
      results.set(index, outcome)
    }
    return (try results.get(0), try results.get(1))
  }
}

/// Two result slots filled from two threads; each thread writes only its own slot, and
/// `concurrentPerform` returns after both.
private final class DecodeSlots: @unchecked Sendable {
  private var slots: [Result<RGBAImage, any Error>?] = [nil, nil]
  private let lock = DispatchSemaphore(value: 1)

  func set(_ index: Int, _ result: Result<RGBAImage, any Error>) {
    lock.wait()
    slots[index] = result
    lock.signal()
  }

  func get(_ index: Int) throws -> RGBAImage {
    lock.wait()
    defer { lock.signal() }
    return try slots[index]!.get()
  }
}
