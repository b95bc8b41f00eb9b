/// Failed snapshots of one run that changed the same way: the same pixels, the same colours
/// before and after (the same `changeHash`), so a reviewer accepts or refuses them as one, with
/// `snapdiff approve --same-as KEY` or the group's button on the review page.
///
/// ```swift
/// for group in record.changeGroups {
///   print("\(group.keys.count) snapshots share one change: \(group.keys.joined(separator: ", "))")
/// }
/// ```
public struct ChangeGroup: Sendable, Equatable {
  /// The change the snapshots share (`SnapshotRecord.changeHash`).
  public var changeHash: String
  /// The snapshots' keys, sorted; at least two.
  public var keys: [String]
}

extension RunRecord {
  /// The changes two or more failed snapshots share, the largest group first (then by first
  /// key). A change only one snapshot has is not a group.
  public var changeGroups: [ChangeGroup] {
    var keysByChange: [String: [String]] = [:]
    for snapshot in snapshots where snapshot.status == .failed && snapshot.error == nil {
      guard let hash = snapshot.changeHash else { continue }
      keysByChange[hash, default: []].append(snapshot.key)
    }
    return keysByChange.compactMap { hash, keys in
      keys.count < 2 ? nil : ChangeGroup(changeHash: hash, keys: keys.sorted())
    }
    .sorted { ($1.keys.count, $0.keys[0]) < ($0.keys.count, $1.keys[0]) }
  }
}
