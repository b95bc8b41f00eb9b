#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `snapdiff report RUN --out DIR`: a run's reports as a folder that works anywhere (a CI
/// artifact): `run.json`, `junit.xml`, `index.html` and `images/<hash>.png` for every image the
/// report shows, nothing outside it; or, `singleFile`, one `index.html` with its images inlined
/// as `data:` URIs.
///
/// Images come from the run folder's `images/`, else the blob store. A run recorded before
/// images were kept by hash gets its hashes here, from the files its record names (in the
/// exported copy only).
///
/// ```swift
/// try ReportExport.write(folder: RunFolder(path: ".snapdiff/runs/last"), to: "artifacts/snapdiff")
/// ```
public enum ReportExport {
  /// What was written.
  public struct Written: Sendable, Equatable {
    /// The files, absolute.
    public var files: [String] = []
    public var bytes: Int = 0
  }

  public static func write(
    folder: RunFolder, blobs: BlobStore? = nil, to directory: String, singleFile: Bool = false
  ) throws -> Written {
    let blobs = blobs ?? BlobStore.beside(runsDirectory: PathText.parent(of: folder.path))
    var record = try folder.load()
    var images: [String: [UInt8]] = [:]
    func image(hash: String?, path: String?) throws -> String? {
      if let hash {
        guard BlobStore.isHash(hash) else { throw RunError("\(folder.recordPath): '\(hash)' is not an image hash") }
        if images[hash] == nil { images[hash] = try RunImages(folder: folder, blobs: blobs).bytes(of: hash) }
        return hash
      }
      // An older run: its image files inside the run folder (never through a link out of it),
      // hashed now.
      guard let path, path.hasSuffix(".png") else { return nil }
      let resolved = folder.resolve(path)
      guard (try? folder.confinement.check(resolved)) != nil, FileSystem.kind(of: resolved) == .file else { return nil }
      let bytes = try FileIO.readRegularFile(resolved, limit: 1 << 34)
      let computed = SHA256.hex(bytes)
      images[computed] = bytes
      return computed
    }
    for index in record.snapshots.indices {
      let snapshot = record.snapshots[index]
      record.snapshots[index].baselineHash = try image(hash: snapshot.baselineHash, path: snapshot.baseline)
      record.snapshots[index].currentHash = try image(hash: snapshot.currentHash, path: snapshot.current)
      record.snapshots[index].diffHash = try image(hash: snapshot.diffHash, path: snapshot.diff)
    }
    let target = FileSystem.absolute(directory)
    try FileSystem.createDirectories(target)
    let confinement = Confinement(root: target, place: "report folder")
    var written = Written()
    func put(_ bytes: [UInt8], _ name: String) throws {
      let path = target + "/" + name
      try confinement.createFolders(containing: path)
      try confinement.write(bytes, to: path)
      written.files.append(path)
      written.bytes += bytes.count
    }
    let html = HTMLReport.render(record)
    if singleFile {
      try put(Array(inlined(html, images: images).utf8), HTMLReport.fileName)
      return written
    }
    try put(record.encoded(), "run.json")
    try put(Array(JUnitReport.render(record).utf8), JUnitReport.fileName)
    try put(Array(html.utf8), HTMLReport.fileName)
    for (hash, bytes) in images.sorted(by: { $0.key < $1.key }) { try put(bytes, RunImages.relativePath(of: hash)) }
    return written
  }

  /// The page with every `src` and `href` of `images/<hash>.png` replaced by the image as a
  /// `data:` URI: the thumbnails, and the links the viewer loads its images from.
  static func inlined(_ html: String, images: [String: [UInt8]]) -> String {
    var page = html
    for (hash, bytes) in images {
      let data = "data:image/png;base64,\(Data(bytes).base64EncodedString())"
      for attribute in ["src", "href"] {
        page = page.replacing("\(attribute)=\"\(RunImages.relativePath(of: hash))\"", with: "\(attribute)=\"\(data)\"")
      }
    }
    return page
  }
}
