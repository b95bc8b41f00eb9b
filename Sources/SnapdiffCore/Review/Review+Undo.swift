extension Review {
  /// The snapshots of `record` an undo's selection picks: among those this run approved (not
  /// those it took over from another run's approval, `SnapshotRecord.approvedIn`), the keys and
  /// globs, `sameAs`, `difference` or `all` name.
  ///
  /// - Throws: `RunError` when a selector names no snapshot this run approved.
  public static func selectApproved(_ selection: Selection, in record: RunRecord) throws -> [SnapshotRecord] {
    let approved = record.snapshots.filter { $0.status == .approved && $0.approvedIn == nil }
    var chosen = Set<[UInt8]>()
    if selection.all { chosen.formUnion(approved.map { Array($0.key.utf8) }) }
    for pattern in selection.patterns {
      let matches = try named(by: pattern, among: approved).matches
      if matches.isEmpty { throw RunError("no snapshot approved in run \(record.id) matches '\(pattern)'") }
      chosen.formUnion(matches.map { Array($0.key.utf8) })
    }
    if let key = selection.sameAs {
      guard let reference = record.snapshots.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else {
        throw RunError("no snapshot '\(key)' in run \(record.id)")
      }
      guard reference.changeHash != nil else { throw RunError("'\(key)' has no change to match") }
      // The group approve's `--same-as` picks (`ReviewGroup`): the same change, or the same kind
      // of edit, so an undo takes back what the same selector approved.
      let others = approved.filter { $0.changeHash != nil && !$0.keyBytes.elementsEqual(reference.keyBytes) }
      let members = Set(ReviewGroup.members(of: key, among: [reference] + others).map { Array($0.utf8) })
      chosen.formUnion(approved.filter { members.contains($0.keyBytes) }.map(\.keyBytes))
    }
    if let group = selection.difference {
      chosen.formUnion(approved.filter { $0.difference?.group == group }.map { Array($0.key.utf8) })
    }
    let picked = record.snapshots.filter { chosen.contains(Array($0.key.utf8)) }
    if picked.isEmpty { throw RunError("nothing approved in run \(record.id) is selected: nothing to undo") }
    return picked
  }

  /// Undoes this run's approvals of the selected snapshots, as one operation of the approval log
  /// (`BaselineHistory.undo(keys:fromRun:user:progress:)`): their previous baselines come back and
  /// the snapshots can be reviewed again.
  ///
  /// - Returns: the undo's log entries.
  @discardableResult
  public func undo(_ selection: Selection, progress: ((Int, Int) -> Void)? = nil) throws -> [ApprovalEntry] {
    let chosen = try Self.selectApproved(selection, in: folder.load())
    let history = BaselineHistory(store: store, runsDirectory: PathText.parent(of: folder.path))
    return try history.undo(
      keys: try chosen.map { try SnapshotKey($0.key) }, fromRun: folder.id, user: user, progress: progress)
  }
}
