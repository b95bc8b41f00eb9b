/// The one rule for `missing`: a baseline of the store (its root, and its environment folder
/// when the run has one; its branch overlays too) whose key the run did not receive, nor skip. `check` on a whole
/// frames folder, `merge` over the union of its parts, and a service run closed with
/// `complete` all ask this.
///
/// A service run's client may narrow what it vouches for: `expected` keys (only those can be
/// missing) or a key `prefix` (a shard that posts `Login*` says nothing of `Home*`).
///
/// ```swift
/// let gone = try MissingBaselines.keys(in: store, received: Set(received))
/// ```
public enum MissingBaselines {
  public static func keys(
    in store: BaselineStore, received: Set<SnapshotKey>, expected: Set<SnapshotKey>? = nil, prefix: String? = nil
  ) throws -> [SnapshotKey] {
    try store.visibleKeys().subtracting(received).filter { key in
      (expected?.contains(key) ?? true) && (prefix.map { key.rawValue.utf8.starts(with: $0.utf8) } ?? true)
    }.sorted()
  }
}
