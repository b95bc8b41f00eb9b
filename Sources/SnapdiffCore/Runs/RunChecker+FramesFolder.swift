/// What a frames folder holds, as `check` reads it: frames by key, and the snapshots the test
/// side skipped.
extension RunChecker {
  /// The frames in a folder: `<key>.png` (with `<key>.tree.json` or an XCUITest dump
  /// `<key>.txt` beside it, if any), or a tree alone (`<key>.tree.json`, else `<key>.txt`),
  /// rendered, by key.
  ///
  /// - Throws: `FileError` for a folder that holds files but no snapshot at all (neither frames
  ///   nor skips): a run of 0 snapshots must not pass.
  static func frames(in folder: String) throws -> [(key: SnapshotKey, path: String)] {
    let files = try FileSystem.files(under: folder, accountingForEverything: true)
    let pngs = Set(files.filter { $0.lowercased().hasSuffix(".png") }.map { String($0.dropLast(4)) })
    let trees = Set(files.filter { $0.lowercased().hasSuffix(".tree.json") }.map { String($0.dropLast(10)) })
    var frames: [(key: SnapshotKey, path: String)] = []
    for file in files {
      let lowered = file.lowercased()
      if lowered.hasSuffix(".png") {
        frames.append((try SnapshotKey(relativeImagePath: file), folder + "/" + file))
      } else if lowered.hasSuffix(".tree.json") && !pngs.contains(String(file.dropLast(10))) {
        frames.append((try SnapshotKey(String(file.dropLast(10))), folder + "/" + file))
      } else if lowered.hasSuffix(".txt") {
        let stem = String(file.dropLast(4))
        if !pngs.contains(stem) && !trees.contains(stem) { frames.append((try SnapshotKey(stem), folder + "/" + file)) }
      }
    }
    if frames.isEmpty && !files.isEmpty && !files.contains(where: { $0.hasSuffix(".skipped.json") }) {
      throw FileError(
        path: folder,
        message: "holds \(files.count) file\(files.count == 1 ? "" : "s") but no snapshot: a frame is <key>.png "
          + "(with <key>.tree.json or an XCUITest dump <key>.txt beside it), or <key>.tree.json or <key>.txt alone")
    }
    return frames
  }

  /// Snapshots the test-side API skipped: `<key>.skipped.json` files (`{"key", "reason"}`).
  static func skips(in folder: String) throws -> [(key: SnapshotKey, reason: String)] {
    try FileSystem.files(under: folder).filter { $0.hasSuffix(".skipped.json") }.map { file in
      let key = try SnapshotKey(String(file.dropLast(13)))
      let bytes = try FileIO.read(folder + "/" + file, limit: 1 << 16)
      let skip = try? JSONDecoderBox.decode(SkipNote.self, from: bytes)
      return (key, skip?.reason ?? "skipped by the test")
    }
  }

  struct SkipNote: Decodable { var reason: String }
}
