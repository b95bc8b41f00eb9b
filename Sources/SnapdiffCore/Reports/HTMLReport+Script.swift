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
  static let script = #"""
    (function () {
      "use strict";
      var all = function (selector, root) {
        return Array.prototype.slice.call((root || document).querySelectorAll(selector));
      };
      var body = document.body;
      var reviewable = ["failed", "new", "missing", "rejected"];
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

      // The current card, and moving through the cards shown.
      function navigable() {
        return cards.filter(function (card) {
          if (card.hidden) return false;
          var details = card.closest("details");
          return !details || details.open || isOpen();
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

      // The viewer.
      var focus = document.querySelector(".focus");
      var panes = all(".pane", focus);
      var view = { z: 1, x: 0, y: 0, fit: true, w: 0, h: 0, regions: [], change: -1 };
      var preferred = "2up";
      function isOpen() { return !!focus && !focus.hidden; }
      function imagesOf(card) {
        var images = {};
        all(".files a[data-image]", card).forEach(function (link) {
          images[link.dataset.image] = link.getAttribute("href");
        });
        return images;
      }
      function modesOf(card) {
        var images = imagesOf(card);
        if (!images.baseline || !images.current) return ["single"];
        return ["2up", "slider", "blend", "toggle"].concat(images.diff ? ["diff"] : []);
      }
      function setMode(mode) {
        if (!focus) return;
        var available = current ? modesOf(current) : [];
        if (available.indexOf(mode) < 0) return;
        focus.dataset.mode = mode;
        if (mode !== "single") preferred = mode;
        all(".focus-bar .modes button[data-mode]", focus).forEach(function (button) {
          button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
        });
        all(".mode-all button").forEach(function (button) {
          button.setAttribute("aria-pressed", String(button.dataset.mode === preferred));
        });
        var labels = { "2up": ["baseline", "current"], slider: ["baseline | current", ""],
          blend: ["baseline + current", ""], toggle: ["current", ""], diff: ["diff", ""], single: ["", ""] };
        if (mode === "single") {
          var images = imagesOf(current);
          labels.single = [images.current ? "current" : "baseline", ""];
        }
        panes.forEach(function (pane, index) { pane.querySelector(".pane-label").textContent = labels[mode][index]; });
        showFlip();
        if (view.fit) fit();
      }
      function flip() {
        focus.toggleAttribute("data-flipped");
        showFlip();
      }
      function showFlip() {
        var shown = focus.hasAttribute("data-flipped") ? "baseline" : "current";
        all(".flip-state", focus).forEach(function (label) { label.textContent = shown; });
        if (focus.dataset.mode === "toggle") panes[0].querySelector(".pane-label").textContent = shown;
      }
      function open(card) {
        if (!focus || !card) return;
        var wasOpen = isOpen();
        focus.hidden = false;
        body.classList.add("viewing");
        select(card, false);
        var images = imagesOf(card);
        var layers = { base: images.baseline, top: images.current, diff: images.diff };
        panes.forEach(function (pane) {
          Object.keys(layers).forEach(function (kind) {
            var layer = pane.querySelector(".layer." + kind);
            var img = layer.querySelector("img");
            var url = layers[kind];
            layer.classList.toggle("empty", !url);
            layer.classList.remove("broken");
            layer.dataset.src = url ? decodeURIComponent(url) : "";
            if (!url) img.removeAttribute("src");
            else if (img.getAttribute("src") !== url) img.src = url;
          });
        });
        focus.querySelector(".focus-title").textContent = card.querySelector(".snap-head h3").textContent;
        var badge = focus.querySelector(".focus-status");
        badge.className = "badge focus-status st-" + card.dataset.status;
        badge.textContent = card.dataset.status;
        var list = navigable();
        focus.querySelector(".focus-pos").textContent = (list.indexOf(card) + 1) + " of " + list.length;
        var available = modesOf(card);
        all(".focus-bar .modes button[data-mode]", focus).forEach(function (button) {
          button.hidden = available.indexOf(button.dataset.mode) < 0;
        });
        focus.removeAttribute("data-flipped");
        view.regions = (card.dataset.regions || "").split(" ").filter(Boolean).map(function (text) {
          return text.split(",").map(Number);
        });
        view.change = -1;
        panes.forEach(function (pane) {
          var boxes = pane.querySelector(".boxes");
          boxes.textContent = "";
          view.regions.forEach(function (region, index) {
            var box = document.createElement("div");
            box.className = "box";
            box.dataset.region = String(index);
            box.style.left = region[0] + "px";
            box.style.top = region[1] + "px";
            box.style.width = region[2] + "px";
            box.style.height = region[3] + "px";
            boxes.appendChild(box);
          });
        });
        focus.querySelector(".next-change").disabled = view.regions.length === 0;
        focus.querySelector(".change-pos").textContent = view.regions.length
          ? view.regions.length + (view.regions.length === 1 ? " change" : " changes") : "";
        var side = focus.querySelector(".focus-side");
        side.textContent = "";
        all(".figures, .areas, .note, .problem, .layout, .commands, .files", card).forEach(function (part) {
          side.appendChild(part.cloneNode(true));
        });
        var layout = side.querySelector(".layout");
        if (layout) {
          var heading = document.createElement("h3");
          heading.textContent = "Layout changes";
          side.insertBefore(heading, layout);
        }
        view.fit = true;
        view.w = 0;
        view.h = 0;
        setMode(available.indexOf(preferred) >= 0 ? preferred : available[0]);
        measureCanvas();
        if (!wasOpen) focus.focus({ preventScroll: true });
        openListeners.forEach(function (listener) { listener(card); });
      }
      function close() {
        if (!isOpen()) return;
        focus.hidden = true;
        body.classList.remove("viewing");
        if (current) select(current);
      }
      // The canvas is as large as the largest image loaded; fitted, it is scaled to the pane.
      function measureCanvas() {
        var w = 0, h = 0;
        all(".layer:not(.empty):not(.broken) img", panes[0]).forEach(function (img) {
          if (img.complete && img.naturalWidth > 0) {
            w = Math.max(w, img.naturalWidth);
            h = Math.max(h, img.naturalHeight);
          }
        });
        view.w = w;
        view.h = h;
        if (view.fit) fit();
        else apply();
      }
      function apply() {
        panes.forEach(function (pane) {
          var canvas = pane.querySelector(".canvas");
          canvas.style.width = view.w + "px";
          canvas.style.height = view.h + "px";
          canvas.style.transform = "translate(" + view.x + "px, " + view.y + "px) scale(" + view.z + ")";
          canvas.style.setProperty("--z", String(view.z));
        });
        focus.querySelector(".zoom-level").textContent = Math.round(view.z * 100) + "%";
        focus.toggleAttribute("data-fit", view.fit);
      }
      function paneSize() { return [panes[0].clientWidth, panes[0].clientHeight]; }
      function fit() {
        var size = paneSize();
        view.fit = true;
        if (!view.w || !size[0] || !size[1]) { apply(); return; }
        view.z = Math.min(size[0] / view.w, size[1] / view.h);
        view.x = (size[0] - view.w * view.z) / 2;
        view.y = (size[1] - view.h * view.z) / 2;
        apply();
      }
      function zoomAt(factor, px, py) {
        var z = Math.max(0.02, Math.min(32, view.z * factor));
        view.x = px - (px - view.x) * z / view.z;
        view.y = py - (py - view.y) * z / view.z;
        view.z = z;
        view.fit = false;
        apply();
      }
      function zoomTo(z) {
        var size = paneSize();
        zoomAt(z / view.z, size[0] / 2, size[1] / 2);
      }
      function pan(dx, dy) {
        view.x += dx;
        view.y += dy;
        view.fit = false;
        apply();
      }
      // Centres the next (or previous) changed region, zoomed so that it fills about a third of
      // the pane, never less than fitted nor more than 2:1.
      function gotoChange(direction) {
        var count = view.regions.length;
        if (!count || !view.w) return;
        view.change = ((view.change + direction) % count + count) % count;
        var region = view.regions[view.change];
        var size = paneSize();
        var fitted = Math.min(size[0] / view.w, size[1] / view.h);
        var wanted = Math.min(size[0] / (3 * Math.max(region[2], 1)), size[1] / (3 * Math.max(region[3], 1)));
        view.z = Math.max(fitted, Math.min(2, wanted));
        view.x = size[0] / 2 - (region[0] + region[2] / 2) * view.z;
        view.y = size[1] / 2 - (region[1] + region[3] / 2) * view.z;
        view.fit = false;
        apply();
        all(".box", focus).forEach(function (box) {
          box.classList.toggle("current", Number(box.dataset.region) === view.change);
        });
        focus.querySelector(".change-pos").textContent = "change " + (view.change + 1) + " of " + count;
      }
      if (focus) {
        window.addEventListener("resize", function () { if (isOpen() && view.fit) fit(); });
        panes.forEach(function (pane) {
          var drag = null;
          pane.addEventListener("pointerdown", function (event) {
            if (event.button !== 0) return;
            drag = { x: event.clientX, y: event.clientY, moved: 0 };
            try { pane.setPointerCapture(event.pointerId); } catch (error) { /* a synthetic event */ }
          });
          pane.addEventListener("pointermove", function (event) {
            if (!drag) return;
            var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
            drag.moved += Math.abs(dx) + Math.abs(dy);
            drag.x = event.clientX;
            drag.y = event.clientY;
            if (drag.moved > 3) pan(dx, dy);
          });
          pane.addEventListener("pointerup", function () {
            if (drag && drag.moved <= 3 && focus.dataset.mode === "toggle") flip();
            drag = null;
          });
          pane.addEventListener("pointercancel", function () { drag = null; });
          pane.addEventListener("wheel", function (event) {
            event.preventDefault();
            var box = pane.getBoundingClientRect();
            zoomAt(Math.pow(1.0015, -event.deltaY), event.clientX - box.left, event.clientY - box.top);
          }, { passive: false });
        });
        focus.addEventListener("input", function (event) {
          if (event.target.classList.contains("slider")) focus.style.setProperty("--pos", event.target.value + "%");
          else if (event.target.classList.contains("blend")) focus.style.setProperty("--opacity", String(event.target.value / 100));
        });
      }

      document.addEventListener("click", function (event) {
        var target = event.target;
        var modeAll = target.closest(".mode-all button");
        if (modeAll) {
          preferred = modeAll.dataset.mode;
          if (isOpen()) setMode(preferred);
          all(".mode-all button").forEach(function (button) {
            button.setAttribute("aria-pressed", String(button.dataset.mode === preferred));
          });
          return;
        }
        var modeButton = target.closest(".focus-bar .modes button[data-mode]");
        if (modeButton) { setMode(modeButton.dataset.mode); return; }
        var zoomButton = target.closest("[data-zoom]");
        if (zoomButton) {
          var how = zoomButton.dataset.zoom;
          if (how === "fit") fit();
          else if (how === "1") zoomTo(1);
          else zoomTo(view.z * (how === "in" ? 1.25 : 0.8));
          return;
        }
        if (target.closest(".flip")) { flip(); return; }
        if (target.closest(".next-change")) { gotoChange(1); return; }
        if (target.closest(".focus-close")) { close(); return; }
        if (target.closest(".focus-next")) { step(1); return; }
        if (target.closest(".focus-prev")) { step(-1); return; }
        var more = target.closest(".more");
        if (more) {
          var list = more.previousElementSibling;
          var limit = Number(list.dataset.limit) || (list.closest(".change-group") ? GROUP_PAGE : PAGE);
          list.dataset.limit = String(limit + PAGE);
          applyFilters();
          return;
        }
        var thumb = target.closest(".thumb");
        if (thumb) { open(thumb.closest(".snap")); return; }
        var copyButton = target.closest(".copy");
        if (copyButton) { copy(copyButton); return; }
        var card = target.closest(".snap");
        if (card && !target.closest("a, button, input")) select(card, false);
      });

      // Images: a placeholder names any that cannot be loaded; a loaded one sizes the canvas.
      function settle(img) {
        var layer = img.closest(".layer");
        if (!layer || !img.getAttribute("src")) return;
        if (img.complete && img.naturalWidth === 0) {
          layer.classList.add("broken");
          if (!layer.dataset.src) layer.dataset.src = decodeURIComponent(img.getAttribute("src").split("?")[0]);
        }
        else if (img.complete) layer.classList.remove("broken");
        if (focus && focus.contains(img) && isOpen()) measureCanvas();
      }
      document.addEventListener("load", function (event) {
        if (event.target.tagName === "IMG") settle(event.target);
      }, true);
      document.addEventListener("error", function (event) {
        if (event.target.tagName === "IMG") settle(event.target);
      }, true);

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

      // The self-test (see HTMLReport.script's documentation).
      function signature() {
        return all(".pane, .layer, .divider", focus).map(function (element) {
          var style = getComputedStyle(element);
          var box = element.getBoundingClientRect();
          return [style.display, style.visibility, style.opacity, style.clipPath,
            Math.round(box.left), Math.round(box.top), Math.round(box.width),
            Math.round(box.height)].join(" ");
        }).join("|");
      }
      function shownLayers() {
        return all(".layer", focus).filter(function (layer) {
          if (layer.classList.contains("empty") || layer.classList.contains("broken")) return false;
          var style = getComputedStyle(layer);
          return style.display !== "none" && style.visibility !== "hidden" && layer.closest(".pane").offsetParent !== null;
        });
      }
      // What is wrong with the images shown: "" when every shown image has a size, all share one
      // scale and (fitted) each lies whole inside its pane; else "empty", "size", "scale" or "fit".
      function layoutProblem() {
        var shown = shownLayers();
        if (shown.length === 0) return "empty";
        var scales = [];
        for (var i = 0; i < shown.length; i += 1) {
          var img = shown[i].querySelector("img");
          var box = img.getBoundingClientRect();
          if (box.width < 1 || box.height < 1) return "size";
          scales.push(box.width / img.naturalWidth);
          var pane = shown[i].closest(".pane").getBoundingClientRect();
          if (view.fit && (box.left < pane.left - 1 || box.top < pane.top - 1
            || box.right > pane.right + 1 || box.bottom > pane.bottom + 1)) return "fit";
        }
        var largest = Math.max.apply(null, scales);
        return largest - Math.min.apply(null, scales) > 0.02 * largest ? "scale" : "";
      }
      // Each box where its region is: its corner and size, in image pixels, within 1.5 px.
      function boxProblems(id) {
        var problems = [];
        var layer = shownLayers()[0];
        if (!layer) return problems;
        var img = layer.querySelector("img").getBoundingClientRect();
        var scale = img.width / layer.querySelector("img").naturalWidth;
        var boxes = all(".box", layer.closest(".pane"));
        if (boxes.length !== view.regions.length) return [id + ":boxes"];
        boxes.forEach(function (element, index) {
          var box = element.getBoundingClientRect();
          var region = view.regions[index];
          var found = [(box.left - img.left) / scale, (box.top - img.top) / scale, box.width / scale, box.height / scale];
          for (var i = 0; i < 4; i += 1) {
            if (Math.abs(found[i] - region[i]) > 1.5) { problems.push(id + ":box" + index); break; }
          }
        });
        return problems;
      }
      function loaded() {
        return new Promise(function (resolve) {
          var wait = function () {
            var pending = all(".layer:not(.empty) img", focus).filter(function (img) { return !img.complete; });
            if (pending.length) setTimeout(wait, 20);
            else setTimeout(resolve, 0);
          };
          wait();
        });
      }
      function selfTest(nameQuery) {
        var subjects = cards.filter(function (card) {
          return card.dataset.status !== "passed" && card.querySelector(".files a[data-image]");
        });
        var total = 0, loadedCount = 0, broken = {};
        var switched = 0, changed = 0, failures = [];
        var checked = 0, controlFailures = [];
        var layouts = 0, layoutFailures = [];
        var boxesChecked = 0, boxFailures = [];
        var checkLayout = function (id) {
          layouts += 1;
          var problem = layoutProblem();
          if (problem) layoutFailures.push(id + ":" + focus.dataset.mode + ":" + problem);
        };
        var chain = Promise.resolve();
        subjects.forEach(function (card) {
          chain = chain.then(function () {
            open(card);
            return loaded();
          }).then(function () {
            var id = card.id;
            all(".pane-a .layer:not(.empty) img", focus).forEach(function (img) {
              total += 1;
              if (img.naturalWidth > 0) loadedCount += 1;
              else broken[id] = true;
            });
            checkLayout(id);
            if (view.regions.length) {
              boxesChecked += 1;
              boxFailures = boxFailures.concat(boxProblems(id));
            }
            var modes = modesOf(card);
            if (modes.length < 2) return;
            var start = focus.dataset.mode;
            var next = modes.indexOf(start) + 1;
            modes.slice(next).concat(modes.slice(0, next)).forEach(function (mode) {
              var before = signature();
              focus.querySelector('.focus-bar .modes button[data-mode="' + mode + '"]').click();
              switched += 1;
              if (focus.dataset.mode === mode && signature() !== before) changed += 1;
              else failures.push(id + ":" + mode);
              checkLayout(id);
              var control = null;
              if (mode === "slider") control = focus.querySelector(".slider");
              if (mode === "blend") control = focus.querySelector(".blend");
              if (control) {
                var beforeControl = signature();
                control.value = control.value === "20" ? "80" : "20";
                control.dispatchEvent(new Event("input", { bubbles: true }));
                checked += 1;
                if (signature() === beforeControl) controlFailures.push(id + ":" + mode);
              }
              if (mode === "toggle") {
                var beforeFlip = signature();
                var pane = panes[0];
                pane.dispatchEvent(new PointerEvent("pointerdown", { button: 0, clientX: 5, clientY: 5, pointerId: 1 }));
                pane.dispatchEvent(new PointerEvent("pointerup", { button: 0, clientX: 5, clientY: 5, pointerId: 1 }));
                checked += 1;
                if (signature() === beforeFlip) controlFailures.push(id + ":toggle");
                focus.querySelector(".flip").click();
                checked += 1;
                if (signature() !== beforeFlip) controlFailures.push(id + ":flip");
              }
            });
          });
        });
        return chain.then(function () {
          close();
          body.dataset.imagesTotal = total;
          body.dataset.imagesLoaded = loadedCount;
          body.dataset.imagesBroken = Object.keys(broken).join(" ");
          body.dataset.modesSwitched = switched;
          body.dataset.modesChanged = changed;
          body.dataset.modesFailures = failures.join(" ");
          body.dataset.controlsChecked = checked;
          body.dataset.controlsFailures = controlFailures.join(" ");
          body.dataset.layoutsChecked = layouts;
          body.dataset.layoutFailures = layoutFailures.join(" ");
          body.dataset.boxesChecked = boxesChecked;
          body.dataset.boxFailures = boxFailures.join(" ");

          var boxes = all(".status-filter input");
          var statusFailures = [];
          boxes.forEach(function (only) {
            boxes.forEach(function (box) { box.checked = box === only; });
            applyFilters();
            var expected = cards.filter(function (c) { return c.dataset.status === only.value; });
            var visible = cards.filter(function (c) { return !c.hidden; });
            var groupsOk = all(".group").every(function (group) {
              return group.hidden === (group.dataset.status !== only.value);
            });
            if (visible.length !== expected.length || !groupsOk
              || visible.some(function (c) { return c.dataset.status !== only.value; })) {
              statusFailures.push(only.value);
            }
          });
          boxes.forEach(function (box) { box.checked = true; });
          body.dataset.statusFilter = statusFailures.length ? statusFailures.join(" ") : "ok";

          if (nameFilter) {
            nameFilter.value = nameQuery;
            applyFilters();
            body.dataset.nameFilterShown = cards.filter(function (c) { return !c.hidden; })
              .map(function (c) { return c.id; }).join(" ");
            nameFilter.value = "";
          }
          body.dataset.shownAfterReset = applyFilters();
          body.dataset.selftest = "done";
        });
      }
      var hash = location.hash;
      if (hash === "#selftest" || hash.indexOf("#selftest=") === 0) {
        var query = decodeURIComponent(hash.slice("#selftest=".length));
        var run = function () { selfTest(query); };
        if (document.readyState === "complete") run();
        else window.addEventListener("load", run);
      }
    })();
    """#
}
