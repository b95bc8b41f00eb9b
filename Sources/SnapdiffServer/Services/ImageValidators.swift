import Hummingbird
import SnapdiffCore

/// How the service lets browsers keep a run's images: every image is kept by the hash its run
/// recorded (content-addressed), so its entity tag is that hash (a thumbnail's, the hash with the
/// regions it outlines and the thumbnail's size). A request that names the tag (`?v=TAG`, as the
/// review page's thumbnails do) is answered `Cache-Control: private, max-age=31536000,
/// immutable`: the URL can never show other bytes. Without it, `no-cache` with the `ETag`, and a
/// `304 Not Modified` for an `If-None-Match` that names it.
enum ImageValidators {
  /// The tag of `snapshot`'s image of `kind` (or of its thumbnail), without quotes; nil for a run
  /// recorded before images had hashes.
  static func tag(of snapshot: SnapshotRecord, kind: HTMLReport.ImageKind, thumbnail: Bool) -> String? {
    let hash: String? =
      switch kind {
      case .baseline: snapshot.baselineHash
      case .current: snapshot.currentHash
      case .diff: snapshot.diffHash
      }
    guard let hash, BlobStore.isHash(hash) else { return nil }
    guard thumbnail else { return hash }
    let regions = kind == .current ? snapshot.regions : []
    let outline = regions.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ";")
    let shape = "\(Thumbnails.maxWidth)x\(Thumbnails.maxHeight)\u{0}\(outline)"
    return "t" + hash.prefix(40) + SHA256.hex(Array(shape.utf8)).prefix(16)
  }

  /// Whether `If-None-Match` names `tag` (or is `*`).
  static func matches(_ ifNoneMatch: String?, tag: String) -> Bool {
    guard let ifNoneMatch else { return false }
    return ifNoneMatch.split(separator: ",").contains { item in
      var value = String(item.trimmingSpaces)
      if value == "*" { return true }
      if value.hasPrefix("W/") { value = String(value.dropFirst(2)) }
      return value == "\"" + tag + "\""
    }
  }

  /// The caching headers of an image answered with `tag`, named in the URL (`versioned`) or not;
  /// `withType`: and its content type (not for a 304).
  static func headers(tag: String?, versioned: Bool, withType: Bool = true) -> HTTPFields {
    var headers: HTTPFields = withType ? [.contentType: "image/png"] : [:]
    guard let tag else {
      headers[.cacheControl] = "no-cache"
      return headers
    }
    headers[.eTag] = "\"" + tag + "\""
    headers[.cacheControl] = versioned ? "private, max-age=31536000, immutable" : "no-cache"
    return headers
  }
}
