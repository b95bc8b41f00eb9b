import Hummingbird
import SnapdiffCore

/// The review pages the service serves: the run list (`/`) and a run (`/runs/{run}`), plain HTML
/// with inline CSS and script, no network access but the service itself.
///
/// A run's page is the CLI's `index.html` (`HTMLReport.render`: changes grouped, cards with
/// thumbnails, filters, the viewer) built through `HTMLReport.Embedding`, not patched: its images
/// pointed at the API, thumbnails from `?thumb=1`, the service's bar, and the review script
/// (approve, reject, group and same-change actions by fetch, updated in place; keys), and, when
/// the server has a token, a field for it (kept in the browser's `localStorage`, and in a cookie
/// so that images load under `--private`).
@available(macOS 14, iOS 17, tvOS 17, *)
enum ReviewPage {
  /// `/`: the runs, newest first.
  ///
  /// - Parameter branches: each listed run's base branch (`RunService.baseBranch(ofRun:)`) and
  ///   what its branch's overlay holds, by run id.
  ///   - branch: the branch the list is narrowed to (`/?branch=NAME`), if any.
  static func runList(
    _ list: RunList, branches: [String: RunBranchColumns] = [:], branch: String? = nil, authRequired: Bool
  ) -> String {
    var html = head(title: "snapdiff runs")
    html += "<body>\n" + bar(authRequired: authRequired, title: "snapdiff", backLink: false)
    html += "<main class=\"runs\">\n<h1>Runs"
    if let branch { html += " on branch <code>\(text(branch))</code>" }
    html += " <span class=\"muted\">\(list.total)</span></h1>\n"
    let narrowed = branch.map { "&branch=" + PercentEncoding.segment($0) } ?? ""
    html += "<input class=\"filter\" type=\"search\" placeholder=\"Filter by id, name or branch\""
    html += " aria-label=\"Filter runs\">\n"
    if list.runs.isEmpty {
      html += "<p class=\"empty\">No runs yet. Open one with <code>POST /api/v1/runs</code>, or run"
      html += " <code>snapdiff check FRAMES</code> in this project.</p>\n"
    } else {
      html +=
        "<table>\n<thead><tr><th>Run</th><th>Name</th><th>Branch</th><th>Base</th><th>Overlay</th><th>Created (UTC)</th>"
      html += "<th>State</th><th>Snapshots</th><th>To review</th><th>Verdict</th></tr></thead>\n<tbody>\n"
      for run in list.runs {
        let search = [run.id, run.name ?? "", run.branch ?? ""].joined(separator: " ").lowercased()
        html += "<tr data-search=\"\(attribute(search))\">"
        html += "<td><a href=\"/runs/\(attribute(APIPaths.segment(run.id)))\"><code>\(text(run.id))</code></a></td>"
        html += "<td>\(text(run.name ?? "—"))</td><td>\(text(run.branch ?? "—"))</td>"
        html += branchCells(run, branches[run.id])
        html += "<td><time datetime=\"\(attribute(run.createdAt))\">\(text(display(run.createdAt)))</time></td>"
        html += "<td>\(run.open ? "<span class=\"badge open\">open</span>" : "closed")</td>"
        let counts = run.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        html += "<td title=\"\(attribute(counts))\">\(run.snapshotCount)"
        html += counts.isEmpty ? "" : " <span class=\"muted\">(\(text(counts)))</span>"
        html += "</td><td>\(run.toReview)</td>"
        html += "<td><span class=\"badge \(run.verdict.rawValue)\">\(run.verdict.rawValue)</span></td></tr>\n"
      }
      html += "</tbody>\n</table>\n"
    }
    let shownTo = list.offset + list.runs.count
    if list.offset > 0 || shownTo < list.total {
      html += "<nav class=\"pages\">"
      if list.offset > 0 {
        html += "<a href=\"/?offset=\(max(0, list.offset - list.limit))\(attribute(narrowed))\">Newer</a> "
      }
      html += "<span class=\"muted\">\(list.offset + 1)–\(shownTo) of \(list.total)</span>"
      if shownTo < list.total { html += " <a href=\"/?offset=\(shownTo)\(attribute(narrowed))\">Older</a>" }
      html += "</nav>\n"
    }
    html += "</main>\n<script>\n\(listScript)\n\(tokenScript)\n</script>\n</body>\n</html>\n"
    return html
  }

  /// `/runs/{run}`: the run's report (``HTMLReport/render(_:embedding:)``) with images and
  /// thumbnails from the API, the service's bar and the review script.
  /// `flakyKeys`: the snapshots marked flaky (`RunService.flakyKeys`).
  ///
  /// - Parameter overlay: what the run's branch's overlay holds now (`nil`: it has none).
  static func run(
    _ record: RunRecord, overlay: BranchOverview? = nil, authRequired: Bool,
    flakyKeys: Set<String> = [], approvals: [ApprovalOperation] = []
  ) -> String {
    var served = record
    // The thumbnails' tags, taken before the hashes are cleared below: a thumbnail's URL names
    // its tag (`&v=`), so the browser keeps it (`ImageValidators`).
    var thumbnailTags: [String: [HTMLReport.ImageKind: String]] = [:]
    for snapshot in record.snapshots {
      for kind in [HTMLReport.ImageKind.baseline, .current] {
        if let tag = ImageValidators.tag(of: snapshot, kind: kind, thumbnail: true) {
          thumbnailTags[snapshot.key, default: [:]][kind] = tag
        }
      }
    }
    let tags = thumbnailTags
    for index in served.snapshots.indices {
      let snapshot = served.snapshots[index]
      // Paths as URLs: HTMLReport percent-encodes each segment, keeping the `/`s of the key,
      // which the snapshot routes read back as one key.
      let base = APIPaths.snapshotUnencoded(run: record.id, key: snapshot.key) + "/"
      served.snapshots[index].baseline = snapshot.baseline.map { _ in base + "baseline.png" }
      served.snapshots[index].current = snapshot.current.flatMap { $0.hasSuffix(".png") ? base + "current.png" : nil }
      served.snapshots[index].diff = snapshot.diff.map { _ in base + "diff.png" }
      // The API serves each image by the hash the run recorded; the page links the API.
      served.snapshots[index].baselineHash = nil
      served.snapshots[index].currentHash = nil
      served.snapshots[index].diffHash = nil
    }
    let title = [record.name, record.branch.map { "branch \($0)" }].compactMap { $0 }.joined(separator: " · ")
    let state = record.closedAt == nil ? " <span class=\"badge open\">open</span>" : ""
    var embedding = HTMLReport.Embedding()
    embedding.bodyAttributes = ["data-run": record.id]
    // What an undo names besides the key: the run's environment folder, and its branch when
    // the run reads and writes a branch overlay.
    if let environment = record.environment { embedding.bodyAttributes["data-environment"] = environment }
    if let branch = record.branch, !(record.overlays ?? []).isEmpty {
      embedding.bodyAttributes["data-overlay"] = branch
    }
    embedding.head =
      "\(noFavicon)<style>\n\(barStyles)\(reviewStyles)\(liveStyles)\(branchStyles)\(approvalsStyles)</style>\n"
    embedding.top =
      bar(authRequired: authRequired, title: title.isEmpty ? "run \(record.id)" : title, backLink: true, extra: state)
      + branchStrip(record, overlay: overlay)
      + "<div class=\"review-message\" role=\"status\" aria-live=\"polite\" hidden></div>\n"
      + approvalsPanel(approvals)
    embedding.footer =
      "Served by snapdiff serve from the run's run.json; review here, or with"
      + " <code>snapdiff approve</code> and <code>snapdiff reject</code>."
    embedding.script = tokenScript + "\n" + liveScript + "\n" + reviewScript + "\n" + approvalsScript
    embedding.showsCommands = false
    embedding.flakyKeys = flakyKeys
    embedding.thumbnail = { snapshot, kind in
      let path = kind == .baseline ? snapshot.baseline : snapshot.current
      let version = tags[snapshot.key]?[kind].map { "&v=" + $0 } ?? ""
      return path.map { HTMLReport.urlPath($0) + "?thumb=1" + version }
    }
    return HTMLReport.render(served, embedding: embedding)
  }

  /// A page for an error on a page route (unknown run, a token needed).
  static func errorPage(_ error: APIError) -> Response {
    var html = head(title: "snapdiff: \(error.status.code)")
    let needsToken = error.status == .unauthorized || error.status == .forbidden
    html += "<body>\n" + bar(authRequired: needsToken, title: "snapdiff", backLink: true)
    html += "<main class=\"runs\"><h1>\(error.status.code) \(text(error.status.reasonPhrase))</h1>\n"
    html += "<p>\(text(error.message))</p>\n"
    if needsToken { html += "<p>Enter the server's token above: it is kept in this browser.</p>\n" }
    html += "</main>\n<script>\n\(tokenScript)\n</script>\n</body>\n</html>\n"
    var response = Response(
      status: error.status, headers: [.contentType: "text/html; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    response.headers.append(contentsOf: error.headers)
    return response
  }

  static func htmlResponse(_ html: String) -> Response {
    Response(
      status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }

  static func head(title: String) -> String {
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      + "<title>\(text(title))</title>\n\(noFavicon)<style>\n\(pageStyles)\(barStyles)\(branchStyles)</style>\n</head>\n"
  }

  /// An empty icon: without one, every page load makes the browser ask for `/favicon.ico`, a
  /// route the service does not have, and log the 404 as an error in the page's console.
  private static let noFavicon = "<link rel=\"icon\" href=\"data:,\">\n"

  /// The bar at the top of every page: a link to the run list, a title, the token field.
  static func bar(authRequired: Bool, title: String, backLink: Bool, extra: String = "") -> String {
    var html = "<nav class=\"serve-bar\" data-auth=\"\(authRequired)\">"
    html += backLink ? "<a href=\"/\">← All runs</a>" : "<b>snapdiff</b>"
    html += "<span class=\"serve-title\">\(text(backLink ? title : "review"))\(extra)</span>"
    html += "<a class=\"branches-link\" href=\"/branches\">Branches</a>"
    if authRequired {
      html += "<label class=\"token\">Token <input type=\"password\" autocomplete=\"off\""
      html += " aria-label=\"The server's token\"></label>"
    }
    html += "</nav>\n"
    return html
  }

  /// `2026-11-22T03:47:35.513Z` → `2026-11-22 03:47:35`.
  private static func display(_ iso: String) -> String {
    String(iso.prefix(19)).replacingFirst("T", with: " ")
  }

  static func text(_ value: String) -> String { HTMLReport.escapedText(value) }
  static func attribute(_ value: String) -> String { HTMLReport.escapedAttribute(value) }
}

extension String {
  /// The string with the first occurrence of `target` replaced (unchanged when there is none).
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    let characters = Array(utf8)
    let pattern = Array(target.utf8)
    guard let index = MultipartForm.find(pattern, in: characters, from: 0) else { return self }
    let replaced = characters[..<index] + Array(replacement.utf8) + characters[(index + pattern.count)...]
    return String(decoding: replaced, as: UTF8.self)
  }
}
