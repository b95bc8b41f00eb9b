/// Failed snapshots of one run grouped by the kind of difference they found
/// (`DifferenceClass.group`): after an Xcode update, "212 snapshots differ only by rendering" is
/// one group a reviewer approves with `snapdiff approve --difference rendering`, and the real
/// changes stand apart. Beside `ReviewGroup`, which groups the same change or the same kind of edit.
public struct DifferenceGroup: Sendable, Equatable {
  /// `rendering`, or a kind's name (`shifted`, `color`, `element`, …).
  public var group: String
  /// The snapshots' keys, sorted.
  public var keys: [String]

  /// `212 snapshots differ only by rendering (…)`.
  public var sentence: String {
    "\(keys.count) snapshot\(keys.count == 1 ? "" : "s") \(DifferenceClass.groupDescription(group))"
  }
}

extension RunRecord {
  /// The failed snapshots by kind of difference, in `DifferenceClass.groups`' order (rendering
  /// first); snapshots compared before differences were classified are in no group.
  public var differenceGroups: [DifferenceGroup] {
    var keysByGroup: [String: [String]] = [:]
    for snapshot in snapshots where snapshot.status == .failed && snapshot.error == nil {
      guard let difference = snapshot.difference else { continue }
      keysByGroup[difference.group, default: []].append(snapshot.key)
    }
    return DifferenceClass.groups.compactMap { group in
      keysByGroup[group].map { DifferenceGroup(group: group, keys: $0.sorted()) }
    }
  }
}
