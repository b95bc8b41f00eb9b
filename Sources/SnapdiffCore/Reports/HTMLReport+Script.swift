extension HTMLReport {
  /// The page's script: the lists (filters by status and name, pages of cards with "Show
  /// more"), the current card and the keys, the viewer (view modes, fit, synced zoom and pan,
  /// the boxes over changed regions and "next change", the slider, blend and toggle controls),
  /// copy buttons, and a placeholder naming any image that cannot be loaded.
  ///
  /// It reads everything from the DOM (no data is embedded in the script), so it is the same
  /// text for every run. It publishes `window.snapdiffReport` for a page built on the report
  /// (``Embedding``): `cards()`, `current()`, `select(card)`, `open(card)`, `close()`,
  /// `isOpen()`, `step(±1)`, `advance(fromCard)` (to the next card with something to review),
  /// `canReview(card)`, `refresh(card)` (after its status changed), `onOpen(listener)` and
  /// `view()` (zoom, pan, fitted, current change).
  ///
  /// Opened with `#selftest` (or `#selftest=<name filter>`), the page also checks itself once
  /// loaded and writes the results on `<body>`, for tests that load it in a headless browser.
  /// It opens every snapshot that did not pass in the viewer, one after the other:
  /// - `data-images-total`, `data-images-loaded`: their images, and how many loaded;
  ///   `data-images-broken`: the ids of snapshots with an image that did not;
  /// - `data-modes-switched`, `data-modes-changed`, `data-modes-failures`: every view mode of
  ///   every snapshot switched to in turn, how many switches changed what is shown, and which did
  ///   not (`<id>:<mode>`); `data-controls-checked`, `data-controls-failures`: the same for the
  ///   slider, blend and toggle controls; `data-layouts-checked`, `data-layout-failures`: each
  ///   snapshot, as opened and in every mode, checked for shown images with no size, not at one
  ///   scale, or (fitted) not wholly inside their pane (`<id>:<mode>:<problem>`);
  ///   `data-boxes-checked`, `data-box-failures`: the snapshots with regions, and the boxes not
  ///   drawn at their region's coordinates (`<id>:box<n>`);
  /// - `data-status-filter`: `ok`, or the statuses whose checkbox did not show exactly their
  ///   snapshots; `data-name-filter-shown`: the ids shown by the name filter from the URL;
  ///   `data-shown-after-reset`: how many snapshots show once the filters are cleared;
  /// - `data-selftest`: `done`, written last.
  static let script = [listScript, viewerScript, keysScript, selfTestScript].joined(separator: "\n\n")

  // The script is one function, whose parts share its variables; these constants are its text
  // in order, cut where one concern ends: the lists (here), the viewer (HTMLReport+ViewerScript),
  // copy buttons, keys and the API for embedding pages (here), the self-test
  // (HTMLReport+SelfTestScript).

  /// The statuses a reviewer can act on (`SnapshotStatus.reviewable`), as the script's list.
  static let reviewableStatuses = SnapshotStatus.reviewable.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

  /// Its start: the lists, their filters and pages, the counts, the current card and moving
  /// through the cards.
  static let listScript = #"""
    (function () {
      "use strict";
      var all = function (selector, root) {
        return Array.prototype.slice.call((root || document).querySelectorAll(selector));
      };
      var body = document.body;
      var reviewable = [\#(reviewableStatuses)];
      // Cards shown at first in each list, and in each change group: a run of a thousand
      // snapshots lays out (and loads the thumbnails of) one page, not all of them.
      var PAGE = 60, GROUP_PAGE = 6;

      // The toolbar sticks to the top and wraps to more rows on a narrow window (or when the
      // review page adds its controls): a snapshot scrolled to (a #link, j/k) stops below it.
      var toolbar = document.querySelector(".toolbar");
      if (toolbar) {
        var measure = function () {
          document.documentElement.style.setProperty("--toolbar-height", toolbar.offsetHeight + "px");
        };
        measure();
        if (window.ResizeObserver) new ResizeObserver(measure).observe(toolbar);
        else window.addEventListener("resize", measure);
      }

      var cards = all("article.snap");
      var current = null;
      var openListeners = [];

      // Filters, and the lists' pages.
      var nameFilter = document.querySelector(".name-filter");
      var shownLabel = document.querySelector(".shown");
      function applyFilters() {
        var statuses = {};
        all(".status-filter input").forEach(function (box) { statuses[box.value] = box.checked; });
        var query = nameFilter ? nameFilter.value.trim().toLowerCase() : "";
        var shown = 0;
        cards.forEach(function (card) {
          var visible = statuses[card.dataset.status] !== false
            && (!query || card.dataset.key.toLowerCase().indexOf(query) >= 0);
          card.hidden = !visible;
          if (visible) shown += 1;
        });
        all(".cards").forEach(function (list) {
          var limit = Number(list.dataset.limit) || (list.closest(".change-group") ? GROUP_PAGE : PAGE);
          var visible = all(":scope > .snap:not([hidden])", list);
          visible.forEach(function (card, index) { card.toggleAttribute("data-paged", index >= limit); });
          var more = list.nextElementSibling;
          if (!more || !more.classList.contains("more")) {
            more = document.createElement("button");
            more.type = "button";
            more.className = "more";
            list.parentNode.insertBefore(more, list.nextSibling);
          }
          var left = visible.length - limit;
          more.hidden = left <= 0;
          more.textContent = "Show " + Math.min(left, PAGE) + " more (" + left + " not shown)";
        });
        all(".change-group").forEach(function (group) {
          group.hidden = group.querySelector(".snap:not([hidden])") === null;
        });
        all(".group").forEach(function (group) {
          var anyShown = group.querySelector(".snap:not([hidden])") !== null;
          group.hidden = !anyShown;
          var details = group.querySelector("details");
          if (details && query && anyShown) details.open = true;
        });
        if (shownLabel) shownLabel.textContent = shown + " of " + cards.length + " shown";
        return shown;
      }
      function reveal(card) {
        var details = card.closest("details");
        if (details) details.open = true;
        if (!card.hasAttribute("data-paged")) return;
        var list = card.parentNode;
        var index = all(":scope > .snap:not([hidden])", list).indexOf(card);
        list.dataset.limit = String(index + PAGE);
        applyFilters();
      }
      document.addEventListener("change", function (event) {
        if (event.target.closest(".status-filter")) applyFilters();
      });
      if (nameFilter) nameFilter.addEventListener("input", applyFilters);

      // Counts in the header and the filter, from the cards (a review page changes statuses).
      function updateCounts() {
        var counts = {};
        cards.forEach(function (card) { counts[card.dataset.status] = (counts[card.dataset.status] || 0) + 1; });
        all(".counts li").forEach(function (item) {
          var status = (item.className.match(/st-([a-z]+)/) || [])[1];
          if (!status || status === "error") return;
          var count = counts[status] || 0;
          item.querySelector("b").textContent = count.toLocaleString("en-US");
          item.classList.toggle("zero", count === 0);
        });
        all(".status-filter label").forEach(function (label) {
          var box = label.querySelector("input");
          label.querySelector(".count").textContent = (counts[box.value] || 0).toLocaleString("en-US");
        });
      }

      // The current card, and moving through the cards shown: not those of a closed list (the
      // passed ones, collapsed), in the viewer too, whose "3 of N" counts these.
      function navigable() {
        return cards.filter(function (card) {
          if (card.hidden) return false;
          var details = card.closest("details:not(.group-members)");
          return !details || details.open || card === current;
        });
      }
      function select(card, scroll) {
        if (current) current.classList.remove("current-snap");
        current = card || null;
        if (!current) return;
        reveal(current);
        current.classList.add("current-snap");
        if (!isOpen()) {
          if (scroll !== false) current.scrollIntoView({ block: "nearest" });
          current.focus({ preventScroll: true });
        }
      }
      function step(delta) {
        var list = navigable();
        if (!list.length) return;
        var index = list.indexOf(current);
        index = index < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, index + delta));
        if (isOpen()) open(list[index]);
        else select(list[index]);
      }
      function canReview(card) {
        return reviewable.indexOf(card.dataset.status) >= 0 && !card.querySelector(".badge.st-error");
      }
      // After a review: the next card with something to review (after `from`, then from the top).
      function advance(from) {
        var list = navigable();
        var start = Math.max(0, list.indexOf(from || current));
        var ordered = list.slice(start + 1).concat(list.slice(0, start + 1));
        var next = ordered.filter(canReview)[0] || null;
        if (!next) {
          if (isOpen()) close();
          select(from || current, false);
          return null;
        }
        if (isOpen()) open(next);
        else select(next);
        return next;
      }
    """#

  /// Copy buttons, the keys, the card a `#link` names, and `window.snapdiffReport`.
  static let keysScript = #"""
      // Copy buttons: the clipboard API where the page may use it, else select and copy.
      function copy(button) {
        var code = button.parentNode.querySelector("code");
        var text = code.textContent;
        var done = function (ok) {
          button.textContent = ok ? "Copied" : "Press Ctrl+C";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        };
        var fallback = function () {
          var range = document.createRange();
          range.selectNodeContents(code);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          var ok = false;
          try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
          done(ok);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
        } else {
          fallback();
        }
      }

      // Keys. In the list: j/k move, Enter or o opens the viewer. In the viewer: j/k the next and
      // previous snapshot, 1–5 the view modes, f fit, 0 actual pixels, + and - zoom, arrows pan,
      // n and N the next and previous change, t flip, [ and ] the divider or the blend, Esc back.
      document.addEventListener("keydown", function (event) {
        if (event.metaKey || event.ctrlKey || event.altKey) return;
        var key = event.key;
        // Enter and space on a button or link are that control's.
        if ((key === "Enter" || key === " ") && event.target.closest("button, a, summary")) return;
        if (event.target.closest("input, textarea, select")) {
          if (key === "Escape") event.target.blur();
          return;
        }
        if (key === "j") step(1);
        else if (key === "k") step(-1);
        else if (!isOpen() && (key === "Enter" || key === "o")) {
          if (!current && !event.target.closest(".snap")) step(1);
          open(current || event.target.closest(".snap"));
        } else if (!isOpen() && key >= "1" && key <= "5") {
          var chosen = document.querySelectorAll(".mode-all button")[Number(key) - 1];
          if (chosen) chosen.click();
        } else if (!isOpen()) return;
        else if (key === "Escape") close();
        else if (key >= "1" && key <= "5") {
          var button = focus.querySelectorAll(".focus-bar .modes button[data-mode]")[Number(key) - 1];
          if (button && !button.hidden) setMode(button.dataset.mode);
        } else if (key === "f") fit();
        else if (key === "0") zoomTo(1);
        else if (key === "+" || key === "=") zoomTo(view.z * 1.25);
        else if (key === "-") zoomTo(view.z * 0.8);
        else if (key === "n") gotoChange(1);
        else if (key === "N") gotoChange(-1);
        else if (key === "t" && focus.dataset.mode === "toggle") flip();
        else if (key === "ArrowLeft") pan(80, 0);
        else if (key === "ArrowRight") pan(-80, 0);
        else if (key === "ArrowUp") pan(0, 80);
        else if (key === "ArrowDown") pan(0, -80);
        else if (key === "[" || key === "]") {
          var control = focus.querySelector(focus.dataset.mode === "blend" ? ".blend" : ".slider");
          control.value = String(Number(control.value) + (key === "]" ? 10 : -10));
          control.dispatchEvent(new Event("input", { bubbles: true }));
        } else return;
        event.preventDefault();
      });

      applyFilters();
      var target = location.hash && document.getElementById(location.hash.slice(1));
      if (target && target.classList.contains("snap")) select(target);

      // What a page built on the report uses (HTMLReport.Embedding).
      window.snapdiffReport = {
        cards: function () { return cards; },
        current: function () { return current; },
        select: select,
        open: open,
        close: close,
        isOpen: isOpen,
        step: step,
        advance: advance,
        canReview: canReview,
        // After a card's status or content changed: counts, filters, and the viewer if it shows it.
        refresh: function (card) {
          updateCounts();
          applyFilters();
          if (isOpen() && card === current) {
            var badge = focus.querySelector(".focus-status");
            badge.className = "badge focus-status st-" + card.dataset.status;
            badge.textContent = card.dataset.status;
          }
        },
        onOpen: function (listener) { openListeners.push(listener); },
        view: function () { return { zoom: view.z, x: view.x, y: view.y, fit: view.fit, change: view.change }; }
      };
    """#
}
