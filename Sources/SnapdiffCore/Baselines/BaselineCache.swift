#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decoded baselines kept on disk between runs (`.snapdiff/cache/`), so that a warm `check`
/// decodes only the current frames: a baseline rarely changes, and reading its raw pixels back is
/// several times cheaper than inflating and unfiltering its PNG.
///
/// Entries are keyed by a 128-bit hash of the PNG's bytes (and its length), so an edited
/// baseline misses the cache by itself. The folder is safe to delete at any time, and bounded:
/// `trim()` removes the least recently used entries beyond `limit` bytes (default 2 GiB).
public struct BaselineCache: Sendable {
  public let directory: String
  public let limit: Int

  public static let defaultLimit = 2 << 30
  private static let magic: [UInt8] = Array("SNAPDIFF-RGBA-1\n".utf8)

  public init(directory: String, limit: Int = BaselineCache.defaultLimit) {
    self.directory = FileSystem.absolute(directory)
    self.limit = limit
  }

  /// The decoded pixels of the PNG `bytes` (from `path`): from the cache when they are there,
  /// else decoded and stored.
  ///
  /// - Throws: `PNGError` when the PNG is not valid (nothing is cached then).
  public func image(of bytes: [UInt8], path: String, decoder: PNGDecoder) throws -> RGBAImage {
    let entry = directory + "/" + Self.key(of: bytes) + ".rgba"
    if var image = read(entry, expectedPNGSize: bytes.count) {
      // Used: newest for the least-recently-used order.
      utimes(entry, nil)
      // The cache holds pixels only; the colour tag is read from the PNG's chunks.
      image.colorSpace = decoder.colorSpace(of: bytes)
      return image
    }
    let image = try decoder.decode(bytes, path: path)
    // A cache that cannot be written is no error: the run goes on without it.
    try? store(image, pngSize: bytes.count, at: entry)
    return image
  }

  /// Removes the least recently used entries until the cache is within its limit.
  public func trim() {
    guard let names = try? FileSystem.entries(of: directory) else { return }
    var entries: [(path: String, size: Int, used: Int)] = []
    for name in names where name.hasSuffix(".rgba") {
      var status = stat()
      let path = directory + "/" + name
      guard stat(path, &status) == 0 else { continue }
      entries.append((path, Int(status.st_size), Int(status.st_mtim.tv_sec)))
    }
    var total = entries.reduce(0) { $0 + $1.size }
    for entry in entries.sorted(by: { ($0.used, $0.path) < ($1.used, $1.path) }) where total > limit {
      unlink(entry.path)
      total -= entry.size
    }
  }

  private func read(_ entry: String, expectedPNGSize: Int) -> RGBAImage? {
    guard FileSystem.isFile(entry), let bytes = try? FileIO.read(entry) else { return nil }
    let header = Self.magic.count + 24
    guard bytes.count >= header, Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
    func field(_ index: Int) -> Int {
      var value = 0
      for byte in bytes[(Self.magic.count + index * 8)..<(Self.magic.count + index * 8 + 8)].reversed() {
        value = value << 8 | Int(byte)
      }
      return value
    }
    let width = field(0)
    let height = field(1)
    guard field(2) == expectedPNGSize, width > 0, height > 0,
      bytes.count == header + width * height * 4
    else { return nil }
    return RGBAImage(width: width, height: height, pixels: Array(bytes[header...]))
  }

  private func store(_ image: RGBAImage, pngSize: Int, at entry: String) throws {
    try FileSystem.createDirectories(directory)
    var bytes = Self.magic
    bytes.reserveCapacity(bytes.count + 24 + image.pixels.count)
    for value in [image.width, image.height, pngSize] {
      for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
    bytes += image.pixels
    try FileIO.writeAtomically(bytes, to: entry)
  }

  /// 128 bits of two independent multiply-rotate lanes over 8-byte words, plus the length: a
  /// cache key, not a cryptographic hash.
  static func key(of bytes: [UInt8]) -> String {
    var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F &+ UInt64(bytes.count)
    bytes.withUnsafeBytes { raw in
      let words = raw.count / 8
      for index in 0..<words {
        let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
        a = ((a ^ word) &* 0xFF51_AFD7_ED55_8CCD)
        a = (a << 31) | (a >> 33)
        b = ((b &+ word) &* 0xC4CE_B9FE_1A85_EC53)
        b = (b << 29) | (b >> 35)
      }
      for index in (words * 8)..<raw.count {
        a = (a ^ UInt64(raw[index])) &* 0x0000_0100_0000_01B3
        b = (b &+ UInt64(raw[index])) &* 0x9E37_79B9_7F4A_7C15
      }
    }
    func mix(_ value: UInt64) -> UInt64 {
      var z = value
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    func hex(_ value: UInt64) -> String {
      let text = String(value, radix: 16)
      return String(repeating: "0", count: 16 - text.count) + text
    }
    return hex(mix(a)) + hex(mix(b ^ a))
  }
}
