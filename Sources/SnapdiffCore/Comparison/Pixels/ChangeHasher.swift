/// A 64-bit FNV-1a hash of a change: the counted pixels' positions and colours, in scan order.
///
/// Equal changes give equal hashes on every machine (no seeds, no randomness), which is what
/// `approve --same-as` and `reject` compare.
struct ChangeHasher {
  private static let prime: UInt64 = 0x0000_0100_0000_01B3
  private var state: UInt64 = 0xCBF2_9CE4_8422_2325

  @inline(__always)
  private mutating func mix(_ value: UInt64) {
    var value = value
    for _ in 0..<8 {
      state = (state ^ (value & 0xff)) &* Self.prime
      value >>= 8
    }
  }

  /// A counted pixel at `index` (row-major) with its two colours.
  @inline(__always)
  mutating func add(index: Int, _ first: UInt32, _ second: UInt32) {
    mix(UInt64(truncatingIfNeeded: index))
    mix(UInt64(first) | UInt64(second) << 32)
  }

  /// A run of pixels outside the overlap of two differently sized images.
  mutating func add(outsideSpan start: Int, count: Int) {
    mix(UInt64(truncatingIfNeeded: start) | 1 << 63)
    mix(UInt64(truncatingIfNeeded: count))
  }

  /// The hash of the overlap's comparison.
  mutating func add(innerHash: String?) {
    if let innerHash, let value = UInt64(innerHash, radix: 16) { mix(value) }
  }

  /// The hex digest, the sizes mixed in last.
  func finish(baseline: PixelSize, current: PixelSize) -> String {
    var copy = self
    copy.mix(UInt64(baseline.width) << 32 | UInt64(baseline.height))
    copy.mix(UInt64(current.width) << 32 | UInt64(current.height))
    let hex = String(copy.state, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
