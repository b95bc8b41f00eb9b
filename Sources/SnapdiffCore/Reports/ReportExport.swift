import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `snapdiff report RUN --out DIR`: a run's reports as a folder that works anywhere (a CI
/// artifact): `run.json`, `junit.xml`, `index.html`, `thumbnails/<hash>.png` for every image the
/// report shows (its cards) and `images/<hash>.png` for those of the snapshots that need review
/// (failed, new, missing, rejected), or for every image with `allImages`; nothing outside it. A
/// passed snapshot's links then open its thumbnail. Or, `singleFile`, one `index.html` with
/// those images inlined as `data:` URIs.
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

  /// Where thumbnails go in an export, by the image's hash.
  static func thumbnailPath(of hash: String) -> String { "thumbnails/\(hash).png" }

  /// - Parameters:
  ///   - allImages: every image at full size, not only those of snapshots that need review.
  ///   - progress: `(done, total)` as thumbnails are made (one decode each).
  public static func write(
    folder: RunFolder, blobs: BlobStore? = nil, to directory: String, singleFile: Bool = false,
    allImages: Bool = false, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
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
    var fullSize: Set<String> = []
    for index in record.snapshots.indices {
      let snapshot = record.snapshots[index]
      record.snapshots[index].baselineHash = try image(hash: snapshot.baselineHash, path: snapshot.baseline)
      record.snapshots[index].currentHash = try image(hash: snapshot.currentHash, path: snapshot.current)
      record.snapshots[index].diffHash = try image(hash: snapshot.diffHash, path: snapshot.diff)
      if allImages || snapshot.status.isReviewable {
        let exported = record.snapshots[index]
        fullSize.formUnion([exported.baselineHash, exported.currentHash, exported.diffHash].compactMap { $0 })
      }
    }
    let thumbnails = makeThumbnails(of: images, progress: progress)
    // An image that does not decode (a frame the run reported broken, or one over the decoder's
    // limit) is kept at full size.
    fullSize.formUnion(images.keys.filter { thumbnails[$0] == nil })
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
    let small = Set(thumbnails.keys)
    var embedding = HTMLReport.Embedding()
    embedding.thumbnail = { snapshot, kind in
      let hash: String? =
        switch kind {
        case .baseline: snapshot.baselineHash
        case .current: snapshot.currentHash
        case .diff: snapshot.diffHash
        }
      return hash.flatMap { small.contains($0) ? thumbnailPath(of: $0) : nil }
    }
    let html = linkingThumbnails(HTMLReport.render(record, embedding: embedding), keeping: fullSize)
    var files: [String: [UInt8]] = [:]
    for (hash, bytes) in thumbnails { files[thumbnailPath(of: hash)] = bytes }
    for hash in fullSize { files[RunImages.relativePath(of: hash)] = images[hash] }
    if singleFile {
      try put(Array(inlined(html, files: files).utf8), HTMLReport.fileName)
      return written
    }
    try put(record.encoded(), "run.json")
    try put(Array(JUnitReport.render(record).utf8), JUnitReport.fileName)
    try put(Array(html.utf8), HTMLReport.fileName)
    for (path, bytes) in files.sorted(by: { $0.key < $1.key }) { try put(bytes, path) }
    return written
  }

  /// Every card's picture, small, by the image's hash: one decode of each image, on every core;
  /// none for an image that does not decode. `progress` is called on one thread at a time, with
  /// counts that only grow.
  static func makeThumbnails(
    of images: [String: [UInt8]], progress: @escaping @Sendable (Int, Int) -> Void
  ) -> [String: [UInt8]] {
    let hashes = images.keys.sorted()
    let made = ResultSlots<[UInt8]?>(count: hashes.count)
    let next = Counter()
    let done = Counter()
    let progressCalls = DispatchQueue(label: "snapdiff.report.thumbnails")
    let decoder = PNGDecoder()
    DispatchQueue.concurrentPerform(iterations: min(ProcessorCount.active, max(hashes.count, 1))) { _ in
      while let index = next.take(below: hashes.count) {
        let hash = hashes[index]
        let image = try? decoder.decode(images[hash]!, path: RunImages.relativePath(of: hash))
        made.set(index, image.flatMap { try? PNGEncoder(speed: .fast).encode(Thumbnail.make(of: $0)) })
        progressCalls.sync { progress(done.increment(), hashes.count) }
      }
    }
    var thumbnails: [String: [UInt8]] = [:]
    for (hash, bytes) in zip(hashes, made.values()) where bytes != nil { thumbnails[hash] = bytes }
    return thumbnails
  }

  /// `html` with each link to `images/<hash>.png` whose hash is not in `kept` opening the
  /// thumbnail instead, in one pass over the page (a run of 1,000 snapshots links 3,000 images).
  static func linkingThumbnails(_ html: String, keeping kept: Set<String>) -> String {
    let marker = "href=\"" + RunImages.directory + "/"
    let pieces = html.split(separator: marker, omittingEmptySubsequences: false)
    var page = String(pieces[0])
    for piece in pieces.dropFirst() {
      let end = piece.firstIndex(of: "\"") ?? piece.endIndex
      let name = piece[..<end]
      if name.hasSuffix(".png"), case let hash = String(name.dropLast(4)), BlobStore.isHash(hash), !kept.contains(hash)
      {
        page += "href=\"" + thumbnailPath(of: hash) + piece[end...]
      } else {
        page += marker + piece
      }
    }
    return page
  }

  /// The page with every `src` and `href` of a file in `files` (by its relative path) replaced
  /// by the file as a `data:` URI: the thumbnails, and the links the viewer loads its images from.
  static func inlined(_ html: String, files: [String: [UInt8]]) -> String {
    var page = html
    for (path, bytes) in files {
      let data = "data:image/png;base64,\(Data(bytes).base64EncodedString())"
      for attribute in ["src", "href"] {
        page = page.replacing("\(attribute)=\"\(path)\"", with: "\(attribute)=\"\(data)\"")
      }
    }
    return page
  }
}
