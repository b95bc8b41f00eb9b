import SnapdiffModel

#if SNAPDIFF_ENGINE
  import SnapdiffCore
#endif

/// What a ``SnapShooter`` captured: the screenshot's PNG bytes as the platform made them (never
/// re-encoded), the element tree of the screen, or both; and the areas the shooter itself knows
/// must not count (the status bar's clock).
///
/// Where the engine links (Linux, macOS), a frame may also carry its pixels in memory (a tree
/// rendered by the test), which are then compared without an encode and decode round trip.
public struct CapturedFrame: Sendable {
  /// The screenshot, as PNG bytes.
  public var png: [UInt8]?
  /// The screen's element tree (points, with its scale).
  public var tree: ElementTree?
  /// Where the frame came from, for messages: `XCUIScreen`, a file's path, `rendered element tree`.
  public var source: String
  /// Areas the shooter masks in every frame it takes, besides the page's `ignoredElements`.
  public var ignoredAreas: [IgnoredArea]
  /// Pixels per point of the screenshot as the shooter measured it, for a frame without a tree
  /// (masks in points still land at the screenshot's scale); nil: the tree's, else 1.
  public var pointScale: Double?

  #if SNAPDIFF_ENGINE
    /// The frame's pixels, when the test made them in memory.
    public var image: RGBAImage?
  #endif

  /// A frame of PNG bytes and/or a tree.
  public init(
    png: [UInt8]?, tree: ElementTree?, source: String, ignoredAreas: [IgnoredArea] = [], pointScale: Double? = nil
  ) {
    self.png = png
    self.tree = tree
    self.source = source
    self.ignoredAreas = ignoredAreas
    self.pointScale = pointScale
  }

  /// Pixels per point: the tree's scale, else the one the shooter measured (``pointScale``), else
  /// 1 (a screenshot nobody measured has no points).
  public var scale: Double { tree.map { Double($0.scale) } ?? pointScale ?? 1 }

  /// The screenshot's size in pixels, read from the PNG header; nil without a PNG.
  public var pixelSize: PixelSize? { png.flatMap(PNGHeaderSize.read) }
}

/// The width and height a PNG's header declares, read without decoding anything: what the test
/// side needs to know of a screenshot (its scale) without an image codec.
public enum PNGHeaderSize {
  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The size in `IHDR`, or nil when the bytes do not start as a PNG does.
  public static func read(_ bytes: [UInt8]) -> PixelSize? {
    guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
      bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52
    else { return nil }
    func be32(_ offset: Int) -> Int {
      (Int(bytes[offset]) << 24) | (Int(bytes[offset + 1]) << 16) | (Int(bytes[offset + 2]) << 8)
        | Int(bytes[offset + 3])
    }
    let width = be32(16)
    let height = be32(20)
    guard width > 0, height > 0 else { return nil }
    return PixelSize(width: width, height: height)
  }
}
