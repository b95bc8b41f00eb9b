// The review pages' scripts: the token field, the run list's filter, and the review controls
// added to a run's report.
@available(macOS 14, iOS 17, tvOS 17, *)
extension ReviewPage {
  /// The token field: remembered in `localStorage` and a same-site cookie (so that images and
  /// pages load under `--private`); a page that answered 401 reloads once a token is entered.
  static let tokenScript = #"""
    (function () {
      "use strict";
      var field = document.querySelector(".serve-bar .token input");
      window.snapdiffToken = function () { return localStorage.getItem("snapdiff-token") || ""; };
      // Every review request: `body` (JSON) posted with the token; the answer's JSON, or an error
      // with the server's message (or that it did not answer).
      window.snapdiffPost = function (url, body) {
        var headers = { "Content-Type": "application/json" };
        var token = window.snapdiffToken();
        if (token) headers.Authorization = "Bearer " + token;
        return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}) })
          .then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (json) {
              if (!response.ok) throw new Error((json.error && json.error.message) || response.status + " " + response.statusText);
              return json;
            });
          }, function (error) { throw new Error("the server did not answer (" + error.message + ")"); });
      };
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

  static let listScript = #"""
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
  /// Reject on every card with something to review and in the viewer, "Approve all N of this
  /// group" (only in a group of two or more) and each group's Approve and Reject (its members
  /// but those unticked in its list, by key), every group action confirmed with its count. A review posts to the API and
  /// updates the cards from its answer without reloading: their status, the counts, the
  /// filters; the next snapshot with something to review becomes the current one (in the
  /// viewer too) and has the focus. A refusal is shown beside the control that was used.
  /// Keys: a approve, r reject, s approve the card's group (with the report's j/k, Enter, 1–5…).
  static let reviewScript = #"""
    (function () {
      "use strict";
      var report = window.snapdiffReport;
      var run = document.body.dataset.run;
      var api = "\#(APIPaths.runs)/" + encodeURIComponent(run);
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
      function post(path, body) { return window.snapdiffPost(api + path, body); }
      function snapshotPath(key) { return "/snapshots/" + encodeURIComponent(key); }
      // The failed snapshots in `card`'s group (itself included), those left out excepted.
      var live = window.snapdiffLive;
      function sameChange(card) {
        var group = live.groupOf(card);
        if (!group || card.dataset.status !== "failed") return [];
        return live.included(group);
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

      // After an approval, the toast offers Undo: the approval's operation is undone in one
      // request (the store gets the replaced baselines back from the blob store, the log records
      // the undo), and the cards take back their status before it. The approvals panel keeps
      // the same Undo after the toast has gone.
      function offerUndo(result) {
        if (result.action !== "approved") return result;
        var items = (result.snapshots || []).filter(function (item) { return byKey[item.key]; });
        if (!items.length || !result.operation) return result;
        var undo = document.createElement("button");
        undo.type = "button";
        undo.className = "undo";
        undo.textContent = "Undo";
        undo.title = "Put back the baseline" + (items.length === 1 ? "" : "s") + " this approval replaced";
        undo.addEventListener("click", function () {
          undo.disabled = true;
          clearTimeout(timer);
          window.snapdiffPost("\#(APIPaths.prefix)/approvals/" + encodeURIComponent(result.operation) + "/undo").then(function () {
            items.forEach(function (item) { setStatus(byKey[item.key], item.previousStatus || "failed"); });
          }).then(function () {
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
        if (!confirm("Approve all " + members.length + " snapshots of this group?")) return;
        review(button, row, "/approve", { keys: members.map(function (c) { return c.dataset.key; }) }, card);
      }
      // Accept as another variant: the baseline stays, the frame is added beside it under a
      // name (the machine or OS that renders it this way); a snapshot needs a baseline for it.
      function addVariantButton(row, card) {
        var status = card.dataset.status;
        if (status !== "failed" && status !== "rejected") return;
        var key = card.dataset.key;
        makeButton(row, "Accept as another variant", "variant",
          "Keep the baseline and accept this frame too, as a variant named for the machine that renders it", function (b) {
            var name = prompt("Name the variant (the machine or OS that renders it so: intel, ios17):", "");
            if (!name) return;
            review(b, row, "/approve", { keys: [key], variant: name.trim() }, card);
          });
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
        addVariantButton(row, card);
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
        addVariantButton(focusRow, card);
        if (card.dataset.status !== "rejected") {
          makeButton(focusRow, "Reject", "reject", "Keep the baseline (r)", function (b) {
            review(b, focusRow, snapshotPath(key) + "/reject", {}, card);
          });
        }
        var members = sameChange(card);
        if (members.length >= 2) {
          makeButton(focusRow, "Approve all " + members.length + " of this group", "same",
            "Approve every snapshot of this group: the same change, or the same kind of edit (s)", function (b) { approveSame(card, b, focusRow); });
        }
      }
      report.onOpen(fillViewer);

      // Each group: approve or reject its failed snapshots but those left out (their keys,
      // so that exactly what the page shows is reviewed), confirmed with the count. First every
      // card, group and count is put where a reload would put it (window.snapdiffLive).
      function groupsChanged() {
        live.update();
        report.refresh(null);
        Array.prototype.forEach.call(document.querySelectorAll(".change-group"), function (group) {
          var row = group.querySelector(".group-actions");
          var members = live.included(group);
          var left = live.members(group).length - members.length;
          row.textContent = "";
          if (live.members(group).length < 2 || !members.length) return;
          var n = members.length;
          var keys = members.map(function (c) { return c.dataset.key; });
          var what = (n === 1 ? "the 1 snapshot" : "all " + n + " snapshots") + " of this group"
            + (left ? ", leaving out " + left : "");
          makeButton(row, "Approve these " + n, "approve", "Approve the " + what, function (b) {
            if (confirm("Approve " + what + "?")) review(b, row, "/approve", { keys: keys }, members[0]);
          });
          makeButton(row, "Reject these " + n, "reject", "Reject the " + what, function (b) {
            if (confirm("Reject " + what + "?")) review(b, row, "/reject", { keys: keys }, members[0]);
          });
        });
        // Each kind of difference (rendering alone, after an OS or Xcode update): approve its
        // failed snapshots at once, confirmed with the count.
        Array.prototype.forEach.call(document.querySelectorAll(".difference-groups li[data-difference]"), function (item) {
          var row = item.querySelector(".group-actions");
          var kind = item.dataset.difference;
          var members = cards.filter(function (c) { return c.dataset.status === "failed" && c.dataset.difference === kind; });
          row.textContent = "";
          if (!members.length) return;
          var n = members.length;
          makeButton(row, "Approve these " + n, "approve", "Approve the " + n + " failed snapshots whose difference is " + kind, function (b) {
            if (confirm("Approve all " + n + " failed snapshots whose difference is " + kind + "?")) review(b, row, "/approve", { difference: kind }, members[0]);
          });
        });
        allFailed();
      }

      var toolbar = document.querySelector(".toolbar");
      var hint = document.createElement("span");
      hint.className = "shortcuts";
      hint.textContent = "Keys: j/k next/previous · Enter view · a approve · r reject · s the group · 1–5 view · Esc list";
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
      // A member ticked or unticked: the group's buttons count again.
      document.addEventListener("change", function (event) {
        if (event.target.closest(".group-members input.include")) groupsChanged();
      });

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
