import SnapdiffCore

/// Small PNGs of a run's images for the review page's cards, made once and kept on disk.
///
/// A thumbnail is SnapdiffCore's `Thumbnail` (the image fitted into 240×480 pixels, the changed
/// regions outlined when asked), encoded with the engine's fast PNG encoder. It is written to
/// `<data>/thumbnails/` under a name made from the source's fingerprint (inode, size,
/// modification time: `RecordFingerprint`) and the regions, so the next request reads the
/// file, and an image replaced later (an approved baseline) gets a new thumbnail.
struct Thumbnails: Sendable {
  static let maxWidth = Thumbnail.maxWidth
  static let maxHeight = Thumbnail.maxHeight

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
    let small = Thumbnail.make(of: try decoder.decode(contentsOf: source), outlining: regions)
    try FileSystem.createDirectories(directory)
    try FileIO.writeAtomically(try PNGEncoder(speed: .fast).encode(small), to: path)
    return path
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
