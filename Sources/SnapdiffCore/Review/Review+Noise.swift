/// Approving a difference as noise: the baseline stays, and the difference's fingerprint
/// (`NoiseFingerprint`) is kept beside it, so that a later run that finds the same difference on
/// the same baseline passes as known noise.
extension Review {
  /// Records the selected snapshots' differences as known noise on the baselines the run
  /// compared (`BaselineStore.addNoise`) and marks them approved, with their fingerprint, in
  /// `run.json`. With `dryRun`, changes nothing.
  ///
  /// - Returns: the fingerprints recorded (or that would be), with their snapshots as they were.
  /// - Throws: `RunError` when a selected snapshot has no difference to fingerprint (new,
  ///   missing, not compared, or a size change), or when its baseline changed since the run.
  @discardableResult
  public func approveAsNoise(_ selection: Selection, dryRun: Bool = false) throws
    -> [(snapshot: SnapshotRecord, fingerprint: NoiseFingerprint)]
  {
    guard !dryRun else { return try Self.noiseFingerprints(selection, in: folder.load(), user: user) }
    return try folder.withLock {
      let run = try folder.load()
      let chosen = try Self.noiseFingerprints(selection, in: run, user: user)
      for (snapshot, fingerprint) in chosen {
        let key = try SnapshotKey(snapshot.key)
        // The baseline the run compared, where the run found it (`run.json`'s path, inside the store).
        guard let baseline = snapshot.baseline else { continue }
        let location = try location(ofRecordedBaseline: baseline)
        try store.addNoise(fingerprint, at: location, key: key)
        try store.forgetRejection(fingerprint.changeHash, at: location)
      }
      let fingerprints = Dictionary(chosen.map { ($0.snapshot.keyBytes, $0.fingerprint) }) { first, _ in first }
      let record = try folder.update { record in
        for index in record.snapshots.indices {
          guard let fingerprint = fingerprints[record.snapshots[index].keyBytes] else { continue }
          record.snapshots[index].status = .approved
          record.snapshots[index].knownNoise = fingerprint
        }
      }
      try RunReports.write(record, to: folder)
      return chosen
    }
  }

  /// The fingerprints of the snapshots `selection` picks in `record`.
  static func noiseFingerprints(_ selection: Selection, in record: RunRecord, user: String) throws
    -> [(snapshot: SnapshotRecord, fingerprint: NoiseFingerprint)]
  {
    let time = RunFolder.timestamp().iso
    return try select(selection, in: record).map { snapshot in
      guard snapshot.status == .failed || snapshot.status == .rejected else {
        throw RunError(
          "'\(snapshot.key)' is \(snapshot.status.rawValue): only a difference from a baseline can be approved as noise"
        )
      }
      guard snapshot.error == nil, let changeHash = snapshot.changeHash, let baselineHash = snapshot.baselineHash,
        snapshot.baseline != nil
      else {
        throw RunError("'\(snapshot.key)' has no compared difference in run \(record.id) to approve as noise")
      }
      guard snapshot.baselineSize == snapshot.currentSize else {
        throw RunError(
          "'\(snapshot.key)' changed size: a new look, not noise (approve it as the baseline instead)")
      }
      let fingerprint = NoiseFingerprint(
        changeHash: changeHash, baselineHash: baselineHash, regions: snapshot.regions,
        differentPixels: snapshot.differentPixels, approvedAt: time, approvedBy: user, run: record.id)
      return (snapshot, fingerprint)
    }
  }
}
