import SnapdiffCore

/// The run page's approvals: every approval operation of the run (one snapshot, a group, the
/// whole run) and every undo of one, with its author and time, listed in a panel and beside each
/// snapshot it approved, each undoable in one request (`POST /api/v1/approvals/{operation}/undo`)
/// for as long as the service would undo it (nothing newer replaced its baselines); otherwise the
/// reason is shown. While a review request runs, the page is busy (`aria-busy` on the body, a
/// line in the panel, the buttons disabled); afterwards the panel is read again
/// (`GET /api/v1/runs/{run}/approvals`).
@available(macOS 14, iOS 17, tvOS 17, *)
extension ReviewPage {
  /// The panel, filled from `operations` (the script keeps it up to date).
  static func approvalsPanel(_ operations: [ApprovalOperation]) -> String {
    var html = "<section class=\"approvals\" aria-label=\"Approvals\"><details"
    html += operations.isEmpty ? "" : " open"
    html += "><summary>Approvals <span class=\"approvals-count muted\">\(operations.count)</span>"
    html += " <span class=\"approvals-busy\" role=\"status\" aria-live=\"polite\"></span></summary>"
    html += "<ol class=\"approvals-list\">"
    for operation in operations.reversed() { html += approvalItem(operation) }
    html += "</ol></details></section>\n"
    return html
  }

  /// One operation as a list item (the script builds the same from the API's JSON).
  static func approvalItem(_ operation: ApprovalOperation) -> String {
    let count = operation.keys.count
    let what =
      switch operation.kind {
      case .approve: "approved \(count) snapshot\(count == 1 ? "" : "s")"
      case .merge: "merged branch \(operation.branch ?? "?") (\(count) baseline\(count == 1 ? "" : "s"))"
      case .undo: "undid \(count) approval\(count == 1 ? "" : "s")"
      }
    var html = "<li class=\"approval kind-\(operation.kind.rawValue)\" data-operation=\"\(attribute(operation.id))\""
    html += " data-keys=\"\(attribute(operation.keys.joined(separator: "\n")))\">"
    html += "<span class=\"approval-what\">\(text(what))</span> by <b>\(text(operation.user))</b>"
    html +=
      " <time datetime=\"\(attribute(operation.time))\">\(text(String(operation.time.prefix(19)).replacingFirst("T", with: " ")))</time>"
    html += " <code class=\"muted\">\(text(operation.id))</code>"
    if operation.undoable {
      html += " <button type=\"button\" class=\"undo-operation\">Undo</button>"
    } else if operation.kind != .undo, let refusal = operation.refusal {
      html += " <span class=\"muted approval-refusal\">\(text(refusal))</span>"
    }
    html += "</li>"
    return html
  }

  static let approvalsStyles = """
    .approvals { margin: 8px 16px; font-size: 14px; }
    .approvals summary { cursor: pointer; }
    .approvals-list { margin: 4px 0; padding-left: 20px; max-height: 12em; overflow: auto; }
    .approvals-list li { margin: 2px 0; }
    .approval-refusal { font-size: 12px; }
    .approval-note { font-size: 12px; margin: 2px 0; }
    body[aria-busy="true"] button { cursor: progress; }
    .approvals-busy:not(:empty)::before { content: "⏳ "; }

    """

