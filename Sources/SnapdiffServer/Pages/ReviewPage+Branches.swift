import SnapdiffCore
import SnapdiffWire

/// A run list row's branch columns: the run's base branch, and how many baselines its branch's
/// overlay holds (`nil`: it has no overlay).
struct RunBranchColumns: Sendable {
  var base: String?
  var held: Int?
}

// Branches on the review pages: the strip on a run's page (its branch, the base, where its
// approvals go), the run list's base and overlay columns, and the branch list (`/branches`),
// with what each overlay holds and its merge and discard buttons.
@available(macOS 14, iOS 17, tvOS 17, *)
extension ReviewPage {
  /// A run's branch in words, under the bar: `Branch feature/new-brand, from main. Approvals
  /// here stay on feature/new-brand (its overlay holds 3 baselines) until it is merged.`
  /// Empty for a run without a branch.
  static func branchStrip(_ record: RunRecord, overlay: BranchOverview?) -> String {
    guard let branch = record.branch else { return "" }
    var html = "<div class=\"branch-strip\" data-branch=\"\(attribute(branch))\""
    if let base = record.baseBranch { html += " data-base=\"\(attribute(base))\"" }
    let writesOverlay = !(record.overlays ?? []).isEmpty
    html += " data-overlay-state=\"\(writesOverlay ? (overlay == nil ? "empty" : "holds") : "store")\">"
    html += "Branch <b>\(text(branch))</b>"
    html += record.baseBranch.map { ", from <b>\(text($0))</b>" } ?? ", no base branch given"
    html += ". <span class=\"overlay-state\">"
    if writesOverlay {
      let held = overlay?.baselines.count ?? 0
      html += "Approvals here stay on \(text(branch)) until it is merged into the store"
      html +=
        held == 0
        ? " (its overlay holds nothing now: nothing approved on it yet, or merged or discarded)."
        : " (its overlay holds \(ReportFormat.count(held)) baseline\(held == 1 ? "" : "s") now)."
      if (record.overlays ?? []).count > 1, let base = record.baseBranch {
        html += " It reads \(text(base))'s overlay too, before the store."
      }
    } else {
      html += "Approvals here change the store itself (the run reads no branch overlay)."
    }
    html += "</span> <a href=\"/branches#\(attribute(anchor(branch)))\">Branches</a></div>\n"
    return html
  }

  /// The run list's Base and Overlay cells for `run`: its base branch, and what its branch's
  /// overlay holds now (a link to the branch list), `—` when there is nothing to say.
  static func branchCells(_ run: RunSummary, _ columns: RunBranchColumns?) -> String {
    var html = "<td>\(text(columns?.base ?? "—"))</td><td class=\"overlay\">"
    if let branch = run.branch, let held = columns?.held {
      html += "<a href=\"/branches#\(attribute(anchor(branch)))\">\(ReportFormat.count(held)) baseline"
      html += "\(held == 1 ? "" : "s"), not merged</a>"
    } else {
      html += run.branch == nil ? "—" : "<span class=\"muted\">none</span>"
    }
    return html + "</td>"
  }

