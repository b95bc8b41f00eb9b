/// One operation of the approval log, as the run page, `snapdiff history` and the service list
/// it: the entries one `approve` (a snapshot, a group, a whole run), one branch merge or one
/// undo wrote, with who, when, and whether an undo of it would go through now.
public struct ApprovalOperation: Sendable, Codable, Equatable {
  /// The operation's id (what `POST /api/v1/approvals/{id}/undo` and `approve --undo-operation`
  /// name).
  public var id: String
  /// `approve`, `merge` (a branch merge's promotions) or `undo`.
  public var kind: Kind
  /// The first entry's time and user.
  public var time: String
  public var user: String
  /// The run the approvals came from, and its branch (a merge: the branch merged).
  public var run: String?
  public var branch: String?
  /// The environment folder written, when not the store's root.
  public var environment: String?
  /// The keys the operation wrote, in the log's order.
  public var keys: [String]
  /// For an undo: the operations it undid.
  public var undoes: [String]?
  /// How many of its entries a later undo reverted, and the newest such undo.
  public var undoneCount: Int
  public var undoneBy: String?
  /// Whether undoing it now would go through (every entry not undone yet still the newest
  /// approval of its key, its baseline still the one it wrote, the one before still kept).
  public var undoable: Bool
  /// When it cannot be undone, why, naming the newer entry that replaced a baseline when
  /// there is one.
  public var refusal: String?

  public enum Kind: String, Sendable, Codable { case approve, merge, undo }

  public init(
    id: String, kind: Kind, time: String, user: String, run: String?, branch: String?, environment: String?,
    keys: [String], undoes: [String]? = nil, undoneCount: Int = 0, undoneBy: String? = nil, undoable: Bool = false,
    refusal: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.time = time
    self.user = user
    self.run = run
    self.branch = branch
    self.environment = environment
    self.keys = keys
    self.undoes = undoes
    self.undoneCount = undoneCount
    self.undoneBy = undoneBy
    self.undoable = undoable
    self.refusal = refusal
  }
}
