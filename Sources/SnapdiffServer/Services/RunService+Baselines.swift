import SnapdiffCore
import SnapdiffWire

/// The baselines' history through the service: the same approval log, blobs and undo as
/// `snapdiff history` and `approve --undo` (`BaselineHistory`), and the merge of branch
/// overlays as `snapdiff branch merge` (`BranchOverlay`), over the server's store.
@available(macOS 14, iOS 17, tvOS 17, *)
extension RunService {
  /// The history of `key` in the store (its environment folder `environment`, default the
  /// server's).
  func history(of key: SnapshotKey, environment: String?, branch: String?) throws -> BaselineHistoryResponse {
    let history = try self.history(environment, branch: branch)
    let entries = try history.entries(for: key)
    // Only an undo that would go through is offered (not one whose baseline was pruned since).
    let undoable = try history.undoable(key).flatMap { try history.undoRefusal(of: $0) == nil ? $0 : nil }
    return BaselineHistoryResponse(
      key: key.rawValue, environment: history.store.environment,
      current: try history.currentHash(
        of: key, environment: history.store.environment, overlay: history.store.overlays.first),
      entries: entries, undoable: undoable?.id)
  }

  /// Undoes the newest approval of `key` not yet undone.
  ///
  /// - Throws: `APIError` 409 when there is nothing to undo or the baseline changed since the
  ///   approval; 404 when a blob it needs is gone.
  func undo(_ key: SnapshotKey, environment: String?, branch: String?) throws -> BaselineUndoResponse {
    let history = try self.history(environment, branch: branch)
    let entry: ApprovalEntry
    do {
      entry = try history.undo(key, user: caller)
    } catch let error as RunError {
      throw APIError.conflict(error.message)
    } catch let error as FileError {
      throw APIError.notFound(error.description)
    }
    if let run = entry.run, let folder = try? folder(run) { try index.refresh(folder) }
    return BaselineUndoResponse(entry)
  }

  /// The history of the server's store, in an environment folder and (with `branch`) that
  /// branch's overlay.
  private func history(_ environment: String?, branch: String? = nil) throws -> BaselineHistory {
    var store: BaselineStore
    do {
      store = try BaselineStore(
        root: configuration.store.root, environment: environment ?? configuration.store.environment)
      if let branch { store.overlays = [try BranchOverlay.folder(of: branch)] }
    } catch {
      throw APIError.unprocessable(String(describing: error))
    }
    return BaselineHistory(store: store, runsDirectory: configuration.runsDirectory)
  }

  /// The branches that have an overlay in the server's store.
  func branches() -> BranchList {
    BranchList(branches: BranchOverlay.branches(in: configuration.store))
  }

  /// Merges `branch`'s overlay into the store (or, with `dryRun`, lists what would be).
  ///
  /// - Throws: `APIError` 404 when the branch has no overlay.
  func merge(branch: String, dryRun: Bool) throws -> BranchMergeResponse {
    let trunk = try BaselineStore(root: configuration.store.root)
    let promoted: [BranchOverlay.Promoted]
    do {
      promoted = try BranchOverlay.merge(
        branch, in: BaselineHistory(store: trunk, runsDirectory: configuration.runsDirectory), user: caller,
        dryRun: dryRun)
    } catch let error as RunError {
      throw APIError.notFound(error.message)
    } catch let error as KeyError {
      throw APIError.unprocessable(error.description)
    }
    return BranchMergeResponse(branch: branch, dryRun: dryRun, promoted: promoted)
  }
}