  /// `/branches`: every branch with an overlay, what it holds, its runs, Merge and Discard.
  static func branchList(_ branches: [BranchOverview], authRequired: Bool) -> String {
    var html = head(title: "snapdiff branches")
    html += "<body>\n" + bar(authRequired: authRequired, title: "branches", backLink: true)
    html += "<main class=\"runs branches\">\n<h1>Branches <span class=\"muted\">\(branches.count)</span></h1>\n"
    html += "<p class=\"muted\">A branch's overlay holds the baselines approved on it through the service: runs on"
    html += " the branch read it before the store, every other run reads the store alone. Merge promotes them"
    html += " into the store, each logged as an approval (<code>snapdiff history KEY</code>); Discard drops them,"
    html += " the store unchanged.</p>\n"
    html += "<div class=\"review-message\" role=\"status\" aria-live=\"polite\" hidden></div>\n"
    if branches.isEmpty {
      html += "<p class=\"empty\">No branch holds baselines of its own: nothing was approved on a branch, or every"
      html += " branch was merged or discarded.</p>\n"
    } else {
      html +=
        "<table>\n<thead><tr><th>Branch</th><th>Baselines held</th><th>Runs</th><th>Actions</th></tr></thead>\n<tbody>\n"
      for overview in branches {
        let branch = overview.branch
        let count = overview.baselines.count
        html += "<tr id=\"\(attribute(anchor(branch)))\" data-branch=\"\(attribute(branch))\" data-count=\"\(count)\""
        html += " data-merge=\"\(attribute(APIPaths.merge(branch: branch)))\""
        html += " data-discard=\"\(attribute(APIPaths.discard(branch: branch)))\">"
        html += "<td><code>\(text(branch))</code></td>"
        html += "<td class=\"held\"><b>\(ReportFormat.count(count))</b> baseline\(count == 1 ? "" : "s")"
        if count > 0 {
          html += "<details><summary>List them</summary><ul>"
          for baseline in overview.baselines {
            html += "<li><code>\(text(baseline.key))</code>"
            if let environment = baseline.environment { html += " <span class=\"muted\">\(text(environment))</span>" }
            html += "</li>"
          }
          html += "</ul></details>"
        }
        html += "</td><td><a href=\"/?branch=\(attribute(PercentEncoding.segment(branch)))\">runs on it</a></td>"
        html += "<td class=\"branch-actions\"></td></tr>\n"
      }
      html += "</tbody>\n</table>\n"
    }
    html += "</main>\n<script>\n\(tokenScript)\n\(branchScript)\n</script>\n</body>\n</html>\n"
    return html
  }

  /// A branch's row id on the branch list: `branch-` and the name percent-encoded.
  static func anchor(_ branch: String) -> String { "branch-" + PercentEncoding.segment(branch) }

  /// The branch list's buttons: Merge and Discard, each confirmed with the branch and its
  /// count, posting to the API; the row then says what was done and loses its buttons.
  static let branchScript = #"""
    (function () {
      "use strict";
      var message = document.querySelector(".review-message");
      Array.prototype.forEach.call(document.querySelectorAll("tr[data-branch]"), function (row) {
        var cell = row.querySelector(".branch-actions");
        var branch = row.dataset.branch;
        var n = Number(row.dataset.count);
        var what = n + " baseline" + (n === 1 ? "" : "s");
        function action(label, className, question, url, done) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = className;
          button.textContent = label;
          button.addEventListener("click", function () {
            if (!confirm(question)) return;
            var buttons = Array.prototype.slice.call(cell.querySelectorAll("button"));
            buttons.forEach(function (b) { b.disabled = true; });
            window.snapdiffPost(url).then(function (result) {
              var count = (result.baselines || []).length;
              cell.textContent = done + " (" + count + " baseline" + (count === 1 ? "" : "s") + ")";
              row.dataset.state = className === "merge" ? "merged" : "discarded";
              row.querySelector(".held b").textContent = "0";
              message.hidden = false;
              message.textContent = "Branch " + branch + ": " + cell.textContent + ".";
            }, function (error) {
              buttons.forEach(function (b) { b.disabled = false; });
              var problem = cell.querySelector(".action-error") || document.createElement("span");
              problem.className = "action-error";
              problem.setAttribute("role", "alert");
              problem.textContent = "Not done: " + error.message;
              cell.appendChild(problem);
            });
          });
          cell.appendChild(button);
        }
        action("Merge into the store", "merge",
          "Merge branch " + branch + " into the store? Its " + what + " replace the store's, each logged as an approval.",
          row.dataset.merge, "merged into the store");
        action("Discard", "discard",
          "Discard branch " + branch + "'s overlay? Its " + what + " are dropped; the store keeps its own.",
          row.dataset.discard, "discarded");
      });
    })();
    """#

  /// The branch strip's and the branch list's styles.
  static let branchStyles = """
    .branch-strip { padding: 6px 24px; background: var(--card, #fff); border-bottom: 1px solid var(--line, #d1d9e0);
      font-size: .9rem; }
    .branches td details { margin-top: 4px; font-size: .9em; }
    .branches td ul { margin: 4px 0; padding-left: 18px; }
    .branch-actions button { margin-right: 8px; }
    .action-error { color: var(--failed, #cf222e); margin-left: 8px; }

    """
}
