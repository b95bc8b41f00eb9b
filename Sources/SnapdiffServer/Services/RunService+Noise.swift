import SnapdiffCore
import SnapdiffWire

/// Known noise and flaky snapshots through the service: the same fingerprints beside the
/// baselines as `snapdiff approve --as-noise` and `snapdiff noise` (`Review.approveAsNoise`,
/// `BaselineStore+Noise`), and the same rule as `snapdiff status --flaky` (`FlakySnapshots`) over
/// the runs the index lists.
@available(macOS 14, iOS 17, tvOS 17, *)
extension RunService {
  /// Records the selected differences of run `id` as known noise (or, with `dryRun`, lists them).
  ///
  /// - Throws: `APIError` 404 for a key that names no snapshot, 409 for one with no difference to
  ///   fingerprint or whose baseline changed since the run.
  func approveAsNoise(run id: String, selection: Review.Selection, dryRun: Bool) throws -> ReviewResult {
    let (folder, record) = try record(id)
    try check(selection, in: record)
    let chosen: [(snapshot: SnapshotRecord, fingerprint: NoiseFingerprint)]
    do {
      chosen = try Review(folder: folder, storeRoot: configuration.store.root, user: caller).approveAsNoise(
        selection, dryRun: dryRun)
    } catch let error as RunError {
      throw APIError.conflict(error.message)
    }
    if !dryRun { try index.refresh(folder) }
    return ReviewResult(
      run: id, action: dryRun ? "wouldApproveAsNoise" : "approvedAsNoise", dryRun: dryRun,
      snapshots: chosen.map { .init(key: $0.snapshot.key, previousStatus: $0.snapshot.status, baseline: "keep") },
      summary: RunSummary(try folder.load(), page: configuration.pageLink(run: id)))
  }

  /// The fingerprints of known noise in the server's store (an environment folder, a branch's
  /// overlay), of `key` or of every snapshot.
  func noise(key: SnapshotKey?, environment: String?, branch: String?) throws -> KnownNoiseList {
    let store = try noiseStore(environment: environment, branch: branch)
    return KnownNoiseList(entries: try store.noiseEntries(keys: key.map { [$0] }).map(Self.entry))
  }

  /// Removes fingerprints (`RemoveNoiseRequest`); answers those removed.
  ///
  /// - Throws: `APIError` 400 for a request that names none, 404 for an id that names no
  ///   fingerprint of the key.
  func removeNoise(_ request: RemoveNoiseRequest) throws -> KnownNoiseList {
    let ids = request.ids ?? []
    let stale = request.stale ?? false
    let all = request.all ?? false
    guard stale || (request.key != nil && (all != !ids.isEmpty)) else {
      throw APIError.badRequest(
        "say which fingerprints: {\"key\", \"ids\"}, {\"key\", \"all\": true} or {\"stale\": true}")
    }
    var key: SnapshotKey?
    if let raw = request.key {
      do {
        key = try SnapshotKey(raw)
      } catch {
        throw APIError.unprocessable(error.description)
      }
    }
    let store = try noiseStore(environment: request.environment, branch: request.branch)
    let removed: [BaselineStore.NoiseEntry]
    do {
      removed = try store.removeNoise(key: key, ids: ids, all: all, stale: stale)
    } catch let error as RunError {
      throw APIError.notFound(error.message)
    }
    return KnownNoiseList(entries: removed.map(Self.entry))
  }

  /// The flaky snapshots of the newest `runs` runs the index lists (on `branch`, when given).
  func flaky(runs: Int, branch: String?) throws -> FlakyList {
    try index.synchronize()
    var query = RunQuery()
    query.limit = runs
    query.branch = branch
    let ids = try index.runs(query).runs.map(\.id)
    let records = FlakySnapshots.records(ids: ids, in: configuration.runsDirectory)
    return FlakyList(
      runsRead: records.count,
      snapshots: FlakySnapshots.find(in: records).map {
        FlakyList.Snapshot(
          key: $0.key, flips: $0.flips, passed: $0.passed, failed: $0.failed, baselineHash: $0.baselineHash,
          environment: $0.environment, commit: $0.commit, runs: $0.runs, verdicts: $0.verdicts)
      })
  }

  /// The keys the review page marks flaky: those of ``flaky(runs:branch:)`` over the newest 50
  /// runs.
  func flakyKeys() throws -> Set<String> {
    Set(try flaky(runs: 50, branch: nil).snapshots.map(\.key))
  }

  private static func entry(_ entry: BaselineStore.NoiseEntry) -> KnownNoiseList.Entry {
    KnownNoiseList.Entry(
      key: entry.key.rawValue, environment: entry.location.environment, stale: entry.isStale,
      fingerprint: entry.fingerprint)
  }

  /// The server's store, in an environment folder and (with `branch`) that branch's overlay.
  private func noiseStore(environment: String?, branch: String?) throws -> BaselineStore {
    do {
      var store = try BaselineStore(
        root: configuration.store.root, environment: environment ?? configuration.store.environment)
      if let branch { store.overlays = [try BranchOverlay.folder(of: branch)] }
      return store
    } catch {
      throw APIError.unprocessable(String(describing: error))
    }
  }
}
