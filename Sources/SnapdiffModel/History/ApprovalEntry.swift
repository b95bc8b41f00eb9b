/// One line of the approval log: a baseline replaced (or deleted) by an approval, or an undo
/// that put the one before back. The core's `ApprovalLog` writes and reads it; the service
/// answers it in its baseline history and undo responses (SnapdiffWire), so it lives here.
public struct ApprovalEntry: Sendable, Codable, Equatable {
  /// Names this entry (an undo names the approval it undid).
  public var id: String
  /// When, ISO 8601 in UTC.
  public var time: String
  /// Who: `SNAPDIFF_USER` or `USER` for the CLI; the service names its caller.
  public var user: String
  /// `approve` or `undo`.
  public var action: Action
  public var key: String
  /// The environment folder written, or absent for the store's root.
  public var environment: String?
  /// The branch overlay written (`.branches/<branch>`, relative to the store), or absent for
  /// the store itself.
  public var overlay: String?
  /// The baseline store, relative to the data folder.
  public var baselines: String
  /// The run the approval came from, and its branch.
  public var run: String?
  public var branch: String?
  /// The snapshot's status in that run before the approval (what an undo gives it back).
  public var previousStatus: SnapshotStatus?
  /// The SHA-256 of the baseline before and after (absent: there was none, or it was deleted);
  /// both are blobs in the blob store.
  public var old: String?
  public var new: String?
  /// The element tree beside the baseline, before and after, as blobs.
  public var oldTree: String?
  public var newTree: String?
  /// For an undo: the approval undone.
  public var undoes: String?
  /// The accepted variant written (`approve KEY --variant NAME`), or absent for the baseline
  /// itself.
  public var variant: String?
  /// The operation the entry belongs to: every entry one `approve` (a snapshot, a group, a
  /// run), one branch merge or one undo wrote shares it, and an undo of the operation reverts
  /// them together. Absent in logs written before operations: the entry is its own operation
  /// (its `id`).
  public var operation: String?
  /// For an approval a branch merge wrote: the overlay the baseline was promoted from
  /// (`.branches/<branch>`, relative to the store); undoing the merge puts it back there.
  public var mergedFrom: String?

  /// The operation the entry belongs to: `operation`, or the entry itself in an older log.
  public var operationID: String { operation ?? id }

  public enum Action: String, Sendable, Codable { case approve, undo }

  public init(
    id: String, time: String, user: String, action: Action, key: String, environment: String?, overlay: String?,
    baselines: String, run: String?, branch: String?, previousStatus: SnapshotStatus?, old: String?, new: String?,
    oldTree: String?, newTree: String?, undoes: String?, variant: String? = nil, operation: String? = nil,
    mergedFrom: String? = nil
  ) {
    self.id = id
    self.time = time
    self.user = user
    self.action = action
    self.key = key
    self.environment = environment
    self.overlay = overlay
    self.baselines = baselines
    self.run = run
    self.branch = branch
    self.previousStatus = previousStatus
    self.old = old
    self.new = new
    self.oldTree = oldTree
    self.newTree = newTree
    self.undoes = undoes
    self.variant = variant
    self.operation = operation
    self.mergedFrom = mergedFrom
  }
}
