import Dispatch

extension SeenApprovals {
  /// Re-checks another run's frames that are not byte for byte the approved ones against the
  /// new baselines, under the comparison that run recorded (`RunRecord.comparison`), with what
  /// the record leaves out: the store the approval wrote (its environment and overlays, which the
  /// runs re-checked share) and `snapdiff.json`'s rules by key.
  public struct Recheck: Sendable {
    public var store: BaselineStore
    public var config: ProjectConfig

    public init(store: BaselineStore, config: ProjectConfig) {
      self.store = store
      self.config = config
    }

    /// For each failed or new snapshot of `record` and the approval of its key, whether its kept
    /// frame (its bytes checked against its hash) passes against the baseline the approval wrote,
    /// at the level it was compared at. Anything that keeps it from being compared (a run that
    /// recorded no comparison, a frame or blob gone or damaged, settings that no longer apply)
    /// answers no: the snapshot stays as it was. On every core, a few decoded baselines shared.
    func passing(_ pairs: [(SnapshotRecord, ApprovalEntry)], of record: RunRecord, in folder: RunFolder) -> [Bool] {
      guard let recorded = record.comparison, !pairs.isEmpty,
        let rule = try? SnapshotCheck(recorded: recorded, config: config)
      else { return pairs.map { _ in false } }
      let frames = folder.resolve(record.currentDirectory)
      let baselines = DecodedBlobs(blobs: BlobStore.beside(runsDirectory: PathText.parent(of: folder.path)))
      let answers = ResultSlots<Bool>(count: pairs.count)
      let next = Counter()
      DispatchQueue.concurrentPerform(iterations: min(ProcessorCount.active, pairs.count)) { _ in
        while let index = next.take(below: pairs.count) {
          let (snapshot, approval) = pairs[index]
          let passes = try? passes(snapshot, against: approval, rule: rule, frames: frames, folder, baselines)
          answers.set(index, passes ?? false)
        }
      }
      return answers.values()
    }

    private func passes(
      _ snapshot: SnapshotRecord, against approval: ApprovalEntry, rule: SnapshotCheck, frames: String,
      _ folder: RunFolder, _ baselines: DecodedBlobs
    ) throws -> Bool {
      guard snapshot.status == .failed || snapshot.status == .new, let current = snapshot.current,
        let currentHash = snapshot.currentHash, let new = approval.new
      else { return false }
      let key = try SnapshotKey(snapshot.key)
      let baseline = try baselines.frame(png: new, tree: approval.newTree)
      // The copy the run kept, inside its folder (a run.json naming a file elsewhere is refused);
      // its pixels from the blob its hash names, its tree from beside it.
      let copy = folder.resolve(current)
      try folder.confinement.check(copy)
      let frame = try Frame.load(copy, decoded: try PNGDecoder().decode(baselines.blobs.read(currentHash), path: copy))
      let location = try store.locate(key)
      var comparison = try rule.comparison(
        for: key, baselineSettings: try location.flatMap { try store.settings(at: $0) },
        frameSettings: try SnapshotSettings.ofFrame(key, inFramesFolder: frames))
      // At the level the snapshot was compared at (a settings file may have changed it since).
      comparison.matchLevel = snapshot.matchLevel ?? .strict
      return try comparison.compare(baseline, frame).passed
    }
  }

  /// The baselines an approval wrote, decoded from their blobs; the newest kept up to
  /// ``keptBytes`` (and always the last one), so that frames re-checked against the same baseline
  /// share one decode without holding a whole group's images (an iPhone screen is 11.8 MB
  /// decoded).
  private final class DecodedBlobs: @unchecked Sendable {
    let blobs: BlobStore
    private var kept: [(hash: String, frame: Frame)] = []
    private let lock = Lock()
    static let keptBytes = 48 << 20

    init(blobs: BlobStore) { self.blobs = blobs }

    func frame(png: String, tree: String?) throws -> Frame {
      if let frame = lock.withLock({ kept.first { $0.hash == png }?.frame }) { return frame }
      let path = blobs.path(of: png)
      let image = try PNGDecoder().decode(try blobs.read(png), path: path)
      let tree = try tree.map(blobs.elementTree)
      let frame = Frame(image: image, tree: tree, path: path)
      lock.withLock {
        kept.append((png, frame))
        func bytes() -> Int { kept.reduce(0) { $0 + $1.frame.image.width * $1.frame.image.height * 4 } }
        while kept.count > 1, bytes() > Self.keptBytes { kept.removeFirst() }
      }
      return frame
    }
  }
}
