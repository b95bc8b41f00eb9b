#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which rows of two rasters of one size differ, found with a `memcmp` a row on two threads.
///
/// Counting two screenshots is mostly proving rows equal: the kernel compares a row with
/// `memcmp` and looks at its pixels only when it differs. For large images that proof (both
/// rasters read once, 24 MB for an iPhone pair) is taken here on both cores, top half and bottom
/// half at once, instead of on one while the other idles; the kernel then visits only the rows
/// marked. It also answers whether the images are identical, which the whole-image `memcmp`
/// answered before (stopping at the first difference, but reading everything for decoded-equal
/// pairs, the common case of a `check`).
struct DifferingRows {
  /// One flag a row: `true` where the row's bytes differ.
  let flags: [Bool]

  /// Rasters smaller than this many bytes are compared on one thread (a thread's start is not
  /// worth it): 1 MB, about 500×500 pixels.
  static let twoThreadBytes = 1 << 20

  /// Whether no row differs.
  var noneDiffer: Bool { !flags.contains(true) }

  /// Compares `height` rows of `rowBytes` bytes of `a` and `b`.
  ///
  /// - Complexity: O(rowBytes × height), on two threads when the rasters are large.
  init(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, rowBytes: Int, height: Int) {
    let parts = rowBytes &* height >= Self.twoThreadBytes && height >= 2 ? 2 : 1
    flags = [Bool](unsafeUninitializedCapacity: height) { buffer, count in
      let out = UncheckedSendable(buffer.baseAddress!)
      let first = UncheckedSendable(a)
      let second = UncheckedSendable(b)
      let compare = { @Sendable (part: Int) in
        let start = height &* part / parts
        let end = height &* (part &+ 1) / parts
        for y in start..<end {
          out.value[y] = memcmp(first.value + y &* rowBytes, second.value + y &* rowBytes, rowBytes) != 0
        }
      }
      if parts == 1 {
        compare(0)
      } else {
        TwoThreads.run({ compare(0) }, { compare(1) })
      }
      count = height
    }
  }
}

/// A pointer handed to the two threads of `DifferingRows`: each writes only its own rows, and
/// `TwoThreads.run` returns after both.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
