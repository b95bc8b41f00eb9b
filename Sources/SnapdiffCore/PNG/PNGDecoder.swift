import CPNGCodec

/// Decodes PNG files of every colour type and bit depth to 8-bit RGBA.
///
/// The values are the raw samples, the ones pixelmatch (pngjs), Pillow and a browser's canvas
/// read: palettes and `tRNS` expanded, gray copied to red, green and blue, opaque images given
/// alpha 255, 16-bit samples scaled to 8 bits with rounding (`v * 255 / 65535`, so 16-bit sRGB
/// stays sRGB; pngjs rounds too, Pillow truncates to the high byte), interlacing resolved, and a
/// `gAMA` chunk *not* applied. The colour-space chunks
/// (`iCCP`, `sRGB`, `gAMA`, `cHRM`) are kept as the image's `colorSpace` when they describe
/// something other than sRGB, for comparisons to convert with.
///
/// ```swift
/// let image = try PNGDecoder().decode(contentsOf: "baselines/Home/Home.png")
/// print(image.width, image.height)
/// ```
public struct PNGDecoder: Sendable {
  /// The most pixels (`width × height`) an image may have; checked from the header, before
  /// anything is allocated. Default: 200 megapixels.
  public var maxPixels: Int

  public static let defaultMaxPixels = 200_000_000

  /// Whether screenshots (8-bit RGB or RGBA, not interlaced) may skip libpng's row loop for the
  /// fast path (same pixels, same errors: on anything unusual it hands over to libpng). Off only
  /// to compare the two paths in tests.
  public var usesFastPath = true

  /// What inflates screenshots' image data in the fast path, with its version:
  /// `libdeflate 1.23 (zlib 1.3.1 for images over 64 MB)` when snapdiff was built with
  /// libdeflate (its header installed), else `zlib 1.3.1`.
  public static var inflater: String { String(cString: cpng_inflater()) }

  public init(maxPixels: Int = PNGDecoder.defaultMaxPixels) {
    self.maxPixels = maxPixels
  }

  /// Reads and decodes the PNG file at `path`.
  ///
  /// - Throws: `FileError` when the file cannot be read, `PNGError` when it is not a valid PNG
  ///   or is over the size limit.
  /// - Complexity: O(width × height).
  public func decode(contentsOf path: String) throws -> RGBAImage {
    try decode(FileIO.read(path), path: path)
  }

