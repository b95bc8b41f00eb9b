/// An 8-bit RGBA raster: `width × height` pixels, rows packed top to bottom, 4 bytes a pixel in
/// the order red, green, blue, alpha (not premultiplied).
public struct RGBAImage: Sendable, Equatable {
  public let width: Int
  public let height: Int
  /// `width * height * 4` bytes, always: the kernels trust it (they compare and index by the
  /// dimensions), so a change of size traps at once rather than leading them astray.
  public var pixels: [UInt8] {
    didSet { precondition(pixels.count == width &* height &* 4, "an RGBA image needs width * height * 4 bytes") }
  }
  /// The colour space the PNG was tagged with, when it is not sRGB (`nil`: untagged or sRGB).
  /// Comparisons convert to sRGB when two images' spaces differ.
  public var colorSpace: ColorSpaceTag?

  /// - Precondition: `pixels.count == width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
    precondition(pixels.count == width * height * 4, "an RGBA image needs width * height * 4 bytes")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// An image filled with one colour.
  public init(width: Int, height: Int, filledWith color: RGBAColor) {
    let word = color.word
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
      let words = UnsafeMutableRawBufferPointer(buffer)
      for index in 0..<(width * height) {
        words.storeBytes(of: word.littleEndian, toByteOffset: index &* 4, as: UInt32.self)
      }
      count = width * height * 4
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  public var size: PixelSize { PixelSize(width: width, height: height) }
  public var pixelCount: Int { width * height }

  /// The colour at column `x`, row `y`.
  public subscript(x x: Int, y y: Int) -> RGBAColor {
    get {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
      let offset = (y * width + x) * 4
      return RGBAColor(
        red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2],
        alpha: pixels[offset + 3])
    }
    set {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
      let offset = (y * width + x) * 4
      pixels[offset] = newValue.red
      pixels[offset + 1] = newValue.green
      pixels[offset + 2] = newValue.blue
      pixels[offset + 3] = newValue.alpha
    }
  }

  /// The `rect` part of this image (clamped to it) as a new image.
  public func cropped(to rect: PixelRect) -> RGBAImage {
    let area = rect.clamped(toWidth: width, height: height)
    var result = [UInt8](repeating: 0, count: area.area * 4)
    let rowBytes = area.width * 4
    for row in 0..<area.height {
      let source = ((area.y + row) * width + area.x) * 4
      result.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: pixels[source..<source + rowBytes])
    }
    var image = RGBAImage(width: area.width, height: area.height, pixels: result)
    image.colorSpace = colorSpace
    return image
  }
}
