/// A snapshot's baselines over time, and their undo: the one place that records an approval
/// (the old and new bytes into the blob store, a line into the approval log) and that puts an
/// earlier baseline back.
///
/// An undo reverts the newest approval of the key that no undo has reverted yet, so undoing
/// twice goes two approvals back. It restores the old baseline's bytes (and tree) from the blob
/// store, or deletes the baseline when the approval had created it; it refuses when the
/// baseline in the store is no longer what that approval wrote (a later `check --record` or a
/// hand edit), since the undo would silently throw that away. The run the approval came from
/// gets the snapshot's earlier status back, so it can be reviewed again.
///
/// ```swift
/// let history = BaselineHistory(store: store, runsDirectory: ".snapdiff/runs")
/// for entry in try history.entries(for: key) { print(entry.time, entry.new ?? "deleted") }
/// try history.undo(key, user: ApprovalLog.processUser)
/// ```
public struct BaselineHistory: Sendable {
  public let store: BaselineStore
  public let runsDirectory: String
  public let blobs: BlobStore
  public let log: ApprovalLog

  public init(store: BaselineStore, runsDirectory: String) {
    self.store = store
    self.runsDirectory = FileSystem.absolute(runsDirectory)
    blobs = BlobStore.beside(runsDirectory: runsDirectory)
    let runs = self.runsDirectory
    log = ApprovalLog(dataDirectory: PathText.parent(of: runs))
  }

  /// The folder that holds `runs/`, `blobs/` and `history/`.
  public var dataDirectory: String { PathText.parent(of: runsDirectory) }

  /// Records an approval that replaced (or, with `new` nil, deleted) the baseline of `key` in
  /// `environment` (of the branch overlay `overlay`, or of the store itself). Call it inside
  /// `blobs.whileAdding`, and under the store's lock together with the write it records, so the
  /// log's order is the store's (an undo reads the newest approval from it).
  @discardableResult
  public func recordApproval(
    of key: SnapshotKey, environment: String?, overlay: String?, old: BaselineStore.Previous,
    new: BaselineStore.Previous, run: RunRecord?, branch: String? = nil, previousStatus: SnapshotStatus?,
    user: String, variant: String? = nil, operation: String? = nil, mergedFrom: String? = nil
  ) throws -> ApprovalEntry {
    let entry = try approval(
      of: key, environment: environment, overlay: overlay, old: old, new: new, run: run, branch: branch,
      previousStatus: previousStatus, user: user, variant: variant, operation: operation,
      mergedFrom: mergedFrom)
    try log.append(entry)
    return entry
  }

  /// The entry `recordApproval` appends, its images put into the blob store: for a caller that
  /// appends a group's entries in one write (`ApprovalLog.append(contentsOf:)`) under the same
  /// hold of the store's lock as the writes they record.
  public func approval(
    of key: SnapshotKey, environment: String?, overlay: String?, old: BaselineStore.Previous,
    new: BaselineStore.Previous, run: RunRecord?, branch: String? = nil, previousStatus: SnapshotStatus?,
    user: String, variant: String? = nil, operation: String? = nil, mergedFrom: String? = nil
  ) throws -> ApprovalEntry {
    ApprovalEntry(
      id: Self.newID(), time: RunFolder.timestamp().iso, user: user, action: .approve, key: key.rawValue,
      environment: environment, overlay: overlay, baselines: storeName, run: run?.id, branch: branch ?? run?.branch,
      previousStatus: previousStatus, old: try old.png.map(blobs.put), new: try new.png.map(blobs.put),
      oldTree: try old.tree.map(blobs.put), newTree: try new.tree.map(blobs.put), undoes: nil,
      variant: variant, operation: operation, mergedFrom: mergedFrom)
  }

  /// The log's entries for `key` in this store (every environment), oldest first.
  public func entries(for key: SnapshotKey) throws -> [ApprovalEntry] {
    try log.entries().filter { $0.key.utf8.elementsEqual(key.rawValue.utf8) && isThisStore($0) }
  }

  /// The log's entries for every key of this store, oldest first.
  public func entries() throws -> [ApprovalEntry] {
    try log.entries().filter(isThisStore)
  }

  /// The approval an undo of `key` would revert now (in this store's environment and the
  /// overlay it writes to), if any.
  public func undoable(_ key: SnapshotKey) throws -> ApprovalEntry? {
    var stack: [ApprovalEntry] = []
    for entry in try entries(for: key)
    where entry.environment == store.environment && entry.overlay == store.overlays.first {
      switch entry.action {
      case .approve: stack.append(entry)
      case .undo: stack.removeAll { $0.id == entry.undoes }
      }
    }
    return stack.last
  }

  /// The SHA-256 of the baseline of `key` in `environment` (of `overlay`, or of the store
  /// itself) now, or `nil` when there is none.
  public func currentHash(of key: SnapshotKey, environment: String?, overlay: String? = nil, variant: String? = nil)
    throws -> String?
  {
    let location = try self.location(of: key, environment: environment, overlay: overlay, variant: variant)
    return try store.bytesIfPresent(at: location).map(SHA256.hex)
  }

