import SnapdiffCore
import SnapdiffWire

/// Approvals as operations through the service: a run's operations (`BaselineHistory.operations`)
/// and the undo of one in one request (`BaselineHistory.undo(operation:user:progress:)`).
@available(macOS 14, iOS 17, tvOS 17, *)
extension RunService {
  /// The approval log's operations of run `id` (approvals from it and undos of them), oldest
  /// first.
  ///
  /// - Throws: `APIError.notFound` when there is no such run.
  func approvals(run id: String) throws -> ApprovalList {
    _ = try folder(id)
    return ApprovalList(run: id, operations: try trunkHistory().operations(run: id))
  }

  /// Undoes approval operation `id` whole.
  ///
  /// - Throws: `APIError` 404 when the log has no such operation, 409 when it cannot be undone
  ///   (undone already, an undo itself, or a newer approval replaced one of its baselines: the
  ///   message names that entry); 404 when a blob it needs is gone.
  func undo(operation id: String) throws -> ApprovalUndoResponse {
    let entries: [ApprovalEntry]
    do {
      entries = try trunkHistory().undo(operation: id, user: caller)
    } catch let error as ApprovalUndoError {
      throw error.kind == .notFound ? APIError.notFound(error.message) : APIError.conflict(error.message)
    } catch let error as RunError {
      throw APIError.conflict(error.message)
    } catch let error as FileError {
      throw APIError.notFound(error.description)
    }
    // The undone run, and the runs that had taken the approvals over, in the index again.
    try index.synchronize()
    return ApprovalUndoResponse(
      undone: id, operation: entries.first?.operationID ?? "", keys: entries.map(\.key), entries: entries)
  }

  /// The history of the server's store as a whole: operations carry their own environment and
  /// overlay.
  private func trunkHistory() throws -> BaselineHistory {
    BaselineHistory(
      store: try BaselineStore(root: configuration.store.root), runsDirectory: configuration.runsDirectory)
  }
}
