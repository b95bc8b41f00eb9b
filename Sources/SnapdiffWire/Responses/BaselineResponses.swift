import SnapdiffModel

/// `GET /api/v1/baselines/{key}/history`: a baseline's approvals over time.
public struct BaselineHistoryResponse: Codable, Sendable, Equatable {
  public var key: String
  public var environment: String?
  /// The SHA-256 of the baseline in the store now (absent: none).
  public var current: String?
  /// The approval log's entries for the key, oldest first.
  public var entries: [ApprovalEntry]
  /// The id of the approval an undo would revert now, if any.
  public var undoable: String?

  public init(key: String, environment: String?, current: String?, entries: [ApprovalEntry], undoable: String?) {
    self.key = key
    self.environment = environment
    self.current = current
    self.entries = entries
    self.undoable = undoable
  }
}

/// `POST /api/v1/baselines/{key}/undo`: the newest approval not yet undone, undone.
public struct BaselineUndoResponse: Codable, Sendable, Equatable {
  /// The id of the approval undone.
  public var undone: String
  /// The undo's own log entry (`old`: the baseline removed, `new`: the one put back).
  public var entry: ApprovalEntry

  public init(undone: String, entry: ApprovalEntry) {
    self.undone = undone
    self.entry = entry
  }
}

/// `GET /api/v1/branches`: the branches that have an overlay in the server's store.
public struct BranchList: Codable, Sendable, Equatable {
  public var branches: [String]

  public init(branches: [String]) { self.branches = branches }
}

/// `POST /api/v1/branches/{branch}/merge`: a branch's overlay merged into the store (with
/// `?dryRun=true`, what would be).
public struct BranchMergeResponse: Codable, Sendable, Equatable {
  public var branch: String
  public var dryRun: Bool
  /// The baselines promoted into the store (or that would be).
  public var baselines: [Baseline]

  public struct Baseline: Codable, Sendable, Equatable {
    public var key: String
    public var environment: String?

    public init(key: String, environment: String?) {
      self.key = key
      self.environment = environment
    }
  }

  public init(branch: String, dryRun: Bool, baselines: [Baseline]) {
    self.branch = branch
    self.dryRun = dryRun
    self.baselines = baselines
  }
}

/// `POST /api/v1/branches/{branch}/discard`: a branch's overlay dropped, the store unchanged.
public struct BranchDiscardResponse: Codable, Sendable, Equatable {
  public var branch: String
  /// The baselines the overlay held.
  public var baselines: [BranchMergeResponse.Baseline]

  public init(branch: String, baselines: [BranchMergeResponse.Baseline]) {
    self.branch = branch
    self.baselines = baselines
  }
}