  /// Puts back the baseline `key` had before its newest approval not yet undone, logs the undo,
  /// and gives the snapshot its earlier status in that approval's run.
  ///
  /// Which approval, the check that the baseline is still the one it wrote, the write and the
  /// log line happen under the store's lock (a compare-and-swap): an approval that lands meanwhile
  /// is either before (and is the one undone) or after (and stays). The approval's run is locked
  /// around it (after the blobs, before the store: `FileLock.Rank`), so its status and the
  /// baseline change together.
  ///
  /// - Returns: the undo's log entry.
  /// - Throws: `RunError` when there is nothing to undo or the baseline changed since the
  ///   approval (naming the log entry that changed it, when there is one); `FileError` when a
  ///   blob it needs is gone.
  @discardableResult
  public func undo(_ key: SnapshotKey, user: String) throws -> ApprovalEntry {
    // The run to lock is known only from the log, read before the lock: when another approval
    // became the newest meanwhile, start again with its run.
    for _ in 0..<Self.undoAttempts {
      guard let newest = try undoable(key) else { throw nothingToUndo(key) }
      let undone: ApprovalEntry? = try blobs.whileAdding {
        try withLock(ofRunOf: newest) {
          let entry = try store.withLock { () -> ApprovalEntry? in
            guard let approval = try undoable(key) else { throw nothingToUndo(key) }
            guard approval.id == newest.id else { return nil }
            let entry = try revert(approval, of: key, user: user, operation: Self.newID())
            try log.append(entry)
            return entry
          }
          if entry != nil { try reopenSnapshot(key, in: newest) }
          return entry
        }
      }
      if let undone {
        try SeenApprovals(runsDirectory: runsDirectory).withdraw([newest])
        return undone
      }
    }
    throw RunError("'\(key)': new approvals kept arriving while undoing (\(Self.undoAttempts) tries): nothing undone")
  }

  /// How many times an undo starts again when another approval became the newest meanwhile.
  static let undoAttempts = 20

  /// Under the store's lock: puts back what `approval` replaced, when the baseline is still the
  /// one it wrote (and, for a merge's approval, the branch's baseline back into its overlay), and
  /// returns the undo's log entry, for the caller to append.
  func revert(_ approval: ApprovalEntry, of key: SnapshotKey, user: String, operation: String) throws
    -> ApprovalEntry
  {
    let environment = approval.environment
    let now = try currentHash(of: key, environment: environment, overlay: approval.overlay, variant: approval.variant)
    if now != approval.new, now != nil {
      let changer = try changer(of: approval, key: key, now: now)
      throw RunError(
        "'\(key)': the baseline is no longer the one approved at \(approval.time) (it is \(Self.short(now)), "
          + "the approval wrote \(Self.short(approval.new))): \(changer): nothing undone")
    }
    if let refusal = try undoRefusal(of: approval) { throw RunError("'\(key)': \(refusal): nothing undone") }
    var target = try BaselineStore(root: store.root, environment: environment)
    target.overlays = approval.overlay.map { [$0] } ?? []
    if let variant = approval.variant {
      try revertVariant(variant, of: key, to: approval, in: target)
    } else if let old = approval.old {
      let png = try blobs.read(old)
      let tree = try approval.oldTree.map(blobs.elementTree)
      try target.replace(png, tree: tree, for: key)
    } else {
      try target.remove(
        store.location(of: key, inEnvironment: environment, overlay: approval.overlay), keepingSettings: true)
    }
    if let overlay = approval.mergedFrom, let new = approval.new {
      // The merge took the baseline out of the branch's overlay: it goes back there.
      var branch = try BaselineStore(root: store.root, environment: environment)
      branch.overlays = [overlay]
      let tree = try approval.newTree.map(blobs.elementTree)
      _ = try branch.replace(try blobs.read(new), tree: tree, for: key)
    }
    return ApprovalEntry(
      id: Self.newID(), time: RunFolder.timestamp().iso, user: user, action: .undo, key: key.rawValue,
      environment: environment, overlay: approval.overlay, baselines: storeName, run: approval.run,
      branch: approval.branch, previousStatus: nil, old: approval.new, new: approval.old,
      oldTree: approval.newTree, newTree: approval.oldTree, undoes: approval.id, variant: approval.variant,
      operation: operation)
  }

  /// What wrote the baseline `now` after `approval`: the newest later log entry of the key (same
  /// environment and overlay) that wrote it, or a write the log does not know.
  func changer(of approval: ApprovalEntry, key: SnapshotKey, now: String?) throws -> String {
    let later = try entries(for: key).drop { $0.id != approval.id }.dropFirst()
    let newer = later.last {
      $0.new == now && $0.environment == approval.environment && $0.overlay == approval.overlay
    }
    guard let newer else { return "it was written outside the approval log (check --record, or by hand)" }
    let run = newer.run.map { ", run \($0)" } ?? ""
    return "the newer \(newer.action.rawValue) \(newer.id) by \(newer.user) at \(newer.time)\(run) wrote it"
  }

