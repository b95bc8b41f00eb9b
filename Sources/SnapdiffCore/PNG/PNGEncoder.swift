import CLibPNG
import CPNGCodec

/// Encodes 8-bit RGBA rasters as PNG with snapdiff's own writer (`Sources/CPNGCodec/CPNGWriter.c`):
/// `.compact` (baselines, rendered frames) with libpng's choice of row filters and libdeflate,
/// `.fast` (diff images) without filters and with a quick deflate. Built without libdeflate,
/// `.compact` is libpng's simplified writer.
///
/// ```swift
/// try PNGEncoder(speed: .fast).write(diffImage, to: "diff.png")
/// ```
public struct PNGEncoder: Sendable {
  /// How hard the encoder compresses.
  public enum Speed: Sendable {
    /// Smaller files, slower: the smallest exact format (as `.fast` picks it), each RGB or RGBA
    /// row with the filter libpng's heuristic picks (the smallest sum of its bytes as signed),
    /// deflated by libdeflate at level 6. Measured on an iPhone-size screenshot: a quarter of
    /// libpng's time, 14 % smaller (docs/performance.md). Without libdeflate, libpng's
    /// simplified writer with its defaults (always RGBA).
    case compact
    /// What diff images use, several times faster to write (CPNGWriter, not libpng): no row
    /// filters, on two threads, a palette deflated by matching runs and the row above
    /// (CRunDeflate), RGB and RGBA by zlib at level 1; and the smallest exact format (an 8-bit
    /// palette when there are at most 256 colours, as in a diff image; else RGB when every pixel
    /// is opaque; else RGBA). The file decodes to exactly the same RGBA pixels whichever format
    /// it has.
    case fast
  }

  /// What `.compact` writes with, and its version (`snapdiff --version` says it):
  /// `libdeflate 1.23 (level 6, libpng's choice of row filters)`, or without libdeflate
  /// `libpng 1.6.43 (zlib 1.3.1)`.
  public static var compactWriter: String { String(cString: cpng_compact_writer()) }

  public var speed: Speed
  /// Whether `.compact` uses snapdiff's writer (when it is built with libdeflate); `false`:
  /// libpng's simplified writer, as tests compare them.
  public var usesOwnCompactWriter = true

  public init(speed: Speed = .compact) {
    self.speed = speed
  }

  /// The PNG encoding of `image`.
  ///
  /// - Throws: `PNGError` with kind `.encodingFailed` when libpng refuses the raster (for
  ///   example an empty one).
  public func encode(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
    guard image.width > 0, image.height > 0 else {
      throw PNGError(
        kind: .encodingFailed, path: nil,
        message: "a PNG needs at least one pixel, not \(image.width)×\(image.height)")
    }
    if speed == .fast { return try encodeFast(image) }
    if usesOwnCompactWriter && cpng_has_compact_writer() != 0 {
      return try encoded { encoded in
        image.pixels.withUnsafeBufferPointer {
          cpng_encode_compact($0.baseAddress, UInt32(image.width), UInt32(image.height), &encoded)
        }
      }
    }
    var description = png_image()
    description.version = UInt32(PNG_IMAGE_VERSION)
    description.width = UInt32(image.width)
    description.height = UInt32(image.height)
    description.format = CLIBPNG_FORMAT_RGBA
    var capacity = Int(clibpng_image_png_size_max(&description))
    var output = [UInt8](repeating: 0, count: capacity)
    let succeeded = output.withUnsafeMutableBytes { destination in
      image.pixels.withUnsafeBytes { source in
        png_image_write_to_memory(
          &description, destination.baseAddress, &capacity, 0, source.baseAddress, 0, nil)
      }
    }
    guard succeeded != 0 else {
      let message = withUnsafeBytes(of: &description.message) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      png_image_free(&description)
      throw PNGError(kind: .encodingFailed, path: nil, message: message)
    }
    output.removeSubrange(capacity...)
    return output
  }

  private func encodeFast(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
    try encoded { encoded in
      image.pixels.withUnsafeBufferPointer {
        cpng_encode_fast($0.baseAddress, UInt32(image.width), UInt32(image.height), &encoded)
      }
    }
  }

  /// The PNG encoding of an image drawn as palette indexes (a diff image: `DiffPalette`), by
  /// the fast writer whatever `speed` says: only the deflating is left to do.
  ///
  /// - Throws: `PNGError` with kind `.encodingFailed` when the writer refuses the scanlines (a
  ///   filter byte other than 0, an index past the palette's end) or the size.
  func encode(_ image: PaletteImage) throws(PNGError) -> [UInt8] {
    try encoded { encoded in
      image.lines.withUnsafeBufferPointer { lines in
        image.colors.withUnsafeBufferPointer { colors in
          cpng_encode_palette(
            lines.baseAddress, colors.baseAddress, Int32(colors.count), UInt32(image.width), UInt32(image.height),
            &encoded)
        }
      }
    }
  }

  /// Runs one of CPNGWriter's encoders and takes its file, or its message as a `PNGError`.
  private func encoded(_ body: (inout cpng_encoded) -> Int32) throws(PNGError) -> [UInt8] {
    var encoded = cpng_encoded()
    let succeeded = body(&encoded)
    defer { cpng_encoded_free(&encoded) }
    guard succeeded != 0 else {
      let message = withUnsafeBytes(of: &encoded.message) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      throw PNGError(kind: .encodingFailed, path: nil, message: message)
    }
    return [UInt8](UnsafeBufferPointer(start: encoded.bytes, count: encoded.size))
  }

  /// Encodes `image` and writes it to `path` atomically (a reader never sees half a file).
  ///
  /// - Parameters:
  ///   - synced: whether to `fsync` the file before it replaces `path` (see
  ///     `FileIO.writeAtomically`); `false` for images made again on request.
  /// - Throws: `PNGError` when encoding fails, `FileError` when the file cannot be written.
  public func write(_ image: RGBAImage, to path: String, synced: Bool = true) throws {
    try Self.write(to: path, synced: synced) { () throws(PNGError) in try encode(image) }
  }

  /// Writes what `encode` returns to `path` atomically; its `PNGError` names `path`. Every
  /// encoded image written to a file goes through here.
  static func write(to path: String, synced: Bool, _ encode: () throws(PNGError) -> [UInt8]) throws {
    let bytes: [UInt8]
    do {
      bytes = try encode()
    } catch {
      throw PNGError(kind: error.kind, path: path, message: error.message)
    }
    try FileIO.writeAtomically(bytes, to: path, synced: synced)
  }
}
