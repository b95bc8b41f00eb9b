import CHashing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SHA-256 (FIPS 180-4): what names a blob in the blob store.
///
/// Foundation on Linux has no CryptoKit, and swift-crypto would bring BoringSSL into every
/// target for one function. On x86-64 processors with the SHA extensions (SHA-NI; cpuid asked
/// once) the blocks go through `sha256rnds2`/`sha256msg1`/`sha256msg2` in C
/// (`Sources/CHashing/CSHA256.c`); elsewhere through the standard's algorithm in plain Swift,
/// one 64-byte block at a time. Both are checked against the standard's test vectors and
/// against each other (`BlobStoreTests`).
///
/// ```swift
/// SHA256.hex(Array("abc".utf8))  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
public enum SHA256 {
  /// Whether this processor runs the SHA-NI path (x86-64 with the SHA extensions).
  /// SNAPDIFF_PORTABLE_SHA256=1 in the environment keeps the plain-Swift path (to time one
  /// against the other in the same build: scripts/bench/check_cache.sh).
  public static let usesHardware: Bool =
    csha256_hardware() != 0 && getenv("SNAPDIFF_PORTABLE_SHA256") == nil

  /// The digest of `bytes` as 64 lowercase hexadecimal digits.
  ///
  /// - Complexity: O(n), one pass.
  public static func hex(_ bytes: [UInt8]) -> String { hexDigits(digest(bytes)) }

  /// The digest by the plain-Swift rounds whatever the processor, as 64 hexadecimal digits: the
  /// reference the SHA-NI path is tested against.
  public static func portableHex(_ bytes: [UInt8]) -> String { hexDigits(portableDigest(bytes)) }

  private static func hexDigits(_ digest: [UInt32]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for word in digest {
      for shift in stride(from: 28, through: 0, by: -4) {
        text.append(digits[Int((word >> UInt32(shift)) & 0xF)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The digest of `bytes` as eight words (H0…H7; written out big-endian).
  public static func digest(_ bytes: [UInt8]) -> [UInt32] {
    guard usesHardware else { return portableDigest(bytes) }
    return [UInt32](unsafeUninitializedCapacity: 8) { words, count in
      bytes.withUnsafeBufferPointer { message in
        csha256_digest(message.baseAddress, message.count, words.baseAddress!)
      }
      count = 8
    }
  }

  /// The digest by the plain-Swift rounds.
  static func portableDigest(_ bytes: [UInt8]) -> [UInt32] {
    var state: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    // The message, then 0x80, zeros to 56 mod 64, and the length in bits, big-endian.
    let fullBlocks = bytes.count / 64
    var tail = Array(bytes[(fullBlocks * 64)...])
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    let bitLength = UInt64(bytes.count) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    var schedule = [UInt32](repeating: 0, count: 64)
    schedule.withUnsafeMutableBufferPointer { w in
      state.withUnsafeMutableBufferPointer { h in
        bytes.withUnsafeBufferPointer { message in
          for block in 0..<fullBlocks { compress(message.baseAddress! + block * 64, w, h) }
        }
        tail.withUnsafeBufferPointer { rest in
          for block in 0..<(rest.count / 64) { compress(rest.baseAddress! + block * 64, w, h) }
        }
      }
    }
    return state
  }

  /// The round constants: the first 32 bits of the fractional parts of the cube roots of the
  /// first 64 primes.
  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  @inline(__always)
  private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

  /// One 64-byte block into the state (FIPS 180-4 §6.2.2).
  private static func compress(
    _ block: UnsafePointer<UInt8>, _ w: UnsafeMutableBufferPointer<UInt32>, _ h: UnsafeMutableBufferPointer<UInt32>
  ) {
    for t in 0..<16 {
      let p = block + t &* 4
      w[t] = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }
    for t in 16..<64 {
      let s0 = rotr(w[t &- 15], 7) ^ rotr(w[t &- 15], 18) ^ (w[t &- 15] >> 3)
      let s1 = rotr(w[t &- 2], 17) ^ rotr(w[t &- 2], 19) ^ (w[t &- 2] >> 10)
      w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
    }
    var a = h[0]
    var b = h[1]
    var c = h[2]
    var d = h[3]
    var e = h[4]
    var f = h[5]
    var g = h[6]
    var hh = h[7]
    k.withUnsafeBufferPointer { k in
      for t in 0..<64 {
        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let choice = (e & f) ^ (~e & g)
        let t1 = hh &+ s1 &+ choice &+ k[t] &+ w[t]
        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        let t2 = s0 &+ majority
        hh = g
        g = f
        f = e
        e = d &+ t1
        d = c
        c = b
        b = a
        a = t1 &+ t2
      }
    }
    h[0] = h[0] &+ a
    h[1] = h[1] &+ b
    h[2] = h[2] &+ c
    h[3] = h[3] &+ d
    h[4] = h[4] &+ e
    h[5] = h[5] &+ f
    h[6] = h[6] &+ g
    h[7] = h[7] &+ hh
  }
}