  /// The undo's error when the log holds no approval of `key` left to undo.
  private func nothingToUndo(_ key: SnapshotKey) -> RunError {
    RunError("'\(key)' has no approval to undo in \(log.path)")
  }

  /// Runs `body` holding the lock of the run `approval` came from, when that run is still here.
  func withLock<T>(ofRunOf approval: ApprovalEntry, _ body: () throws -> T) throws -> T {
    guard let folder = runFolder(of: approval) else { return try body() }
    return try folder.withLock(body)
  }

  /// The folder of the run `approval` came from, when it is still here.
  func runFolder(of approval: ApprovalEntry) -> RunFolder? {
    // The log's run id becomes a path only inside the runs folder (`RunFolder.inside`).
    guard let id = approval.run, let folder = try? RunFolder.inside(runsDirectory, id: id),
      FileSystem.isFile(folder.recordPath)
    else { return nil }
    return folder
  }

  /// Why undoing `approval` (what ``undoable(_:)`` found) would be refused now, or nil when it
  /// would go through: the baseline is no longer the one the approval wrote (a later `check
  /// --record`, a hand edit, or `prune --delete`, which removed it), or the blob of the
  /// baseline it would put back is gone. What `undo` checks, and what `history` asks before it
  /// offers an undo.
  public func undoRefusal(of approval: ApprovalEntry) throws -> String? {
    let now = try currentHash(
      of: SnapshotKey(approval.key), environment: approval.environment, overlay: approval.overlay,
      variant: approval.variant)
    guard now == approval.new else {
      guard now != nil else {
        return "the baseline approved at \(approval.time) is gone (deleted since, as prune --delete does)"
      }
      return "the baseline is no longer the one approved at \(approval.time) (it is \(Self.short(now)), "
        + "the approval wrote \(Self.short(approval.new)))"
    }
    if let overlay = approval.mergedFrom,
      let there = try currentHash(of: SnapshotKey(approval.key), environment: approval.environment, overlay: overlay),
      there != approval.new
    {
      return "the branch's overlay holds another baseline of the key since the merge of \(approval.time) "
        + "(\(Self.short(there))): approved on the branch again"
    }
    if let old = approval.old, !blobs.contains(old) {
      return
        "the baseline from before the approval of \(approval.time) (\(Self.short(old))) is no longer in \(blobs.root)"
    }
    return nil
  }

  /// The approval's run gives the snapshot its status from before the approval (when the run is
  /// still here and the snapshot still approved).
  private func reopenSnapshot(_ key: SnapshotKey, in approval: ApprovalEntry) throws {
    guard let status = approval.previousStatus, let folder = runFolder(of: approval) else { return }
    let record = try folder.update { record in
      for index in record.snapshots.indices
      where record.snapshots[index].key.utf8.elementsEqual(key.rawValue.utf8)
        && record.snapshots[index].status == .approved
      {
        record.snapshots[index].status = status
      }
    }
    try RunReports.write(record, to: folder)
  }

  /// Where an approval of `key` in `environment` and `overlay` (of the variant `variant`, when
  /// named) wrote: the place the log's entry names, whatever this store's own environment.
  func location(of key: SnapshotKey, environment: String?, overlay: String?, variant: String? = nil) throws
    -> BaselineStore.Location
  {
    if let variant {
      var target = try BaselineStore(root: store.root, environment: environment)
      target.overlays = overlay.map { [$0] } ?? []
      return BaselineStore.Variant(
        name: variant, path: target.variantWritePath(for: key, named: variant), environment: environment
      ).location
    }
    return store.location(of: key, inEnvironment: environment, overlay: overlay)
  }

  /// This store as the log names it: relative to the data folder.
  private var storeName: String { FileSystem.relativePath(from: dataDirectory, to: store.root) }

  private func isThisStore(_ entry: ApprovalEntry) -> Bool {
    FileSystem.absolute(entry.baselines, relativeTo: dataDirectory) == store.root
  }

  static func short(_ hash: String?) -> String { hash.map { "sha256 " + $0.prefix(12) } ?? "no baseline" }

  /// A new id for a log entry or an operation.
  public static func newID() -> String {
    String(UInt64.random(in: 0...UInt64.max), radix: 16)
  }
}

extension BaselineHistory {
  /// Under the store's lock: puts back the variant `name` of `key` as it was before `approval`
  /// (the bytes it replaced, or no variant when the approval had added it).
  fileprivate func revertVariant(
    _ name: String, of key: SnapshotKey, to approval: ApprovalEntry, in target: BaselineStore
  ) throws {
    if let old = approval.old {
      let png = try blobs.read(old)
      let tree = try approval.oldTree.map(blobs.elementTree)
      try target.replaceVariant(png, tree: tree, for: key, named: name)
    } else {
      let path = target.variantWritePath(for: key, named: name)
      try target.removeVariant(BaselineStore.Variant(name: name, path: path, environment: target.environment))
    }
  }
}
