import SnapdiffModel

/// `GET /api/v1/runs/{run}/approvals`: the approval log's operations of a run (its approvals,
/// and the undos of them), oldest first, each with whether it can be undone now.
public struct ApprovalList: Codable, Sendable {
  public var run: String
  public var operations: [ApprovalOperation]

  public init(run: String, operations: [ApprovalOperation]) {
    self.run = run
    self.operations = operations
  }
}

/// `POST /api/v1/approvals/{operation}/undo`: the operation undone, in one request, and the undo
/// the log recorded (an operation of its own).
public struct ApprovalUndoResponse: Codable, Sendable {
  /// The operation undone.
  public var undone: String
  /// The undo's operation id.
  public var operation: String
  /// The keys whose previous baseline came back, in the log's order.
  public var keys: [String]
  /// The undo's log entries.
  public var entries: [ApprovalEntry]

  public init(undone: String, operation: String, keys: [String], entries: [ApprovalEntry]) {
    self.undone = undone
    self.operation = operation
    self.keys = keys
    self.entries = entries
  }
}
