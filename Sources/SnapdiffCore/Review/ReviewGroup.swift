/// Failed snapshots of one run a reviewer accepts or refuses as one: those with the same change
/// (`changeHash`, the same pixels changed the same way: the strongest tier), joined by those
/// whose change is the same kind of edit (`SimilarChange`: the same colour replaced by the same
/// colour, the same elements changed the same way, the same rendering-only difference), wherever
/// it sits and whatever else differs. A brand colour changed on 12 screens with 12 titles is one
/// group, not 12 changes.
///
/// The one rule for grouping: the reports' and the review page's groups, `status`'s lines and
/// `approve --same-as KEY` (every snapshot in KEY's group) all come from ``groups(of:)``.
///
/// ```swift
/// for group in record.reviewGroups {
///   print("\(group.keys.count) snapshots: \(group.description)")
/// }
/// ```
public struct ReviewGroup: Sendable, Equatable {
  /// How sure the grouping is.
  public enum Tier: String, Sendable {
    /// Every member has the same change to the pixel (one `changeHash`).
    case exact
    /// The members' changes are the same kind of edit, their pixels differ.
    case similar
  }

  public var tier: Tier
  /// The members' keys, sorted; at least two.
  public var keys: [String]
  /// For `exact`: the change the members share.
  public var changeHash: String?
  /// For `similar`: the edit in words (`colour #1E88E5 → #E53935`); several kinds joined by
  /// `; ` when identical changes bridged them.
  public var edit: String?
  /// For `similar`: how many members share their exact change with another member, and in how
  /// many distinct changes those are (the exact groups inside this one).
  public var identicalMembers: Int
  public var identicalChanges: Int

  /// The group in words: `the same pixels changed the same way` or
  /// `the same kind of edit: colour #1E88E5 → #E53935`.
  public var description: String {
    switch tier {
    case .exact: return "the same pixels changed the same way"
    case .similar: return "the same kind of edit: " + (edit ?? "")
    }
  }

  /// The groups among `snapshots` (every one is considered; a caller passes the ones a reviewer
  /// can act on), the largest first, then by first key. Two snapshots are in one group when
  /// they have the same `changeHash` or the same `SimilarChange` signature, and transitively.
  public static func groups(of snapshots: [SnapshotRecord]) -> [ReviewGroup] {
    var sets = DisjointSets(count: snapshots.count)
    var firstByHash: [String: Int] = [:]
    var firstBySignature: [String: Int] = [:]
    var similar: [Int: SimilarChange] = [:]
    for (index, snapshot) in snapshots.enumerated() {
      if let hash = snapshot.changeHash {
        if let first = firstByHash[hash] { sets.join(first, index) } else { firstByHash[hash] = index }
      }
      if let change = SimilarChange(snapshot) {
        similar[index] = change
        if let first = firstBySignature[change.signature] {
          sets.join(first, index)
        } else {
          firstBySignature[change.signature] = index
        }
      }
    }
    var members: [Int: [Int]] = [:]
    for index in snapshots.indices { members[sets.root(index), default: []].append(index) }
    return members.values.compactMap { indices -> ReviewGroup? in
      guard indices.count >= 2 else { return nil }
      let keys = indices.map { snapshots[$0].key }.sorted()
      let hashes = indices.map { snapshots[$0].changeHash }
      if let hash = hashes[0], hashes.allSatisfy({ $0 == hash }) {
        return ReviewGroup(
          tier: .exact, keys: keys, changeHash: hash, edit: nil, identicalMembers: keys.count, identicalChanges: 1)
      }
      var edits: [String] = []
      for index in indices {
        if let words = similar[index]?.description, !edits.contains(words) { edits.append(words) }
      }
      var countByHash: [String: Int] = [:]
      for hash in hashes.compactMap({ $0 }) { countByHash[hash, default: 0] += 1 }
      let shared = countByHash.values.filter { $0 >= 2 }
      return ReviewGroup(
        tier: .similar, keys: keys, changeHash: nil, edit: edits.sorted().joined(separator: "; "),
        identicalMembers: shared.reduce(0, +), identicalChanges: shared.count)
    }
    .sorted { ($1.keys.count, $0.keys[0]) < ($0.keys.count, $1.keys[0]) }
  }

  /// The group of `key` among `snapshots` (which hold it): its members' keys, itself alone
  /// when it is in none.
  static func members(of key: String, among snapshots: [SnapshotRecord]) -> [String] {
    let matches = { (candidate: String) in candidate.utf8.elementsEqual(key.utf8) }
    return groups(of: snapshots).first { $0.keys.contains(where: matches) }?.keys ?? [key]
  }
}

extension RunRecord {
  /// The failed snapshots' groups (``ReviewGroup/groups(of:)``), the largest first. A change
  /// only one snapshot has is not a group.
  public var reviewGroups: [ReviewGroup] {
    ReviewGroup.groups(of: snapshots.filter { $0.status == .failed && $0.error == nil })
  }
}