  /// Decodes PNG `data`; `path` only names the source in errors.
  ///
  /// - Throws: `PNGError`.
  public func decode(_ data: [UInt8], path: String? = nil) throws(PNGError) -> RGBAImage {
    try data.withUnsafeBufferPointer { (bytes) throws(PNGError) -> RGBAImage in
      let reader = try Reader(bytes, path: path)
      defer { reader.close() }
      if !usesFastPath { cpng_reader_set_fast_path(reader.handle, 0) }
      let header = try reader.header()
      try check(header, path: path)
      // A header can claim far more rows than the file holds: prove the data is there first.
      try reader.checkImageData()
      let byteCount = header.width * header.height * 4
      // A little more than the image (a byte a row, and a margin): room for the fast path to
      // inflate into the end of the raster and unfilter in place, instead of inflating into a
      // second buffer as large as the image.
      let capacity = cpng_rgba_capacity(UInt32(header.width), UInt32(header.height))
      var failure: PNGError?
      let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        cpng_advise_huge_pages(buffer.baseAddress, buffer.count)
        failure = reader.readPixels(into: buffer)
        count = failure == nil ? byteCount : 0
      }
      if let failure { throw failure }
      var image = RGBAImage(width: header.width, height: header.height, pixels: pixels)
      image.colorSpace = Self.colorSpace(in: bytes)
      return image
    }
  }

  /// The colour space PNG `data` is tagged with, as `decode` sets it: `nil` for sRGB samples
  /// (untagged, an `sRGB` chunk, gamma 1/2.2), so that equal rasters stay equal images. For
  /// pixels that come from elsewhere (a cache of decoded baselines).
  public func colorSpace(of data: [UInt8]) -> ColorSpaceTag? {
    data.withUnsafeBufferPointer { Self.colorSpace(in: $0) }
  }

  private static func colorSpace(in bytes: UnsafeBufferPointer<UInt8>) -> ColorSpaceTag? {
    PNGColorChunks.colorSpace(in: bytes).flatMap { $0.isSRGB ? nil : $0 }
  }

  /// Reads the signature and the header of PNG `data` without decoding pixels, and checks the
  /// size limit.
  ///
  /// - Throws: `PNGError` for data that is not a PNG, a damaged header, or an image over the limit.
  public func header(of data: [UInt8], path: String? = nil) throws(PNGError) -> PNGHeader {
    try data.withUnsafeBufferPointer { (bytes) throws(PNGError) -> PNGHeader in
      let reader = try Reader(bytes, path: path)
      defer { reader.close() }
      let header = try reader.header()
      try check(header, path: path)
      return header
    }
  }

  private func check(_ header: PNGHeader, path: String?) throws(PNGError) {
    if header.width == 0 || header.height == 0 {
      throw PNGError(
        kind: .emptyImage, path: path, message: "the header says \(header.width)×\(header.height)")
    }
    let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
    if overflow || pixels > maxPixels {
      throw PNGError(
        kind: .tooLarge, path: path,
        message:
          "\(header.width)×\(header.height) is \(megapixels(header.width, header.height)) megapixels, over the limit of \(megapixels(maxPixels, 1))"
      )
    }
  }

  private func megapixels(_ width: Int, _ height: Int) -> String {
    let tenths = (Double(width) * Double(height) / 100_000).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0
      ? String(Int(tenths / 10)) : String(tenths / 10)
  }
}

/// One pass over one PNG through the C reader; `close()` frees it.
private struct Reader {
  let handle: OpaquePointer
  let path: String?

  init(_ bytes: UnsafeBufferPointer<UInt8>, path: String?) throws(PNGError) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw PNGError(kind: .notPNG, path: path, message: "the file is empty (0 bytes)")
    }
    guard let handle = cpng_reader_create(base, bytes.count) else {
      throw PNGError(kind: .outOfMemory, path: path, message: "cannot create a libpng reader")
    }
    self.handle = handle
    self.path = path
  }

  func header() throws(PNGError) -> PNGHeader {
    var raw = cpng_header()
    let status = cpng_reader_read_header(handle, &raw)
    guard status == CPNG_OK else { throw error(status) }
    return PNGHeader(
      width: Int(raw.width), height: Int(raw.height), bitDepth: Int(raw.bit_depth),
      colorType: PNGHeader.ColorType(rawValue: Int(raw.color_type)) ?? .rgba,
      isInterlaced: raw.interlaced != 0, hasTransparencyChunk: raw.has_trns != 0,
      hasGammaChunk: raw.has_gama != 0)
  }

  /// Checks from the chunk headers that the file can hold the rows its header declares.
  func checkImageData() throws(PNGError) {
    let status = cpng_reader_check_image_data(handle)
    guard status == CPNG_OK else { throw error(status) }
  }

  /// Decodes the pixels into `buffer` (the image's bytes first; the rest is scratch); the error,
  /// or `nil` on success.
  func readPixels(into buffer: UnsafeMutableBufferPointer<UInt8>) -> PNGError? {
    let status = cpng_reader_read_rgba(handle, buffer.baseAddress!, buffer.count)
    return status == CPNG_OK ? nil : error(status)
  }

  func close() { cpng_reader_destroy(handle) }

  private func error(_ status: cpng_error_kind) -> PNGError {
    let message = String(cString: cpng_reader_message(handle))
    let kind: PNGError.Kind =
      switch status {
      case CPNG_ERROR_NOT_PNG: .notPNG
      case CPNG_ERROR_TRUNCATED: .truncated
      case CPNG_ERROR_NO_MEMORY: .outOfMemory
      default: .corrupt
      }
    return PNGError(kind: kind, path: path, message: message)
  }
}
