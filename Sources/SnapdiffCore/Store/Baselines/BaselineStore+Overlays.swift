/// Branch overlays as folders of the store (`BranchOverlay` holds the rules for branches: names,
/// chains, merging): `.branches/<branch>` under the root, laid out as the store is. The store
/// builds their paths; `BranchOverlay` names an overlay by its folder relative to the store
/// (`BranchOverlay.folder(of:)`).
extension BaselineStore {
  /// The folder, in the store, that holds every overlay.
  public static let overlaysDirectory = ".branches"

  /// Whether the overlay `overlay` (relative to the store) has a folder.
  public func hasOverlay(_ overlay: String) -> Bool {
    FileSystem.isDirectory(overlayFolder(overlay))
  }

  /// The names of the folders in `.branches` (percent-encoded branch names); none without it.
  public func overlayFolderNames() -> [String] {
    (try? FileSystem.entries(of: root + "/" + Self.overlaysDirectory)) ?? []
  }

  /// A baseline in an overlay: its key and location (its environment folder, `nil` for the
  /// overlay's root).
  public struct OverlayBaseline: Sendable, Equatable {
    public var key: SnapshotKey
    public var location: Location
  }

  /// The baselines in `overlay` now, in its root and its environment folders.
  ///
  /// - Throws: a key error for a PNG in the overlay that names no key.
  public func baselines(inOverlay overlay: String) throws -> [OverlayBaseline] {
    let folder = overlayFolder(overlay)
    guard FileSystem.isDirectory(folder) else { return [] }
    return try FileSystem.files(under: folder).filter { $0.hasSuffix(".png") }.map { file in
      // `<environment>/<key>.png` when the first folder is an environment folder.
      var environment: String?
      var relative = file
      if let slash = file.firstIndex(of: "/"),
        FileSystem.exists(folder + "/" + file[..<slash] + "/" + Self.environmentMarker)
      {
        environment = String(file[..<slash])
        relative = String(file[file.index(after: slash)...])
      }
      return OverlayBaseline(
        key: try SnapshotKey(relativeImagePath: relative),
        location: Location(path: folder + "/" + file, environment: environment))
    }
  }

  /// The environment folders in `overlay`.
  public func environments(inOverlay overlay: String) throws -> [String] {
    let folder = overlayFolder(overlay)
    return try FileSystem.entries(of: folder).filter {
      FileSystem.exists(folder + "/" + $0 + "/" + Self.environmentMarker)
    }
  }

  /// Refuses an overlay whose folder is, or lies under, a link leading out of the store.
  ///
  /// - Throws: `StoreEscapeError` naming the path and the link.
  public func checkConfined(overlay: String) throws(StoreEscapeError) {
    try confinement.check(overlayFolder(overlay))
  }

  /// Removes what a merge promoted out of an overlay: the baseline at `location` and its tree,
  /// settings and rejected changes (the caller holds the store's lock).
  ///
  /// - Throws: `StoreEscapeError` for a file that is, or lies under, a link leading out of the
  ///   store.
  func removePromoted(_ location: Location) throws {
    for suffix in [".png", ".tree.json", ".snapdiff.json", ".rejected.json"] {
      try confinement.remove(sidecarPath(of: location, suffix: suffix))
    }
  }

  /// Removes `overlay`'s folder and everything in it (the caller holds the store's lock).
  ///
  /// - Throws: `StoreEscapeError` when it is, or lies under, a link leading out of the store.
  func removeOverlay(_ overlay: String) throws {
    try confinement.removeTree(overlayFolder(overlay))
  }

  /// The absolute folder of `overlay`.
  func overlayFolder(_ overlay: String) -> String { root + "/" + overlay }
}
