/// Approvals as operations: every entry one `approve` (one snapshot, a group, a whole run), one
/// branch merge or one undo wrote shares an operation id (`ApprovalEntry.operation`), and an
/// undo reverts an operation's entries together, under one hold of the store's lock, as one
/// operation of its own (its lines appended in one write).
///
/// An operation can be undone while each of its approvals not undone yet is still the newest
/// approval of its key (same environment and overlay) and its baseline is still the one it wrote
/// (the compare-and-swap `undo(_:user:)` makes for one key); otherwise the undo is refused, naming
/// the newer entry, and nothing is undone. Undoing a merge puts the store's baselines back and
/// the branch's baselines back into its overlay.
///
/// ```swift
/// let history = BaselineHistory(store: store, runsDirectory: ".snapdiff/runs")
/// for operation in try history.operations(run: "20261122-034512-123") { print(operation.id, operation.keys.count) }
/// try history.undo(operation: id, user: ApprovalLog.processUser)
/// ```
extension BaselineHistory {
  /// The log read once: which approvals an undo reverted, and each key's newest approval not
  /// undone (by environment and overlay).
  struct LogState {
    /// A baseline's place: the key's bytes (NFC and NFD spellings are two keys), its
    /// environment folder and its overlay.
    struct Slot: Hashable {
      var key: [UInt8]
      var environment: String?
      var overlay: String?

      init(_ entry: ApprovalEntry) {
        key = Array(entry.key.utf8)
        environment = entry.environment
        overlay = entry.overlay
      }

      init(key: SnapshotKey, environment: String?, overlay: String?) {
        self.key = Array(key.rawValue.utf8)
        self.environment = environment
        self.overlay = overlay
      }
    }

    var entries: [ApprovalEntry]
    /// An approval's id → the undo that reverted it.
    var undoneBy: [String: ApprovalEntry] = [:]
    /// The newest approval not undone in each place.
    var newest: [Slot: ApprovalEntry] = [:]
    var byID: [String: ApprovalEntry] = [:]

    init(_ entries: [ApprovalEntry]) {
      self.entries = entries
      for entry in entries {
        byID[entry.id] = entry
        if entry.action == .undo, let undone = entry.undoes { undoneBy[undone] = entry }
      }
      for entry in entries where entry.action == .approve && undoneBy[entry.id] == nil {
        newest[Slot(entry)] = entry
      }
    }

    /// The entries of operation `id`, oldest first.
    func operation(_ id: String) -> [ApprovalEntry] { entries.filter { $0.operationID == id } }

    /// Those of `entries` that are approvals no undo has reverted.
    func standing(_ entries: [ApprovalEntry]) -> [ApprovalEntry] {
      entries.filter { $0.action == .approve && undoneBy[$0.id] == nil }
    }
  }

  /// The log's operations in this store, oldest first; with `run`, those with an approval from
  /// that run (or an undo of one); with `key`, those that wrote that key. Each says whether an
  /// undo of it would go through now, and if not why.
  public func operations(run: String? = nil, key: SnapshotKey? = nil) throws -> [ApprovalOperation] {
    let state = LogState(try entries())
    var order: [String] = []
    var members: [String: [ApprovalEntry]] = [:]
    for entry in state.entries {
      if members[entry.operationID] == nil { order.append(entry.operationID) }
      members[entry.operationID, default: []].append(entry)
    }
    return try order.compactMap { id in
      guard let group = members[id] else { return nil }
      if let run, !group.contains(where: { $0.run == run }) { return nil }
      if let key, !group.contains(where: { $0.key.utf8.elementsEqual(key.rawValue.utf8) }) { return nil }
      return try describe(id, group, state)
    }
  }

  /// Operation `id`, or nil when the log has none of that id in this store.
  public func operation(_ id: String) throws -> ApprovalOperation? {
    let state = LogState(try entries())
    let group = state.operation(id)
    return group.isEmpty ? nil : try describe(id, group, state)
  }