  /// The panel's script: undo in one request, the list read again after every review request,
  /// the page busy while one runs, and a note on each card an operation approved.
  static let approvalsScript = #"""
    (function () {
      var panel = document.querySelector(".approvals");
      if (!panel) return;
      var run = document.body.dataset.run;
      var list = panel.querySelector(".approvals-list");
      var busy = panel.querySelector(".approvals-busy");
      var count = panel.querySelector(".approvals-count");
      var pending = 0;
      var plainFetch = window.fetch.bind(window);
      function headers() {
        var result = { "Content-Type": "application/json" };
        var token = window.snapdiffToken ? window.snapdiffToken() : "";
        if (token) result.Authorization = "Bearer " + token;
        return result;
      }
      function esc(text) {
        return String(text).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
      }
      // Every review request marks the page busy until it is answered, then the list is read again.
      window.fetch = function (url, options) {
        var posting = options && options.method === "POST";
        if (!posting) return plainFetch(url, options);
        pending += 1;
        document.body.setAttribute("aria-busy", "true");
        busy.textContent = /\/undo/.test(String(url)) ? "Undoing…" : "Working…";
        document.querySelectorAll("button.undo-operation").forEach(function (b) { b.disabled = true; });
        var done = function () {
          pending -= 1;
          if (pending === 0) {
            document.body.removeAttribute("aria-busy");
            busy.textContent = "";
            refresh();
          }
        };
        return plainFetch(url, options).then(function (r) { done(); return r; }, function (e) { done(); throw e; });
      };
      function item(op) {
        var n = op.keys.length;
        var what = op.kind === "approve" ? "approved " + n + " snapshot" + (n === 1 ? "" : "s")
          : op.kind === "merge" ? "merged branch " + (op.branch || "?") + " (" + n + " baseline" + (n === 1 ? "" : "s") + ")"
          : "undid " + n + " approval" + (n === 1 ? "" : "s");
        var html = '<li class="approval kind-' + op.kind + '" data-operation="' + esc(op.id) + '" data-keys="' + esc(op.keys.join("\n")) + '">'
          + '<span class="approval-what">' + esc(what) + "</span> by <b>" + esc(op.user) + "</b> "
          + '<time datetime="' + esc(op.time) + '">' + esc(op.time.slice(0, 19).replace("T", " ")) + "</time> "
          + '<code class="muted">' + esc(op.id) + "</code>";
        if (op.undoable) html += ' <button type="button" class="undo-operation">Undo</button>';
        else if (op.kind !== "undo" && op.refusal) html += ' <span class="muted approval-refusal">' + esc(op.refusal) + "</span>";
        return html + "</li>";
      }
      // Each card an operation still standing approved says by whom, with its Undo.
      function annotate() {
        document.querySelectorAll(".approval-note").forEach(function (note) { note.remove(); });
        list.querySelectorAll("li.approval.kind-approve").forEach(function (li) {
          var undoable = !!li.querySelector(".undo-operation");
          li.dataset.keys.split("\n").forEach(function (key) {
            var card = document.querySelector('.snap[data-key="' + (window.CSS && CSS.escape ? CSS.escape(key) : key) + '"]');
            if (!card || card.dataset.status !== "approved" || card.querySelector(".approval-note")) return;
            var note = document.createElement("p");
            note.className = "approval-note";
            note.dataset.operation = li.dataset.operation;
            note.innerHTML = "approved by " + li.querySelector("b").outerHTML + " at " + li.querySelector("time").outerHTML
              + (undoable ? ' <button type="button" class="undo-operation">Undo</button>' : "");
            var head = card.querySelector(".snap-head");
            head.parentNode.insertBefore(note, head.nextSibling);
          });
        });
      }
      function refresh() {
        return plainFetch("/api/v1/runs/" + encodeURIComponent(run) + "/approvals", { headers: headers() })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (json) {
            if (!json) return;
            list.innerHTML = json.operations.slice().reverse().map(item).join("");
            count.textContent = String(json.operations.length);
            if (json.operations.length) panel.querySelector("details").open = true;
            annotate();
          }, function () {});
      }
      document.addEventListener("click", function (event) {
        var button = event.target.closest && event.target.closest("button.undo-operation");
        if (!button) return;
        var holder = button.closest("[data-operation]");
        var operation = holder.dataset.operation;
        button.disabled = true;
        window.fetch("/api/v1/approvals/" + encodeURIComponent(operation) + "/undo", { method: "POST", headers: headers(), body: "{}" })
          .then(function (r) { return r.json().catch(function () { return {}; }).then(function (json) { return { ok: r.ok, json: json, status: r.status }; }); })
          .then(function (answer) {
            if (!answer.ok) {
              busy.textContent = "";
              var message = (answer.json.error && answer.json.error.message) || String(answer.status);
              var note = document.createElement("span");
              note.className = "problem approval-refusal";
              note.textContent = " " + message;
              holder.appendChild(note);
              return;
            }
            // The cards' statuses come back from the server: the page is read again.
            document.body.dataset.reviewed = "undone";
            document.body.dataset.reviewedCount = String(answer.json.keys.length);
            location.reload();
          });
      });
      annotate();
    })();
    """#
}
