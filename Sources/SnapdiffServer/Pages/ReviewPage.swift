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
        html += "<td><a href=\"/runs/\(attribute(APIPaths.segment(run.id)))\"><code>\(text(run.id))</code></a></td>"
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

  /// `/runs/{run}`: the run's report (``HTMLReport/render(_:embedding:)``) with images and
  /// thumbnails from the API, the service's bar and the review script.
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
    let title = [record.name, record.branch.map { "branch \($0)" }].compactMap { $0 }.joined(separator: " · ")
    let state = record.closedAt == nil ? " <span class=\"badge open\">open</span>" : ""
    var embedding = HTMLReport.Embedding()
    embedding.bodyAttributes = ["data-run": record.id]
    // What an undo names besides the key: the run's environment folder, and its branch when
    // the run reads and writes a branch overlay.
    if let environment = record.environment { embedding.bodyAttributes["data-environment"] = environment }
    if let branch = record.branch, !(record.overlays ?? []).isEmpty { embedding.bodyAttributes["data-overlay"] = branch }
    embedding.head = "\(noFavicon)<style>\n\(barStyles)\(reviewStyles)</style>\n"
    embedding.top =
      bar(authRequired: authRequired, title: title.isEmpty ? "run \(record.id)" : title, backLink: true, extra: state)
      + "<div class=\"review-message\" role=\"status\" aria-live=\"polite\" hidden></div>\n"
    embedding.footer =
      "Served by snapdiff serve from the run's run.json; review here, or with"
      + " <code>snapdiff approve</code> and <code>snapdiff reject</code>."
    embedding.script = tokenScript + "\n" + reviewScript
    embedding.showsCommands = false
    embedding.thumbnail = { snapshot, kind in
      let path = kind == .baseline ? snapshot.baseline : snapshot.current
      return path.map { HTMLReport.urlPath($0) + "?thumb=1" }
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
    .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.85em;
      font-weight: 600; color: #fff; background: var(--c, var(--muted)); }
    .badge.failed { --c: var(--failed); } .badge.passed { --c: var(--passed); }

    """#

  /// The bar's styles, on every page. Badges take their colour from `--c` (the report's
  /// status classes set it), so that the bar's open badge never overrides a status colour.
  private static let barStyles = #"""
    .serve-bar { display: flex; align-items: center; gap: 16px; padding: 8px 24px;
      background: var(--card); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
    .serve-title { flex: 1; color: var(--muted); }
    .serve-bar .token input { margin-left: 6px; padding: 3px 8px; width: 14em; border: 1px solid var(--line);
      border-radius: 6px; background: var(--bg); color: var(--fg); }
    .badge.open { --c: var(--new, #0969da); }

    """#

  /// The review controls' styles: buttons on cards, in the viewer and on change groups, an
  /// error beside the control that caused it, the confirmation of a review as a toast.
  private static let reviewStyles = #"""
    .review-message { position: fixed; bottom: 16px; left: 16px; z-index: 30; max-width: 40em;
      margin: 0; padding: 8px 14px; border-radius: 8px; background: var(--card);
      border: 1px solid var(--line); box-shadow: 0 4px 16px rgb(0 0 0 / 0.2); }
    .review-actions { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
    .review-actions button, .group-actions button, .focus-actions button, .toolbar .review-actions button {
      font: inherit; font-size: 0.88em; padding: 3px 10px; border-radius: 6px; cursor: pointer;
      border: 1px solid var(--line); background: var(--card); color: var(--fg); }
    button.approve { background: var(--passed); border-color: var(--passed); color: var(--on-status); }
    button.reject { border-color: var(--rejected); color: var(--rejected); }
    .review-actions button:disabled, .group-actions button:disabled, .focus-actions button:disabled {
      opacity: 0.5; cursor: wait; }
    .action-error { color: var(--error); font-size: 0.88em; flex-basis: 100%; overflow-wrap: anywhere; }
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

  /// The review controls, added to the report through `window.snapdiffReport`: Approve and
  /// Reject on every card with something to review and in the viewer, "Approve all N with this
  /// change" (only for a change two or more snapshots share) and each change group's Approve
  /// and Reject, every group action confirmed with its count. A review posts to the API and
  /// updates the cards from its answer without reloading: their status, the counts, the
  /// filters; the next snapshot with something to review becomes the current one (in the
  /// viewer too) and has the focus. A refusal is shown beside the control that was used.
  /// Keys: a approve, r reject, s approve the same change (with the report's j/k, Enter, 1–5…).
  private static let reviewScript = #"""
    (function () {
      "use strict";
      var report = window.snapdiffReport;
      var run = document.body.dataset.run;
      var api = "/api/v1/runs/" + encodeURIComponent(run);
      var message = document.querySelector(".review-message");
      var cards = report.cards();
      var byKey = {};
      cards.forEach(function (card) { byKey[card.dataset.key] = card; });
      var timer = null;
      function say(text) {
        message.hidden = false;
        message.textContent = text;
        clearTimeout(timer);
        timer = setTimeout(function () { message.hidden = true; }, 6000);
      }
      function post(path, body) {
        var headers = { "Content-Type": "application/json" };
        var token = window.snapdiffToken();
        if (token) headers.Authorization = "Bearer " + token;
        return fetch(api + path, { method: "POST", headers: headers, body: JSON.stringify(body || {}) })
          .then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (json) {
              if (!response.ok) throw new Error((json.error && json.error.message) || response.status + " " + response.statusText);
              return json;
            });
          }, function (error) { throw new Error("the server did not answer (" + error.message + ")"); });
      }
      function snapshotPath(key) { return "/snapshots/" + encodeURIComponent(key); }
      // The failed snapshots with the same change as `card` (itself included).
      function sameChange(card) {
        var change = card.dataset.change;
        if (!change || card.dataset.status !== "failed") return [];
        return cards.filter(function (c) { return c.dataset.change === change && c.dataset.status === "failed"; });
      }

      // Errors go beside the control that caused them, in its row of buttons.
      function showError(row, text) {
        var error = row.querySelector(".action-error");
        if (!error) {
          error = document.createElement("span");
          error.className = "action-error";
          error.setAttribute("role", "alert");
          row.appendChild(error);
        }
        error.textContent = "Not done: " + text;
      }
      function clearError(row) {
        var error = row.querySelector(".action-error");
        if (error) error.remove();
      }

      // After an approval, the toast offers Undo: each approved key's newest approval is undone
      // through the baselines API (the store gets the replaced baseline back from the blob
      // store, the log records the undo), and the cards take back their status before it.
      function offerUndo(result) {
        if (result.action !== "approved") return result;
        var items = (result.snapshots || []).filter(function (item) { return byKey[item.key]; });
        if (!items.length) return result;
        var query = [];
        if (document.body.dataset.environment) query.push("environment=" + encodeURIComponent(document.body.dataset.environment));
        if (document.body.dataset.overlay) query.push("branch=" + encodeURIComponent(document.body.dataset.overlay));
        var suffix = "/undo" + (query.length ? "?" + query.join("&") : "");
        var undo = document.createElement("button");
        undo.type = "button";
        undo.className = "undo";
        undo.textContent = "Undo";
        undo.title = "Put back the baseline" + (items.length === 1 ? "" : "s") + " this approval replaced";
        undo.addEventListener("click", function () {
          undo.disabled = true;
          clearTimeout(timer);
          items.reduce(function (chain, item) {
            return chain.then(function () {
              return postTo("/api/v1/baselines/" + encodeURIComponent(item.key) + suffix).then(function () {
                setStatus(byKey[item.key], item.previousStatus || "failed");
              });
            });
          }, Promise.resolve()).then(function () {
            groupsChanged();
            say("undid the approval of " + items.length + " snapshot" + (items.length === 1 ? "" : "s") + ": "
              + items.slice(0, 5).map(function (item) { return item.key; }).join(", ") + ".");
            document.body.dataset.reviewed = "undone";
            document.body.dataset.reviewedCount = String(items.length);
            report.select(byKey[items[0].key]);
          }, function (error) {
            undo.disabled = false;
            showError(message, error.message);
          });
        });
        message.appendChild(undo);
        // Time to reach the button before the toast goes.
        clearTimeout(timer);
        timer = setTimeout(function () { message.hidden = true; }, 15000);
        return result;
      }
      function postTo(url) {
        var headers = { "Content-Type": "application/json" };
        var token = window.snapdiffToken();
        if (token) headers.Authorization = "Bearer " + token;
        return fetch(url, { method: "POST", headers: headers, body: "{}" }).then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (json) {
            if (!response.ok) throw new Error((json.error && json.error.message) || response.status + " " + response.statusText);
            return json;
          });
        }, function (error) { throw new Error("the server did not answer (" + error.message + ")"); });
      }

      function setStatus(card, status) {
        card.dataset.status = status;
        card.className = card.className.replace(/\bst-[a-z]+\b/, "st-" + status);
        card.querySelector(".snap-head .badge").textContent = status;
        addCardActions(card);
        report.refresh(card);
      }
      function applied(result) {
        var status = { approved: "approved", rejected: "rejected" }[result.action];
        var keys = (result.snapshots || []).map(function (item) { return item.key; });
        keys.forEach(function (key) { if (byKey[key] && status) setStatus(byKey[key], status); });
        groupsChanged();
        if (report.isOpen()) fillViewer(report.current());
        say(result.action + " " + keys.length + " snapshot" + (keys.length === 1 ? "" : "s") + ": "
          + keys.slice(0, 5).join(", ") + (keys.length > 5 ? " and " + (keys.length - 5) + " more" : "") + ".");
        document.body.dataset.reviewed = result.action;
        document.body.dataset.reviewedCount = String(keys.length);
        offerUndo(result);
        return keys;
      }
      // Runs a review from `button` (in `row`): on success the next snapshot to review becomes
      // the current one, with the focus; on failure the error shows in `row`.
      function review(button, row, path, body, card) {
        var buttons = Array.prototype.slice.call(row.querySelectorAll("button"));
        buttons.forEach(function (b) { b.disabled = true; });
        clearError(row);
        return post(path, body).then(function (result) {
          applied(result);
          var next = report.advance(card || report.current());
          if (!next && document.contains(button) && !button.disabled) button.focus();
        }, function (error) {
          buttons.forEach(function (b) { b.disabled = false; });
          showError(row, error.message);
          if (document.contains(button)) button.focus();
        });
      }
      function makeButton(row, label, className, title, action) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = className;
        b.textContent = label;
        b.title = title;
        b.addEventListener("click", function (event) { event.stopPropagation(); action(b); });
        row.appendChild(b);
        return b;
      }
      function approveSame(card, button, row) {
        var members = sameChange(card);
        if (members.length < 2) return;
        if (!confirm("Approve all " + members.length + " snapshots with this change?")) return;
        review(button, row, "/approve", { sameAs: card.dataset.key }, card);
      }
      // A card's buttons: Approve and Reject while it has something to review.
      function addCardActions(card) {
        var row = card.querySelector(".review-actions");
        if (row) row.remove();
        if (!report.canReview(card)) return;
        row = document.createElement("div");
        row.className = "review-actions";
        var key = card.dataset.key;
        makeButton(row, "Approve", "approve", "Make the current frame the baseline (a)", function (b) {
          review(b, row, snapshotPath(key) + "/approve", {}, card);
        });
        if (card.dataset.status !== "rejected") {
          makeButton(row, "Reject", "reject", "Keep the baseline; the same change stays failed later (r)", function (b) {
            review(b, row, snapshotPath(key) + "/reject", {}, card);
          });
        }
        var head = card.querySelector(".snap-head");
        head.parentNode.insertBefore(row, head.nextSibling);
      }
      cards.forEach(addCardActions);

      // The viewer's buttons, for the snapshot it shows.
      var focusRow = document.querySelector(".focus-actions");
      function fillViewer(card) {
        focusRow.textContent = "";
        if (!card || !report.canReview(card)) return;
        var key = card.dataset.key;
        makeButton(focusRow, "Approve", "approve", "Make the current frame the baseline (a)", function (b) {
          review(b, focusRow, snapshotPath(key) + "/approve", {}, card);
        });
        if (card.dataset.status !== "rejected") {
          makeButton(focusRow, "Reject", "reject", "Keep the baseline (r)", function (b) {
            review(b, focusRow, snapshotPath(key) + "/reject", {}, card);
          });
        }
        var members = sameChange(card);
        if (members.length >= 2) {
          makeButton(focusRow, "Approve all " + members.length + " with this change", "same",
            "Approve every snapshot with the same change (s)", function (b) { approveSame(card, b, focusRow); });
        }
      }
      report.onOpen(fillViewer);

      // Each change group: approve or reject all its snapshots, confirmed with the count.
      function groupsChanged() {
        Array.prototype.forEach.call(document.querySelectorAll(".change-group"), function (group) {
          var row = group.querySelector(".group-actions");
          var members = Array.prototype.filter.call(group.querySelectorAll(".snap"), function (c) {
            return c.dataset.status === "failed";
          });
          row.textContent = "";
          if (members.length < 2) return;
          var n = members.length;
          var key = members[0].dataset.key;
          makeButton(row, "Approve these " + n, "approve", "Approve the " + n + " snapshots with this change", function (b) {
            if (confirm("Approve all " + n + " snapshots with this change?")) review(b, row, "/approve", { sameAs: key }, members[0]);
          });
          makeButton(row, "Reject these " + n, "reject", "Reject the " + n + " snapshots with this change", function (b) {
            if (confirm("Reject all " + n + " snapshots with this change?")) review(b, row, "/reject", { sameAs: key }, members[0]);
          });
        });
        allFailed();
      }

      var toolbar = document.querySelector(".toolbar");
      var hint = document.createElement("span");
      hint.className = "shortcuts";
      hint.textContent = "Keys: j/k next/previous · Enter view · a approve · r reject · s same change · 1–5 view · Esc list";
      toolbar.appendChild(hint);
      var allRow = document.createElement("div");
      allRow.className = "review-actions";
      toolbar.appendChild(allRow);
      function allFailed() {
        allRow.textContent = "";
        var failed = cards.filter(function (c) { return c.dataset.status === "failed" && report.canReview(c); });
        if (failed.length < 2) return;
        makeButton(allRow, "Approve all " + failed.length + " failed", "approve", "Approve every failed snapshot", function (b) {
          if (confirm("Approve all " + failed.length + " failed snapshots of this run?")) review(b, allRow, "/approve", { failed: true }, null);
        });
      }
      groupsChanged();

      document.addEventListener("keydown", function (event) {
        if (event.metaKey || event.ctrlKey || event.altKey) return;
        if (event.target.closest("input, textarea, select")) return;
        var card = report.current();
        var key = event.key;
        if (!card || (key !== "a" && key !== "r" && key !== "s")) return;
        event.preventDefault();
        var row = report.isOpen() ? focusRow : card.querySelector(".review-actions");
        if (!row) return;
        var button = row.querySelector({ a: "button.approve", r: "button.reject", s: "button.same" }[key]);
        if (key === "s" && !button && !report.isOpen()) {
          // In the list the same-change action is the viewer's: confirm here with the count.
          if (sameChange(card).length >= 2) approveSame(card, row.querySelector("button"), row);
          return;
        }
        if (button && !button.disabled) button.click();
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
