import SnapdiffCore

/// Small PNGs of a run's images for the review page's cards, made once and kept on disk.
///
/// A thumbnail is the image scaled down to fit 240×480 pixels (an average over each source
/// block, so thin text and 1-px lines fade instead of vanishing or aliasing), with the changed
/// regions outlined when asked, encoded with the engine's fast PNG encoder. It is written to
/// `<data>/thumbnails/` under a name made from the source's fingerprint (inode, size,
/// modification time: `RecordFingerprint`) and the regions, so the next request reads the
/// file, and an image replaced later (an approved baseline) gets a new thumbnail. A phone
/// screenshot of 1170×2532 pixels (about 700 KiB) becomes about 15 KiB.
struct Thumbnails: Sendable {
  static let maxWidth = 240
  static let maxHeight = 480

  /// `<data>/thumbnails`.
  let directory: String
  let decoder: PNGDecoder

  /// The cached thumbnail of the PNG at `source`, made now if there is none yet.
  ///
  /// - Parameters:
  ///   - source: A resolved path to a PNG the caller may serve.
  ///   - regions: Rectangles (source pixels) to outline, or none.
  /// - Returns: The thumbnail's path.
  /// - Throws: `PNGError` for a source that cannot be decoded, `FileError` when the cache
  ///   cannot be written.
  func thumbnail(of source: String, outlining regions: [SnapshotRecord.Region]) throws -> String {
    guard let fingerprint = RecordFingerprint.of(source) else {
      throw FileError(path: source, message: "cannot be read")
    }
    let outline = regions.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ";")
    let name = Self.hash(source + "\u{0}" + fingerprint + "\u{0}" + outline) + ".png"
    let path = directory + "/" + name
    if FileSystem.isFile(path) { return path }
    let image = try decoder.decode(contentsOf: source)
    var small = Self.scaledDown(image)
    Self.outline(regions, in: &small, scale: Double(small.width) / Double(max(image.width, 1)))
    try FileSystem.createDirectories(directory)
    try FileIO.writeAtomically(try PNGEncoder(speed: .fast).encode(small), to: path)
    return path
  }

  /// `image` fitted into `maxWidth`×`maxHeight` (never enlarged): each target pixel the mean of
  /// the source pixels it covers.
  static func scaledDown(_ image: RGBAImage) -> RGBAImage {
    let scale = max(1, Double(image.width) / Double(maxWidth), Double(image.height) / Double(maxHeight))
    if scale == 1 { return image }
    let width = max(1, Int((Double(image.width) / scale).rounded()))
    let height = max(1, Int((Double(image.height) / scale).rounded()))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        for ty in 0..<height {
          let y0 = ty * image.height / height
          let y1 = max(y0 + 1, (ty + 1) * image.height / height)
          for tx in 0..<width {
            let x0 = tx * image.width / width
            let x1 = max(x0 + 1, (tx + 1) * image.width / width)
            var sums: (Int, Int, Int, Int) = (0, 0, 0, 0)
            for y in y0..<y1 {
              var offset = (y &* image.width &+ x0) &* 4
              for _ in x0..<x1 {
                sums.0 &+= Int(source[offset])
                sums.1 &+= Int(source[offset &+ 1])
                sums.2 &+= Int(source[offset &+ 2])
                sums.3 &+= Int(source[offset &+ 3])
                offset &+= 4
              }
            }
            let count = (y1 - y0) * (x1 - x0)
            let out = (ty &* width &+ tx) &* 4
            target[out] = UInt8(sums.0 / count)
            target[out &+ 1] = UInt8(sums.1 / count)
            target[out &+ 2] = UInt8(sums.2 / count)
            target[out &+ 3] = UInt8(sums.3 / count)
          }
        }
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  /// Outlines each region (scaled by `scale`) with a 2-px box, grown by a pixel so that it
  /// surrounds the change rather than covering it; the viewer's boxes have the same colour.
  static func outline(_ regions: [SnapshotRecord.Region], in image: inout RGBAImage, scale: Double) {
    let color = RGBAColor(red: 255, green: 45, blue: 85)
    for region in regions {
      let left = Int((Double(region.x) * scale).rounded(.down)) - 2
      let top = Int((Double(region.y) * scale).rounded(.down)) - 2
      let right = Int((Double(region.x + region.width) * scale).rounded(.up)) + 1
      let bottom = Int((Double(region.y + region.height) * scale).rounded(.up)) + 1
      for y in top...bottom where y >= 0 && y < image.height {
        for x in left...right where x >= 0 && x < image.width {
          let edge = y < top + 2 || y > bottom - 2 || x < left + 2 || x > right - 2
          if edge { image[x: x, y: y] = color }
        }
      }
    }
  }

  /// 64-bit FNV-1a of `text`, as 16 hex digits: a file name.
  static func hash(_ text: String) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value &*= 0x100_0000_01b3
    }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension RunService {
  /// The thumbnail of one of a snapshot's images (``Thumbnails``), its changed regions outlined
  /// on the current frame; the same checks as ``image(run:key:kind:)`` first.
  func thumbnail(run id: String, key: String, kind: ImageKind) throws -> String {
    let source = try image(run: id, key: key, kind: kind)
    let (_, record) = try record(id)
    let regions = kind == .current ? record.snapshots.first { $0.key == key }?.regions ?? [] : []
    let thumbnails = Thumbnails(directory: configuration.dataDirectory + "/thumbnails", decoder: configuration.decoder)
    return try thumbnails.thumbnail(of: source, outlining: regions)
  }
}
