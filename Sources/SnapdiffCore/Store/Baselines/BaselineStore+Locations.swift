/// Where a key's baseline lies, for callers that name a place other than the one a run searches
/// (`locate`): a prune's scope, the place an approval in the log wrote, a baseline path a run
/// recorded. The store builds every such path; callers hold `Location`s and hand them back.
extension BaselineStore {
  /// Where `key`'s baseline lies in the store's own folders, or in the overlay `overlay` (a
  /// folder relative to the store, `.branches/feature%2Flogin`): in the environment folder
  /// `environment`, or at the root without one. Whether a file is there is not checked. This
  /// store's own environment and overlays play no part: the caller names the place.
  public func location(of key: SnapshotKey, inEnvironment environment: String?, overlay: String? = nil) -> Location {
    let layer = overlay.map { root + "/" + $0 } ?? root
    let folder = environment.map { layer + "/" + $0 } ?? layer
    return Location(path: folder + "/" + key.relativePath(), environment: environment)
  }

  /// The baseline at `path` (absolute, as a run's record names it: `SnapshotRecord.baseline`
  /// resolved against its run folder), as a location of this store: in this store's environment
  /// folder when it lies under it; `nil` when it lies outside the store.
  public func location(ofRecorded path: String) -> Location? {
    guard path.hasPrefix(root + "/") else { return nil }
    let environment = self.environment.flatMap { path.hasPrefix(root + "/" + $0 + "/") ? $0 : nil }
    return Location(path: path, environment: environment)
  }

  /// Whether the baseline at `location` lies in the overlay this store writes to (its first);
  /// `true` when it has none (the store itself is written to).
  public func isInWrittenOverlay(_ location: Location) -> Bool {
    guard let overlay = overlays.first else { return true }
    return location.path.hasPrefix(root + "/" + overlay + "/")
  }

  /// Calls `body` with every baseline PNG and element tree the store holds, its overlays'
  /// (a hidden folder, which listings of keys leave out) included: the file's path and bytes.
  /// What the blob collection keeps, and takes good copies of blobs from.
  public func forEachImageFile(_ body: (_ path: String, _ bytes: [UInt8]) throws -> Void) throws {
    for folder in [root, root + "/" + Self.overlaysDirectory] where FileSystem.isDirectory(folder) {
      for file in try FileSystem.files(under: folder) where file.hasSuffix(".png") || file.hasSuffix(".tree.json") {
        let path = folder + "/" + file
        try body(path, try FileIO.read(path))
      }
    }
  }
}
