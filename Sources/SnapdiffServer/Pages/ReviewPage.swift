import Hummingbird
import SnapdiffCore

/// The review pages the service serves: the run list (`/`) and a run (`/runs/{run}`), plain HTML
/// with inline CSS and script, no network access but the service itself.
///
/// A run's page is the CLI's `index.html` (`HTMLReport.render`: groups by status, filters, the
/// 2-up, slider, blend, toggle and diff views) with its images pointed at the API, plus a review
/// bar: approve, reject and "approve every snapshot with this change" buttons that POST to the
/// API, keyboard shortcuts, and, when the server has a token, a field for it (kept in the
/// browser's `localStorage`, and in a cookie so that images load under `--private`).
@available(macOS 14, iOS 17, tvOS 17, *)
enum ReviewPage {
  /// `/`: the runs, newest first.
  static func runList(_ list: RunList, authRequired: Bool) -> String {
    var html = head(title: "snapdiff runs")
    html += "<body>\n" + bar(authRequired: authRequired, title: "snapdiff", backLink: false)
    html += "<main class=\"runs\">\n<h1>Runs <span class=\"muted\">\(list.total)</span></h1>\n"
    html += "<input class=\"filter\" type=\"search\" placeholder=\"Filter by id, name or branch\""
    html += " aria-label=\"Filter runs\">\n"
    if list.runs.isEmpty {
      html += "<p class=\"empty\">No runs yet. Open one with <code>POST /api/v1/runs</code>, or run"
      html += " <code>snapdiff check FRAMES</code> in this project.</p>\n"
    } else {
      html += "<table>\n<thead><tr><th>Run</th><th>Name</th><th>Branch</th><th>Created (UTC)</th>"
      html += "<th>State</th><th>Snapshots</th><th>To review</th><th>Verdict</th></tr></thead>\n<tbody>\n"
      for run in list.runs {
        let search = [run.id, run.name ?? "", run.branch ?? ""].joined(separator: " ").lowercased()
        html += "<tr data-search=\"\(attribute(search))\">"
        html += "<td><a href=\"\(attribute(run.links.page))\"><code>\(text(run.id))</code></a></td>"
        html += "<td>\(text(run.name ?? "—"))</td><td>\(text(run.branch ?? "—"))</td>"
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
        html += "<a href=\"/?offset=\(max(0, list.offset - list.limit))\">Newer</a> "
      }
      html += "<span class=\"muted\">\(list.offset + 1)–\(shownTo) of \(list.total)</span>"
      if shownTo < list.total { html += " <a href=\"/?offset=\(shownTo)\">Older</a>" }
      html += "</nav>\n"
    }
    html += "</main>\n<script>\n\(listScript)\n\(tokenScript)\n</script>\n</body>\n</html>\n"
    return html
  }

