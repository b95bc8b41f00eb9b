/// What a comparison found. A mismatch is a value, never an error.
public struct DiffResult: Sendable, Hashable {
  /// Pixels that differ beyond the threshold, not anti-aliasing, outside ignore regions (and,
  /// for images of different sizes, every pixel outside their overlap).
  public var differentPixels: Int
  /// Differing pixels not counted because they are anti-aliasing (0 with `includeAA`).
  public var antialiasedPixels: Int
  /// Differing pixels not counted because they lie in an ignore region.
  public var ignoredPixels: Int
  /// At `rendering-tolerant`: differing pixels not counted because they are rendering noise
  /// (a close colour within 2 px in the other image, or a patch too small to be a change).
  public var toleratedPixels: Int = 0
  /// Pixels compared: `max(width) × max(height)` of the two images.
  public var totalPixels: Int
  /// The decoded RGBA buffers are byte-equal (and so are the sizes).
  public var identical: Bool
  /// The limits held (`DiffOptions.passes(differentPixels:totalPixels:)`).
  public var passed: Bool
  /// Bounding boxes of the differing areas, nearby pixels grouped, top to bottom.
  public var regions: [PixelRect]
  public var baselineSize: PixelSize
  public var currentSize: PixelSize
  /// Identifies the change: a hash of every counted pixel's position with its colour in both
  /// images (and the two sizes). Two comparisons with the same hash made the same change, as a
  /// shared header update does across many screens. `nil` when nothing differs.
  public var changeHash: String?
  /// The colour conversion made before comparing, when the images' colour spaces differed;
  /// `nil` when the samples were compared as decoded.
  public var colorConversion: ColorConversion? = nil
  /// At `rendering-tolerant`: everything that differs is one exact copy of the baseline moved
  /// by this shift, and nothing else re-rendered, so every pixel beyond the threshold counts
  /// (an element nudged in code; `MovedElements.loneMove`). `nil` otherwise.
  public var loneMove: PixelShift? = nil

  /// `differentPixels / totalPixels`, a fraction in 0...1.
  public var differentRatio: Double {
    totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels)
  }

  /// The two images have the same width and height.
  public var sizesMatch: Bool { baselineSize == currentSize }
}
