import Hummingbird
import SnapdiffCore
import SnapdiffWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `/api/v1/runs/{run}/snapshots/{key}…`: post a frame, read a verdict, fetch its images,
/// approve or reject it.
///
/// The key is the rest of the path after `snapshots/`, percent-decoded: `Home%20-%20test%2FHome`
/// (one segment, `/` written `%2F`) and `Home%20-%20test/Home` (`/` as it is) name the same
/// snapshot. For GET and POST, a last segment `baseline.png`, `current.png`, `diff.png`,
/// `approve` or `reject` is the action, not part of the key.
@available(macOS 14, iOS 17, tvOS 17, *)
struct SnapshotsController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.put(.init(APIPaths.Route.snapshots), use: put)
    router.get(.init(APIPaths.Route.snapshots), use: get)
    router.post(.init(APIPaths.Route.snapshots), use: post)
  }

  /// `PUT …/snapshots/{key}`: the body is the frame (`image/png`), an element tree
  /// (`application/json`), or `multipart/form-data` with parts `frame`, `tree`, `settings`.
  @Sendable func put(_ request: Request, context: ServerRequestContext) async throws -> SnapshotVerdictResponse {
    let id = try RunsController.runID(context)
    let key = try Self.key(try Self.tail(context))
    // Refuse a closed or unknown run before receiving a large body (and a content type that
    // is not taken, below, before reading any of it).
    let (_, record) = try await Blocking.run { [service] in try service.storedRecord(id) }
    guard record.closedAt == nil else {
      throw APIError.conflict("run \(id) is closed: open a new run (POST /api/v1/runs)")
    }
    let contentType = request.headers[.contentType] ?? "image/png"
    let mediaType = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
    let limit = service.configuration.maxUploadBytes
    let uploads = service.configuration.uploadsDirectory
    // Each body is read under its own limit, and parsed on a worker: a tree's JSON or a
    // multipart body costs the cooperative threads nothing.
    let frame: IncomingFrame
    switch mediaType {
    case "image/png", "application/octet-stream", "":
      let body = try await Upload.receive(
        request, limit: limit, what: "the request body", option: "--max-upload-mb", into: uploads)
      guard !body.isEmpty else { throw APIError.badRequest("the body is empty: send the frame") }
      frame = IncomingFrame(png: body)
    case "application/json":
      let body = try await Upload.receive(request, limit: UploadLimits.tree, what: "the element tree", into: uploads)
      guard !body.isEmpty else { throw APIError.badRequest("the body is empty: send the frame") }
      frame = IncomingFrame(tree: try await service.work.run { try Self.tree(body, key: key) })
    case "multipart/form-data":
      let form = try await Upload.receiveMultipart(request, contentType: contentType, limit: limit) { name in
        UploadLimits.part(name, maxUploadBytes: limit)
      }
      frame = try await service.work.run { try Self.frame(from: form, key: key) }
    default:
      throw APIError.unsupportedMediaType(
        "send the frame as image/png, an element tree as application/json, or multipart/form-data"
          + " (frame, tree, settings), not \(mediaType)")
    }
    // Decoded images are reserved before they exist: a flood of large frames waits for room
    // instead of taking the memory.
    let cost = try await service.work.run { [service] in try service.decodeCost(of: frame, key: key) }
    let snapshot = try await service.decodeBudget.withReservation(cost, what: "the frame of '\(key)'") {
      try await service.work.run { [service] in try service.submit(run: id, key: key, frame: frame) }
    }
    return SnapshotVerdictResponse(
      snapshot, run: id, page: service.configuration.pageLink(run: id), shown: service.shownPaths)
  }

  /// `GET …/snapshots/{key}` (the verdict) or `…/{key}/baseline.png|current.png|diff.png`,
  /// with `?thumb` a thumbnail of it.
  @Sendable func get(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let id = try RunsController.runID(context)
    let tail = try Self.tail(context)
    if let (rawKey, action) = Self.split(tail), action.hasSuffix(".png"),
      let kind = RunService.ImageKind(rawValue: String(action.dropLast(4)))
    {
      let key = try Self.key(rawKey)
      // `?thumb`: the small version the review page's cards show (made once, then cached).
      let thumbnail = request.uri.queryParameters.get("thumb") != nil
      // Images are kept by hash: their tag first, and a 304 without reading (or making) them.
      let tag = try await Blocking.run { [service] in
        try service.record(id).1.snapshots.first { $0.key == key.rawValue }.flatMap {
          ImageValidators.tag(
            of: $0, kind: HTMLReport.ImageKind(rawValue: kind.rawValue) ?? .current, thumbnail: thumbnail)
        }
      }
      let versioned = tag != nil && request.uri.queryParameters.get("v").map { String($0) } == tag
      let headers = ImageValidators.headers(tag: tag, versioned: versioned)
      if let tag, ImageValidators.matches(request.headers[.ifNoneMatch], tag: tag) {
        return Response(
          status: .notModified, headers: ImageValidators.headers(tag: tag, versioned: versioned, withType: false))
      }
      let path = try await Blocking.run { [service] in
        thumbnail
          ? try service.thumbnail(run: id, key: key.rawValue, kind: kind)
          : try service.image(run: id, key: key.rawValue, kind: kind)
      }
      let body = try await Hummingbird.FileIO().loadFile(path: path, context: context)
      return Response(status: .ok, headers: headers, body: body)
    }
    let key = try Self.key(tail)
    let (_, record) = try await Blocking.run { [service] in try service.record(id) }
    guard let snapshot = record.snapshots.first(where: { $0.key == key.rawValue }) else {
      throw APIError.notFound("no snapshot '\(key)' in run \(id)")
    }
    return try SnapshotVerdictResponse(
      snapshot, run: id, page: service.configuration.pageLink(run: id), shown: service.shownPaths
    ).response(from: request, context: context)
  }

  /// `POST …/snapshots/{key}/approve` or `…/{key}/reject` (a review), or `…/{key}/skip` with
  /// `{"reason"}` (the test skipped the snapshot: its verdict).
  @Sendable func post(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let id = try RunsController.runID(context)
    guard let (rawKey, action) = Self.split(try Self.tail(context)),
      ["approve", "reject", "skip", "noise"].contains(action)
    else {
      throw APIError.notFound("POST …/snapshots/{key}/approve, …/{key}/reject, …/{key}/noise or …/{key}/skip")
    }
    let key = try Self.key(rawKey)
    if action == "skip" {
      let body = try await JSONBody.decode(SkipRequest.self, from: request)
      let snapshot = try await Blocking.run { [service] in try service.skip(run: id, key: key, reason: body.reason) }
      return try SnapshotVerdictResponse(
        snapshot, run: id, page: service.configuration.pageLink(run: id), shown: service.shownPaths
      ).response(from: request, context: context)
    }
    return try await review(action: action, key: key, run: id).response(from: request, context: context)
  }

  private func review(action: String, key: SnapshotKey, run id: String) async throws -> ReviewResult {
    let selection = Review.Selection(patterns: [key.rawValue])
    return try await Blocking.run { [service] in
      action == "noise"
        ? try service.approveAsNoise(run: id, selection: selection, dryRun: false)
        : action == "approve"
          ? try service.approve(run: id, selection: selection, dryRun: false)
          : try service.reject(run: id, selection: selection)
    }
  }

  /// The raw (percent-encoded) path after `snapshots/`.
  static func tail(_ context: ServerRequestContext) throws -> Substring {
    guard let tail = context.parameters.get(String(Parameters.recursiveCaptureKey)), !tail.isEmpty else {
      throw APIError.notFound("name the snapshot: …/snapshots/{key}")
    }
    return tail[...]
  }

  /// `a%2Fb/diff.png` → (`a%2Fb`, `diff.png`): the last literal `/` splits off the action.
  static func split(_ tail: Substring) -> (key: Substring, action: String)? {
    guard let slash = tail.lastIndex(of: "/") else { return nil }
    return (tail[..<slash], String(tail[tail.index(after: slash)...]))
  }

  /// A raw key decoded and validated.
  ///
  /// - Throws: 400 for a bad percent-encoding, 422 for a key that could leave the store.
  static func key(_ raw: Substring) throws -> SnapshotKey {
    guard let decoded = APIPaths.decode(raw) else {
      throw APIError.badRequest("the snapshot key '\(raw)' is not valid percent-encoded UTF-8")
    }
    do {
      return try SnapshotKey(decoded)
    } catch {
      throw APIError.unprocessable(error.description)
    }
  }

  /// An element tree sent as JSON.
  static func tree(_ bytes: [UInt8], key: SnapshotKey, part: String? = nil) throws -> ElementTree {
    do {
      return try ElementTree.decode(bytes, path: part.map { "\($0) of '\(key)'" } ?? "the tree of '\(key)'")
    } catch {
      throw APIError.unprocessable(String(describing: error))
    }
  }

  /// Settings sent as JSON, checked as a settings file is.
  static func settings(_ bytes: [UInt8], key: SnapshotKey) throws -> SnapshotSettings {
    let settings: SnapshotSettings
    do {
      settings = try JSONDecoder().decode(SnapshotSettings.self, from: Data(bytes))
    } catch {
      throw APIError.unprocessable(JSONProblem.describe(error, in: "the settings part of '\(key)'"))
    }
    if let problem = settings.applied(to: DiffOptions()).problem {
      throw APIError.unprocessable("the settings part of '\(key)': \(problem)")
    }
    do {
      _ = try settings.applied(to: FrameComparison())
    } catch {
      throw APIError.unprocessable("the settings part of '\(key)': \(error)")
    }
    return settings
  }

  /// The parts `frame` (PNG), `tree` (element tree JSON) and `settings` (JSON), each at most once.
  static func frame(fromMultipart body: [UInt8], contentType: String, key: SnapshotKey) throws -> IncomingFrame {
    try frame(from: try multipart { try MultipartForm(body: body, contentType: contentType) }, key: key)
  }

  /// The frame a parsed form holds: its parts checked and decoded.
  static func frame(from form: MultipartForm, key: SnapshotKey) throws -> IncomingFrame {
    var frame = IncomingFrame()
    var seen = Set<String>()
    for part in form.parts {
      guard seen.insert(part.name).inserted else {
        throw APIError.badRequest("part '\(part.name)' is sent twice")
      }
      switch part.name {
      case "frame": frame.png = part.body
      case "tree": frame.tree = try tree(part.body, key: key, part: "the tree part")
      case "settings": frame.settings = try settings(part.body, key: key)
      default:
        throw APIError.badRequest("unknown part '\(part.name)': send frame (PNG), tree and settings (JSON)")
      }
    }
    guard frame.png != nil || frame.tree != nil else {
      throw APIError.badRequest("send a 'frame' part (PNG), a 'tree' part (element tree), or both")
    }
    return frame
  }

  /// `body`, its multipart errors as API errors.
  static func multipart<T>(_ body: () throws -> T) throws -> T {
    try Upload.multipart(body)
  }
}