  /// `/runs/{run}`: the run's report with images from the API and review buttons.
  static func run(_ record: RunRecord, authRequired: Bool) -> String {
    var served = record
    for index in served.snapshots.indices {
      let snapshot = served.snapshots[index]
      // Paths as URLs: HTMLReport percent-encodes each segment, keeping the `/`s of the key,
      // which the snapshot routes read back as one key.
      let base = "/api/v1/runs/\(record.id)/snapshots/\(snapshot.key)/"
      served.snapshots[index].baseline = snapshot.baseline.map { _ in base + "baseline.png" }
      served.snapshots[index].current = snapshot.current.flatMap { $0.hasSuffix(".png") ? base + "current.png" : nil }
      served.snapshots[index].diff = snapshot.diff.map { _ in base + "diff.png" }
      // The API serves each image by the hash the run recorded; the page links the API.
      served.snapshots[index].baselineHash = nil
      served.snapshots[index].currentHash = nil
      served.snapshots[index].diffHash = nil
    }
    var html = HTMLReport.render(served)
    let title = [record.name, record.branch.map { "branch \($0)" }].compactMap { $0 }.joined(separator: " · ")
    let state = record.closedAt == nil ? " <span class=\"badge open\">open</span>" : ""
    let reviewBar =
      bar(authRequired: authRequired, title: title.isEmpty ? "run \(record.id)" : title, backLink: true, extra: state)
      + "<div class=\"review-message\" role=\"status\" aria-live=\"polite\" hidden></div>\n"
    html = html.replacingFirst("<body>\n", with: "<body data-run=\"\(attribute(record.id))\">\n" + reviewBar)
    html = html.replacingFirst("</head>", with: "\(noFavicon)<style>\n\(barStyles)\(reviewStyles)</style>\n</head>")
    html = html.replacingFirst(
      "Image paths are relative to this page's folder, the run folder; review with",
      with: "Served by snapdiff serve from the run's run.json; review here, or with")
    html = html.replacingFirst("</body>", with: "<script>\n\(tokenScript)\n\(reviewScript)\n</script>\n</body>")
    return html
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

  private static func head(title: String) -> String {
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      + "<title>\(text(title))</title>\n\(noFavicon)<style>\n\(pageStyles)\(barStyles)</style>\n</head>\n"
  }

  /// An empty icon: without one, every page load makes the browser ask for `/favicon.ico`, a
  /// route the service does not have, and log the 404 as an error in the page's console.
  private static let noFavicon = "<link rel=\"icon\" href=\"data:,\">\n"

  /// The bar at the top of every page: a link to the run list, a title, the token field.
  private static func bar(authRequired: Bool, title: String, backLink: Bool, extra: String = "") -> String {
    var html = "<nav class=\"serve-bar\" data-auth=\"\(authRequired)\">"
    html += backLink ? "<a href=\"/\">← All runs</a>" : "<b>snapdiff</b>"
    html += "<span class=\"serve-title\">\(text(backLink ? title : "review"))\(extra)</span>"
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

  static func text(_ value: String) -> String { escape(value, attribute: false) }
  static func attribute(_ value: String) -> String { escape(value, attribute: true) }

  private static func escape(_ value: String, attribute: Bool) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where attribute: result += "&quot;"
      case "'" where attribute: result += "&#39;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static let pageStyles = #"""
    :root { color-scheme: light dark; --bg: #f6f8fa; --card: #fff; --fg: #1f2328; --muted: #59636e;
      --line: #d1d9e0; --accent: #0969da; --failed: #cf222e; --passed: #1a7f37; --new: #0969da;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      font-size: 15px; line-height: 1.45; }
    @media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --card: #151b23; --fg: #e6edf3;
      --muted: #9198a1; --line: #3d444d; --accent: #4493f8; --failed: #ff7b72; --passed: #3fb950;
      --new: #58a6ff; } }
    body { margin: 0; background: var(--bg); color: var(--fg); }
    a { color: var(--accent); }
    code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
    .runs { padding: 16px 24px 40px; }
    .runs h1 { font-size: 1.4rem; margin: 4px 0 12px; }
    .muted { color: var(--muted); font-weight: 400; }
    .filter { padding: 6px 10px; min-width: 280px; margin-bottom: 12px; border: 1px solid var(--line);
      border-radius: 6px; background: var(--card); color: var(--fg); }
    table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
    th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; color: var(--muted); font-size: 0.9em; }
    tbody tr:hover { background: var(--bg); }
    .pages { margin-top: 12px; display: flex; gap: 12px; }
    .empty { color: var(--muted); }

    """#

  private static let barStyles = #"""
    .serve-bar { display: flex; align-items: center; gap: 16px; padding: 8px 24px;
      background: var(--card); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
    .serve-title { flex: 1; color: var(--muted); }
    .serve-bar .token input { margin-left: 6px; padding: 3px 8px; width: 14em; border: 1px solid var(--line);
      border-radius: 6px; background: var(--bg); color: var(--fg); }
    .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.85em;
      font-weight: 600; color: #fff; background: var(--muted); }
    .badge.failed { background: var(--failed); } .badge.passed { background: var(--passed); }
    .badge.open { background: var(--new, #0969da); }

    """#

  /// The review bar's styles (the report's own script keeps snapshots scrolled to below its
  /// toolbar, however many rows the review controls make it).
  private static let reviewStyles = #"""
    .review-message { margin: 0; padding: 8px 24px; background: var(--code); border-bottom: 1px solid var(--line); }
    .review-message.problem { color: var(--failed); }
    .review-actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0 4px; }
    .review-actions button { font: inherit; padding: 4px 12px; border-radius: 6px; cursor: pointer;
      border: 1px solid var(--line); background: var(--card); color: var(--fg); }
    .review-actions button.approve { background: var(--passed); border-color: var(--passed); color: var(--on-status); }
    .review-actions button.reject { border-color: var(--rejected); color: var(--rejected); }
    .review-actions button:disabled { opacity: 0.5; cursor: wait; }
    .snap.current-snap { outline: 2px solid var(--accent); outline-offset: 2px; }
    .shortcuts { color: var(--muted); font-size: 0.88em; }

    """#

  /// The token field: remembered in `localStorage` and a same-site cookie (so that images and
  /// pages load under `--private`); a page that answered 401 reloads once a token is entered.
  private static let tokenScript = #"""
    (function () {
      "use strict";
      var field = document.querySelector(".serve-bar .token input");
      window.snapdiffToken = function () { return localStorage.getItem("snapdiff-token") || ""; };
      if (!field) return;
      field.value = window.snapdiffToken();
      field.addEventListener("change", function () {
        var token = field.value.trim();
        if (token) localStorage.setItem("snapdiff-token", token);
        else localStorage.removeItem("snapdiff-token");
        document.cookie = "snapdiff_token=" + encodeURIComponent(token) + "; path=/; SameSite=Strict"
          + (token ? "" : "; max-age=0");
        if (document.title.indexOf("snapdiff: 40") === 0) location.reload();
      });
    })();
    """#

  private static let listScript = #"""
    (function () {
      "use strict";
      var filter = document.querySelector(".filter");
      if (!filter) return;
      filter.addEventListener("input", function () {
        var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
        document.querySelectorAll("tbody tr").forEach(function (row) {
          var text = row.dataset.search;
          row.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
        });
      });
    })();
    """#

  /// Approve, reject and same-change buttons on every snapshot with something to review, and
  /// the keyboard: j/k next and previous, a approve, r reject, s approve the same change,
  /// 1–5 the view modes of the current snapshot.
  private static let reviewScript = #"""
    (function () {
      "use strict";
      var run = document.body.dataset.run;
      var api = "/api/v1/runs/" + encodeURIComponent(run);
      var message = document.querySelector(".review-message");
      function say(text, problem) {
        message.hidden = false;
        message.textContent = text;
        message.classList.toggle("problem", !!problem);
      }
      function post(path, body, buttons) {
        var headers = { "Content-Type": "application/json" };
        var token = window.snapdiffToken();
        if (token) headers.Authorization = "Bearer " + token;
        buttons.forEach(function (b) { b.disabled = true; });
        return fetch(api + path, { method: "POST", headers: headers, body: JSON.stringify(body || {}) })
          .then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (json) {
              if (!response.ok) throw new Error((json.error && json.error.message) || response.statusText);
              return json;
            });
          })
          .then(function (json) {
            var keys = (json.snapshots || []).map(function (s) { return s.key; });
            say(json.action + " " + keys.length + " snapshot" + (keys.length === 1 ? "" : "s") + ": "
              + keys.join(", ") + ". Reloading…");
            document.body.dataset.reviewed = json.action;
            setTimeout(function () { location.reload(); }, 400);
          })
          .catch(function (error) {
            say("Not done: " + error.message, true);
            buttons.forEach(function (b) { b.disabled = false; });
          });
      }
      function snapshotPath(key) { return "/snapshots/" + encodeURIComponent(key); }
      var reviewable = ["failed", "new", "missing", "rejected"];
      var cards = Array.prototype.slice.call(document.querySelectorAll("article.snap"));
      cards.forEach(function (card) {
        if (reviewable.indexOf(card.dataset.status) < 0) return;
        var key = card.dataset.key;
        var actions = document.createElement("div");
        actions.className = "review-actions";
        function button(label, className, title, action) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = className;
          b.textContent = label;
          b.title = title;
          b.addEventListener("click", function () { action(actions.querySelectorAll("button")); });
          actions.appendChild(b);
          return b;
        }
        button("Approve", "approve", "Make the current frame the baseline (a)", function (all) {
          post(snapshotPath(key) + "/approve", {}, all);
        });
        if (card.dataset.status !== "rejected") {
          button("Reject", "reject", "Keep the baseline; the same change stays failed later (r)", function (all) {
            post(snapshotPath(key) + "/reject", {}, all);
          });
        }
        if (card.dataset.status === "failed") {
          button("Approve all with this change", "same", "Approve every snapshot with the same change (s)", function (all) {
            post("/approve", { sameAs: key }, all);
          });
        }
        var head = card.querySelector(".snap-head");
        head.parentNode.insertBefore(actions, head.nextSibling);
      });
      var toolbar = document.querySelector(".toolbar");
      if (toolbar) {
        var failedCount = cards.filter(function (c) { return c.dataset.status === "failed"; }).length;
        var hint = document.createElement("span");
        hint.className = "shortcuts";
        hint.textContent = "Keys: j/k next/previous · a approve · r reject · s same change · 1–5 view";
        toolbar.appendChild(hint);
        if (failedCount > 1) {
          var all = document.createElement("div");
          all.className = "review-actions";
          var b = document.createElement("button");
          b.type = "button";
          b.className = "approve";
          b.textContent = "Approve all " + failedCount + " failed";
          b.addEventListener("click", function () {
            if (confirm("Approve all " + failedCount + " failed snapshots of this run?")) post("/approve", { failed: true }, [b]);
          });
          all.appendChild(b);
          toolbar.appendChild(all);
        }
      }
      var current = -1;
      function visible() { return cards.filter(function (c) { return c.offsetParent !== null; }); }
      function focus(step) {
        var shown = visible();
        if (!shown.length) return;
        var index = shown.indexOf(cards[current]);
        index = index < 0 ? (step > 0 ? 0 : shown.length - 1) : Math.max(0, Math.min(shown.length - 1, index + step));
        cards.forEach(function (c) { c.classList.remove("current-snap"); });
        current = cards.indexOf(shown[index]);
        shown[index].classList.add("current-snap");
        shown[index].scrollIntoView({ block: "start" });
      }
      document.addEventListener("keydown", function (event) {
        if (event.metaKey || event.ctrlKey || event.altKey) return;
        if (event.target.closest("input, textarea, select")) return;
        var card = cards[current];
        var key = event.key;
        if (key === "j") focus(1);
        else if (key === "k") focus(-1);
        else if (card && (key === "a" || key === "r" || key === "s")) {
          var which = { a: ".approve", r: ".reject", s: ".same" }[key];
          var button = card.querySelector(".review-actions " + which);
          if (button && !button.disabled) button.click();
        } else if (card && key >= "1" && key <= "5") {
          var modes = card.querySelectorAll(".viewer .modes button");
          var mode = modes[Number(key) - 1];
          if (mode) mode.click();
        } else return;
        event.preventDefault();
      });
    })();
    """#
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
