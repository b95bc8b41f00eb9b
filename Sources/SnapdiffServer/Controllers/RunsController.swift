import Hummingbird
import SnapdiffCore
import SnapdiffWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `/api/v1/runs`: list, open, read, close, and review a run as a whole.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RunsController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get(.init(APIPaths.Route.runs), use: list)
    router.post(.init(APIPaths.Route.runs), use: open)
    router.get(.init(APIPaths.Route.run), use: show)
    router.post(.init(APIPaths.Route.close), use: close)
    router.post(.init(APIPaths.Route.approve), use: approve)
    router.post(.init(APIPaths.Route.reject), use: reject)
  }

  /// `GET /api/v1/runs?limit=&offset=&branch=&name=&verdict=passed|failed|empty&open=true|false`
  @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> RunList {
    let parameters = request.uri.queryParameters
    var query = RunQuery()
    if let limit = parameters.get("limit") {
      guard let value = Int(limit), (1...500).contains(value) else {
        throw APIError.badRequest("'limit' must be a number from 1 to 500")
      }
      query.limit = value
    }
    if let offset = parameters.get("offset") {
      guard let value = Int(offset), value >= 0 else { throw APIError.badRequest("'offset' must be 0 or more") }
      query.offset = value
    }
    query.branch = parameters.get("branch")
    query.name = parameters.get("name")
    if let verdict = parameters.get("verdict") {
      guard let value = RunVerdict(rawValue: verdict) else {
        throw APIError.badRequest("'verdict' must be passed, failed or empty")
      }
      query.verdict = value
    }
    if let open = parameters.get("open") {
      guard let value = Bool(open) else { throw APIError.badRequest("'open' must be true or false") }
      query.open = value
    }
    let chosen = query
    return try await Blocking.run { [service] in try service.list(chosen) }
  }

  /// `POST /api/v1/runs` `{"name", "branch"?, "environment"?, "recordMode"?}` → 201
  @Sendable func open(_ request: Request, context: ServerRequestContext) async throws -> EditedResponse<RunSummary> {
    let body = try await JSONBody.decode(OpenRunRequest.self, from: request)
    let record = try await Blocking.run { [service] in try service.open(body) }
    let summary = RunSummary(record, page: service.configuration.pageLink(run: record.id))
    return EditedResponse(status: .created, headers: [.location: summary.links.run], response: summary)
  }

  /// `GET /api/v1/runs/{run}`: the run's `run.json`, as the CLI wrote it (an open run's with the
  /// snapshots its log holds so far).
  @Sendable func show(_ request: Request, context: ServerRequestContext) async throws -> Response {
    let id = try Self.runID(context)
    let bytes = try await Blocking.run { [service] in
      let folder = try service.folder(id)
      guard try folder.loadStored().closedAt == nil else {
        return try SnapdiffCore.FileIO.read(folder.recordPath, limit: 1 << 30)
      }
      return try folder.load().encoded()
    }
    return Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// `POST /api/v1/runs/{run}/close` `{"complete"?, "keys"?, "prefix"?}` (or no body) → the
  /// summary and the verdict.
  @Sendable func close(_ request: Request, context: ServerRequestContext) async throws -> RunSummary {
    let id = try Self.runID(context)
    // An empty body closes the run with what it received; `{"complete": true}` (with `keys` or
    // `prefix`) also lists the baselines the run did not receive as missing.
    var bytes: [UInt8] = []
    try await Upload.read(request, limit: UploadLimits.json, what: "the JSON body") { buffer in
      bytes += buffer.readableBytesView
    }
    let received = bytes
    let close = try await Blocking.run {
      received.isEmpty ? CloseRunRequest() : try JSONBody.decode(CloseRunRequest.self, received)
    }
    return RunSummary(
      try await Blocking.run { [service] in try service.close(run: id, request: close) },
      page: service.configuration.pageLink(run: id))
  }

  /// `POST /api/v1/runs/{run}/approve` `{"all"|"failed"|"new": true, "sameAs": KEY, "keys": […], "dryRun"}`,
  /// `"variant": NAME` to add the frames as another accepted baseline.
  @Sendable func approve(_ request: Request, context: ServerRequestContext) async throws -> ReviewResult {
    let id = try Self.runID(context)
    let body = try await JSONBody.decode(ReviewRequest.self, from: request)
    return try await Blocking.run { [service] in
      try service.approve(run: id, selection: body.selection, dryRun: body.dryRun ?? false, asVariant: body.variant)
    }
  }

  /// `POST /api/v1/runs/{run}/reject` with the same selectors as approve (no `dryRun`).
  @Sendable func reject(_ request: Request, context: ServerRequestContext) async throws -> ReviewResult {
    let id = try Self.runID(context)
    let body = try await JSONBody.decode(ReviewRequest.self, from: request)
    if body.variant != nil { throw APIError.badRequest("\"variant\" is for approvals: a rejection adds no baseline") }
    return try await Blocking.run { [service] in try service.reject(run: id, selection: body.selection) }
  }

  /// The `{run}` parameter, percent-decoded.
  static func runID(_ context: ServerRequestContext) throws -> String {
    let raw = try context.parameters.require(APIPaths.Route.runParameter)
    guard let id = APIPaths.decode(raw[...]) else {
      throw APIError.badRequest("the run id '\(raw)' is not valid percent-encoded UTF-8")
    }
    return id
  }
}
