/// Indices `0..<count` joined into sets (union–find with path halving): what groups things that
/// belong together transitively, such as pieces of one moved element (`MovedElements`) or
/// snapshots with the same change (`ReviewGroup`).
///
/// ```swift
/// var sets = DisjointSets(count: 3)
/// sets.join(0, 2)
/// sets.root(2) == sets.root(0)  // true
/// ```
struct DisjointSets {
  private var parent: [Int]

  init(count: Int) { parent = Array(0..<count) }

  /// The set's representative: its smallest index.
  mutating func root(_ index: Int) -> Int {
    var index = index
    while parent[index] != index {
      parent[index] = parent[parent[index]]
      index = parent[index]
    }
    return index
  }

  /// `first`'s and `second`'s sets made one.
  mutating func join(_ first: Int, _ second: Int) {
    let (a, b) = (root(first), root(second))
    if a != b { parent[max(a, b)] = min(a, b) }
  }
}
