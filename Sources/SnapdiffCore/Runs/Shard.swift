/// One of `count` parts of a run, for CI jobs that check a run's frames side by side:
/// `snapdiff check FRAMES --shard 2/4` checks the keys of part 2, and `snapdiff merge` joins
/// the parts' runs into one.
///
/// A key's part depends on its bytes alone (FNV-1a, 64-bit), so every job, on every machine,
/// puts a key in the same part, whatever else the folder holds.
///
/// ```swift
/// let shard = try Shard("2/4")
/// shard.contains(SnapshotKey("Home - test_search/Home"))   // the same answer everywhere
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  /// This part, from 1.
  public let index: Int
  /// How many parts.
  public let count: Int

  /// - Throws: `RunError` unless `text` is `i/n` with 1 ≤ i ≤ n ≤ 1000.
  public init(_ text: String) throws(RunError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
      (1...1000).contains(count), (1...count).contains(index)
    else {
      throw RunError("'\(text)' is not a shard: write i/n, as 2/4 for the second of four parts (1 ≤ i ≤ n ≤ 1000)")
    }
    self.index = index
    self.count = count
  }

  /// `2/4`.
  public var description: String { "\(index)/\(count)" }

  /// Whether `key` belongs to this part.
  public func contains(_ key: SnapshotKey) -> Bool {
    Self.part(of: key.rawValue, count: count) == index
  }

  /// The part (from 1) of `count` a key's bytes fall in.
  static func part(of key: String, count: Int) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return Int(hash % UInt64(count)) + 1
  }
}