  private func describe(_ id: String, _ group: [ApprovalEntry], _ state: LogState) throws -> ApprovalOperation {
    let first = group[0]
    let kind: ApprovalOperation.Kind =
      first.action == .undo
      ? .undo
      : group.contains { $0.mergedFrom != nil || ($0.run == nil && $0.branch != nil && $0.overlay == nil) }
        ? .merge : .approve
    var operation = ApprovalOperation(
      id: id, kind: kind, time: first.time, user: first.user, run: first.run, branch: first.branch,
      environment: first.environment, keys: group.map(\.key))
    if kind == .undo {
      var undone: [String] = []
      for entry in group {
        if let approval = entry.undoes.flatMap({ state.byID[$0] }), !undone.contains(approval.operationID) {
          undone.append(approval.operationID)
        }
      }
      operation.undoes = undone
      operation.refusal = "an undo is not undone: approve the snapshots again"
      return operation
    }
    let undone = group.filter { state.undoneBy[$0.id] != nil }
    operation.undoneCount = undone.count
    operation.undoneBy = undone.compactMap { state.undoneBy[$0.id] }.max { $0.time < $1.time }?.operationID
    operation.refusal = try refusal(ofUndoing: group, state)
    operation.undoable = operation.refusal == nil
    return operation
  }

  /// Why an undo of the approvals `group` (one operation) would be refused now, or nil: each
  /// approval not undone must still be its key's newest, its baseline still the one it wrote.
  func refusal(ofUndoing group: [ApprovalEntry], _ state: LogState) throws -> String? {
    let standing = state.standing(group)
    guard !standing.isEmpty else {
      let by = group.compactMap { state.undoneBy[$0.id]?.operationID }.last.map { " (by undo \($0))" } ?? ""
      return "already undone\(by)"
    }
    for approval in standing {
      if let refusal = try refusal(ofUndoing: approval, state) { return refusal }
    }
    return nil
  }

  /// Why undoing the one `approval` would be refused now, or nil; a newer entry that replaced its
  /// baseline is named with its operation, user, time and run.
  private func refusal(ofUndoing approval: ApprovalEntry, _ state: LogState) throws -> String? {
    let key = try SnapshotKey(approval.key)
    if let newest = state.newest[LogState.Slot(approval)], newest.id != approval.id {
      return "'\(key)': \(Self.newer(newest)) replaced its baseline since"
    }
    guard let refusal = try undoRefusal(of: approval) else { return nil }
    let now = try currentHash(of: key, environment: approval.environment, overlay: approval.overlay)
    if now != approval.new, now != nil {
      return "'\(key)': \(refusal): \(try changer(of: approval, key: key, now: now))"
    }
    return "'\(key)': \(refusal)"
  }

  /// A newer approval as an undo's refusal names it.
  static func newer(_ entry: ApprovalEntry) -> String {
    let run = entry.run.map { ", run \($0)" } ?? ""
    return "the newer \(entry.action.rawValue) \(entry.operationID) by \(entry.user) at \(entry.time)\(run)"
  }

  /// Undoes operation `id`: every approval of it not undone yet, in one step, logged as one undo
  /// operation; the runs they came from get their snapshots' earlier status back.
  ///
  /// - Parameter progress: Called after each baseline put back, with how many of how many.
  /// - Returns: the undo's entries.
  /// - Throws: `ApprovalUndoError` (`notFound`, or `refused` naming why: already undone, a newer
  ///   approval, a baseline changed since), with nothing undone; `FileError` when a blob is gone.
  @discardableResult
  public func undo(operation id: String, user: String, progress: ((Int, Int) -> Void)? = nil) throws
    -> [ApprovalEntry]
  {
    try undoApprovals(user: user, progress: progress) { state, verify in
      let group = state.operation(id)
      guard let first = group.first else {
        throw ApprovalUndoError(.notFound, "no approval operation '\(id)' in \(log.path)")
      }
      guard first.action == .approve else {
        throw ApprovalUndoError(.refused, "operation \(id) is an undo: approve the snapshots again")
      }
      if verify || state.standing(group).isEmpty, let refusal = try refusal(ofUndoing: group, state) {
        throw ApprovalUndoError(.refused, "operation \(id) cannot be undone: \(refusal): nothing undone")
      }
      return state.standing(group)
    }
  }

  /// Undoes, as one operation, the newest approval not undone of each of `keys` in this store's
  /// environment and the overlay it writes to; with `run`, each key's newest approval from that
  /// run (refused when a newer approval replaced it since).
  ///
  /// - Throws: `ApprovalUndoError` when a key has no approval to undo (from `run`), or its undo
  ///   would be refused; nothing is undone then.
  @discardableResult
  public func undo(
    keys: [SnapshotKey], fromRun run: String? = nil, user: String, progress: ((Int, Int) -> Void)? = nil
  ) throws -> [ApprovalEntry] {
    try undoApprovals(user: user, progress: progress) { state, verify in
      var chosen: [ApprovalEntry] = []
      for key in keys {
        let newest: ApprovalEntry
        if let run {
          // The run's newest approval of the key not undone, in whichever environment or overlay
          // it wrote; a newer approval of that place is named by the refusal below.
          guard
            let approval = state.entries.last(where: {
              $0.action == .approve && $0.run == run && $0.key.utf8.elementsEqual(key.rawValue.utf8)
                && state.undoneBy[$0.id] == nil
            })
          else {
            throw ApprovalUndoError(.notFound, "'\(key)' has no approval from run \(run) to undo in \(log.path)")
          }
          newest = approval
        } else {
          let slot = LogState.Slot(key: key, environment: store.environment, overlay: store.overlays.first)
          guard let approval = state.newest[slot] else {
            throw ApprovalUndoError(.notFound, "'\(key)' has no approval to undo in \(log.path)")
          }
          newest = approval
        }
        if verify, let refusal = try refusal(ofUndoing: newest, state) {
          throw ApprovalUndoError(.refused, "\(refusal): nothing undone")
        }
        chosen.append(newest)
      }
      return chosen
    }
  }

