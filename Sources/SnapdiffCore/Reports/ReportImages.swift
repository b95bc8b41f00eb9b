/// Which file a report shows for each of a snapshot's images: the run folder's own copy,
/// `images/<hash>.png`, when the run recorded the image's hash (the image as the run compared
/// it, inside the folder, so the report works wherever the folder is copied); else, for runs
/// recorded before images were kept by hash, the record's path.
extension SnapshotRecord {
  /// The baseline as the run compared it.
  public var baselineImage: String? { baselineHash.map(RunImages.relativePath) ?? baseline }
  /// The current frame.
  public var currentImage: String? { currentHash.map(RunImages.relativePath) ?? current }
  /// The diff image.
  public var diffImage: String? { diffHash.map(RunImages.relativePath) ?? diff }
}
