import SnapdiffCore

/// `Leftovers.clean` as `check`, `serve` and `prune` run it when they start, with one line on
/// standard error when something was removed.
package enum LeftoverCleaning {
  /// Cleans the project's store and data folder (`runsDirectory`'s parent, or `dataDirectory`).
  package static func run(store: BaselineStore, runsDirectory: String, dataDirectory: String? = nil) {
    let runs = FileSystem.absolute(runsDirectory)
    let data = dataDirectory.map { FileSystem.absolute($0) } ?? PathText.parent(of: runs)
    let cleaned = Leftovers.clean(
      store: store, runsDirectory: runs, dataFolders: [data + "/cache", data + "/blobs"],
      uploadsDirectory: data + "/uploads")
    guard !cleaned.paths.isEmpty else { return }
    let count = cleaned.paths.count
    let minutes = Int(Leftovers.gracePeriod / 60)
    Console.status(
      "snapdiff: removed \(count) leftover\(count == 1 ? "" : "s") of interrupted runs (\(cleaned.bytes) bytes; "
        + "unfinished run folders, temporary files, uploads, all older than \(minutes) minutes)\n")
  }
}