  /// The one way approvals are undone together: `choose` picks them from the log (first without
  /// checks, to learn which runs to lock; then again under the locks, checked), each is reverted
  /// under one hold of the store's lock and the undo's lines appended in one write; then their
  /// runs reopen the snapshots, and runs that had taken the approvals over drop them.
  private func undoApprovals(
    user: String, progress: ((Int, Int) -> Void)?,
    choose: (LogState, _ verify: Bool) throws -> [ApprovalEntry]
  ) throws -> [ApprovalEntry] {
    for _ in 0..<Self.undoAttempts {
      let planned = try choose(LogState(try entries()), false)
      guard !planned.isEmpty else { throw ApprovalUndoError(.refused, "nothing to undo") }
      var folders: [String: RunFolder] = [:]
      for approval in planned { if let folder = runFolder(of: approval) { folders[folder.id] = folder } }
      // The order every writer locks (`FileLock.Rank`): the blobs, the runs, the store.
      let undone: [ApprovalEntry]? = try blobs.whileAdding {
        try withLocks(folders.values.sorted { $0.id < $1.id }) {
          let undos = try blobs.whileAdding {
            try store.withLock { () -> [ApprovalEntry]? in
              let chosen = try choose(LogState(try entries()), true)
              guard chosen.map(\.id) == planned.map(\.id) else { return nil }
              let operation = Self.newID()
              var undos: [ApprovalEntry] = []
              do {
                for approval in chosen {
                  undos.append(try revert(approval, of: SnapshotKey(approval.key), user: user, operation: operation))
                  progress?(undos.count, chosen.count)
                }
              } catch {
                // What was put back is logged, whatever stopped the rest.
                try log.append(contentsOf: undos)
                throw error
              }
              try log.append(contentsOf: undos)
              return undos
            }
          }
          if undos != nil { try reopenSnapshots(of: planned) }
          return undos
        }
      }
      if let undone {
        try SeenApprovals(runsDirectory: runsDirectory).withdraw(planned)
        return undone
      }
    }
    throw ApprovalUndoError(
      .refused, "new approvals kept arriving while undoing (\(Self.undoAttempts) tries): nothing undone")
  }

  /// Runs `body` holding the locks of `folders`, in the order given.
  private func withLocks<T>(_ folders: [RunFolder], _ body: () throws -> T) throws -> T {
    guard let first = folders.first else { return try body() }
    return try first.withLock { try withLocks(Array(folders.dropFirst()), body) }
  }

  /// Each approval's run gives its snapshot the status it had before the approval (one update
  /// and one report a run).
  private func reopenSnapshots(of approvals: [ApprovalEntry]) throws {
    var byRun: [String: [ApprovalEntry]] = [:]
    for approval in approvals where approval.previousStatus != nil {
      if let run = approval.run { byRun[run, default: []].append(approval) }
    }
    for (_, approvals) in byRun.sorted(by: { $0.key < $1.key }) {
      guard let folder = runFolder(of: approvals[0]) else { continue }
      var statuses: [[UInt8]: SnapshotStatus] = [:]
      for approval in approvals { statuses[Array(approval.key.utf8)] = approval.previousStatus }
      let record = try folder.update { record in
        for index in record.snapshots.indices where record.snapshots[index].status == .approved {
          if let status = statuses[Array(record.snapshots[index].key.utf8)] {
            record.snapshots[index].status = status
          }
        }
      }
      try RunReports.write(record, to: folder)
    }
  }
}

/// An undo of approvals that did not happen, and why: no such operation or approval
/// (`notFound`), or one that would throw away a newer baseline, was undone already, or is an
/// undo itself (`refused`). The service answers 404 and 409.
public struct ApprovalUndoError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable { case notFound, refused }
  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
