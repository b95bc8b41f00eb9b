import CLZ4
import CPNGCodec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decoded baselines kept on disk between runs (`.snapdiff/cache/`), so that a warm `check`
/// decodes only the current frames: a baseline rarely changes, and reading its pixels back as an
/// LZ4 block is several times cheaper than inflating and unfiltering its PNG (and the block is
/// about 1.7 times the PNG's size, where raw RGBA was 15 times).
///
/// Entries are keyed by a 128-bit hash of the PNG's bytes (and its length), so an edited
/// baseline misses the cache by itself. The folder is safe to delete at any time, and bounded:
/// `trim()` removes the least recently used entries beyond `limit` bytes (default 2 GiB).
///
/// Nothing in an entry is trusted: its size fields are checked with overflow-safe arithmetic
/// against the decoder's pixel limit and the PNG's header, it must name the PNG it was made from
/// (length and hash),
/// its checksum must cover every byte before it, and the block must inflate to exactly
/// `width × height × 4` bytes (LZ4's safe decoder: never a read or write out of bounds). An entry
/// that fails any of these is a miss: removed, and replaced by a fresh decode. The checksum finds
/// damage (a cut file, a flipped bit, pixels written over the block), not forgery: whoever can
/// rewrite the cache can rewrite the baselines too.
public struct BaselineCache: Sendable {
  public let directory: String
  public let limit: Int

  public static let defaultLimit = 2 << 30

  /// The entry format (little-endian):
  ///
  ///     0   16  magic "SNAPDIFF-RGBA-2\n"
  ///     16   8  width          24  8  height
  ///     32   8  the PNG's length
  ///     40  32  the PNG's hash (`key(of:)`, hexadecimal: the entry's file name)
  ///     72   …  the pixels, one LZ4 block of width × height × 4 bytes
  ///     end-16  16  checksum (`hash128`) of every byte before it
  static let magic: [UInt8] = Array("SNAPDIFF-RGBA-2\n".utf8)
  static let headerSize = 72
  static let checksumSize = 16

  public init(directory: String, limit: Int = BaselineCache.defaultLimit) {
    self.directory = FileSystem.absolute(directory)
    self.limit = limit
  }

  /// The decoded pixels of the PNG `bytes` (from `path`): from the cache when a valid entry is
  /// there, else decoded and stored.
  ///
  /// - Throws: `PNGError` when the PNG is not valid (nothing is cached then).
  public func image(of bytes: [UInt8], path: String, decoder: PNGDecoder) throws -> RGBAImage {
    let key = Self.key(of: bytes)
    let entry = directory + "/" + key + ".rgba"
    if FileSystem.isFile(entry) {
      if let stored = try? FileIO.read(entry, limit: 1 << 32),
        var image = Self.decodeEntry(stored, key: key, png: bytes, maxPixels: decoder.maxPixels)
      {
        // Used: newest for the least-recently-used order.
        utimes(entry, nil)
        // The cache holds pixels only; the colour tag is read from the PNG's chunks.
        image.colorSpace = decoder.colorSpace(of: bytes)
        return image
      }
      // A bad entry (damaged, an older format, another PNG's): a miss; the store below replaces it.
      unlink(entry)
    }
    let image = try decoder.decode(bytes, path: path)
    // A cache that cannot be written is no error: the run goes on without it.
    if let encoded = Self.encodeEntry(image, key: key, pngSize: bytes.count) {
      try? FileSystem.createDirectories(directory)
      try? FileIO.writeAtomically(encoded, to: entry)
    }
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
      entries.append((path, Int(status.st_size), Int(status.modificationTime.tv_sec)))
    }
    var total = entries.reduce(0) { $0 + $1.size }
    for entry in entries.sorted(by: { ($0.used, $0.path) < ($1.used, $1.path) }) where total > limit {
      unlink(entry.path)
      total -= entry.size
    }
  }

  /// The image in entry `bytes`, or `nil` when the entry is not a valid one for `png` (whose
  /// hash is `key`: its length, hash and header's size), or holds more than `maxPixels`. Never
  /// traps, whatever the bytes.
  static func decodeEntry(_ bytes: [UInt8], key: String, png: [UInt8], maxPixels: Int) -> RGBAImage? {
    guard bytes.count >= headerSize + checksumSize, bytes[0..<magic.count].elementsEqual(magic) else { return nil }
    let width = field(bytes, at: 16)
    let height = field(bytes, at: 24)
    guard field(bytes, at: 32) == UInt64(png.count), bytes[40..<72].elementsEqual(key.utf8),
      let size = Self.declaredSize(png), width == size.width, height == size.height
    else { return nil }
    // Overflow-safe: each side at most 2^31 (PNG's limit), their product at most maxPixels.
    guard width > 0, height > 0, width <= UInt64(Int32.max), height <= UInt64(Int32.max) else { return nil }
    let (pixels, overflow) = (Int(width)).multipliedReportingOverflow(by: Int(height))
    guard !overflow, pixels <= maxPixels, pixels <= Int(CLZ4_MAX_INPUT_SIZE) / 4 else { return nil }
    let body = bytes.count - checksumSize
    let expected = hash128(bytes, count: body)
    guard field(bytes, at: body) == expected.0, field(bytes, at: body + 8) == expected.1 else { return nil }
    let byteCount = pixels * 4
    var inflated = 0
    let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
      cpng_advise_huge_pages(buffer.baseAddress, byteCount)
      inflated = bytes.withUnsafeBytes { raw in
        Int(
          LZ4_decompress_safe(
            raw.baseAddress!.advanced(by: headerSize).assumingMemoryBound(to: CChar.self),
            UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
            Int32(body - headerSize), Int32(byteCount)))
      }
      count = inflated == byteCount ? byteCount : 0
    }
    guard inflated == byteCount else { return nil }
    return RGBAImage(width: Int(width), height: Int(height), pixels: output)
  }

  /// The entry for `image`, decoded from the PNG with this `key` and length; `nil` when LZ4
  /// cannot take it (over 2 GB).
  static func encodeEntry(_ image: RGBAImage, key: String, pngSize: Int) -> [UInt8]? {
    let raw = image.pixels.count
    guard raw > 0, raw <= Int(CLZ4_MAX_INPUT_SIZE) else { return nil }
    let bound = Int(LZ4_compressBound(Int32(raw)))
    return [UInt8](unsafeUninitializedCapacity: headerSize + bound + checksumSize) { buffer, count in
      var offset = 0
      func put(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
          buffer[offset] = byte
          offset += 1
        }
      }
      put(magic)
      for value in [UInt64(image.width), UInt64(image.height), UInt64(pngSize)] {
        put((0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
      }
      put(key.utf8)
      let compressed = image.pixels.withUnsafeBytes { pixels in
        Int(
          LZ4_compress_default(
            pixels.baseAddress!.assumingMemoryBound(to: CChar.self),
            UnsafeMutableRawPointer(buffer.baseAddress! + headerSize).assumingMemoryBound(to: CChar.self),
            Int32(raw), Int32(bound)))
      }
      guard compressed > 0 else {
        count = 0
        return
      }
      offset = headerSize + compressed
      let checksum = hash128(UnsafeBufferPointer(rebasing: buffer[0..<offset]))
      put((0..<8).map { UInt8(truncatingIfNeeded: checksum.0 >> ($0 * 8)) })
      put((0..<8).map { UInt8(truncatingIfNeeded: checksum.1 >> ($0 * 8)) })
      count = offset
    }.nilIfEmpty
  }

  /// The width and height in the IHDR chunk that must open `png`, unchecked (the entry was
  /// written after the PNG decoded).
  private static func declaredSize(_ png: [UInt8]) -> (width: UInt64, height: UInt64)? {
    guard png.count >= 24, png[12..<16].elementsEqual("IHDR".utf8) else { return nil }
    func be32(_ offset: Int) -> UInt64 { (0..<4).reduce(0) { $0 << 8 | UInt64(png[offset + $1]) } }
    return (be32(16), be32(20))
  }

  private static func field(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (offset..<offset + 8).reversed() { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  /// The cache key of PNG `bytes`: `hash128` in hexadecimal (32 characters).
  static func key(of bytes: [UInt8]) -> String {
    let (a, b) = hash128(bytes, count: bytes.count)
    func hex(_ value: UInt64) -> String {
      let text = String(value, radix: 16)
      return String(repeating: "0", count: 16 - text.count) + text
    }
    return hex(a) + hex(b)
  }

  package static func hash128(_ bytes: [UInt8], count: Int) -> (UInt64, UInt64) {
    bytes.withUnsafeBufferPointer { hash128(UnsafeBufferPointer(rebasing: $0[0..<count])) }
  }

  /// 128 bits of two independent multiply-rotate lanes over 8-byte words, plus the length: a
  /// cache key and a checksum against damage, not a cryptographic hash.
  static func hash128(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F &+ UInt64(bytes.count)
    let raw = UnsafeRawBufferPointer(bytes)
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
    func mix(_ value: UInt64) -> UInt64 {
      var z = value
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    return (mix(a), mix(b ^ a))
  }
}

extension Array {
  fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
