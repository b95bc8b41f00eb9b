extension HTMLReport {
  /// The page's script: view modes, the slider, blend and toggle controls, the status and name
  /// filters, copy buttons, one scale for images of different sizes, and a placeholder naming
  /// any image that cannot be loaded.
  ///
  /// It reads everything from the DOM (no data is embedded in the script), so it is the same
  /// text for every run.
  ///
  /// Opened with `#selftest` (or `#selftest=<name filter>`), the page also checks itself once
  /// loaded and writes the results on `<body>`, for tests that load it in a headless browser:
  /// - `data-images-total`, `data-images-loaded`: the images of snapshots that did not pass,
  ///   and how many of them loaded; `data-images-broken`: the ids of snapshots with an image
  ///   that did not;
  /// - `data-modes-switched`, `data-modes-changed`, `data-modes-failures`: every view mode of
  ///   every snapshot switched to in turn, how many switches changed what is shown, and which did
  ///   not (`<id>:<mode>`); `data-controls-checked`, `data-controls-failures`: the same for the
  ///   slider, blend and toggle controls; `data-layouts-checked`, `data-layout-failures`: each
  ///   snapshot that did not pass, as loaded and in every mode, checked for shown images with
  ///   no size or not at one scale (`<id>:<mode>:<problem>`);
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

      // View modes.
      function setMode(viewer, mode) {
        if (!viewer.querySelector('.modes button[data-mode="' + mode + '"]')) return;
        viewer.dataset.mode = mode;
        all(".modes button", viewer).forEach(function (button) {
          button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
        });
      }
      function flip(viewer) {
        if (viewer.hasAttribute("data-flipped")) viewer.removeAttribute("data-flipped");
        else viewer.setAttribute("data-flipped", "");
        var shown = viewer.hasAttribute("data-flipped") ? "baseline" : "current";
        all(".flip-state", viewer).forEach(function (label) { label.textContent = shown; });
      }
      document.addEventListener("click", function (event) {
        var target = event.target;
        var modeAll = target.closest(".mode-all button");
        if (modeAll) {
          all(".viewer").forEach(function (viewer) { setMode(viewer, modeAll.dataset.mode); });
          return;
        }
        var modeButton = target.closest(".viewer .modes button");
        if (modeButton) {
          setMode(modeButton.closest(".viewer"), modeButton.dataset.mode);
          return;
        }
        var flipButton = target.closest(".flip");
        if (flipButton) {
          flip(flipButton.closest(".viewer"));
          return;
        }
        var stage = target.closest('.viewer[data-mode="toggle"] .stage');
        if (stage) {
          flip(stage.closest(".viewer"));
          return;
        }
        var copyButton = target.closest(".copy");
        if (copyButton) copy(copyButton);
      });
      document.addEventListener("input", function (event) {
        var target = event.target;
        var viewer = target.closest(".viewer");
        if (!viewer) return;
        if (target.classList.contains("slider")) {
          viewer.querySelector(".stage").style.setProperty("--pos", target.value + "%");
        } else if (target.classList.contains("blend")) {
          viewer.querySelector(".stage").style.setProperty("--opacity", String(target.value / 100));
        }
      });

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

      // Filters.
      var nameFilter = document.querySelector(".name-filter");
      var shownLabel = document.querySelector(".shown");
      var cards = all(".snap");
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
        all(".group").forEach(function (group) {
          var anyShown = group.querySelector(".snap:not([hidden])") !== null;
          group.hidden = !anyShown;
          var details = group.querySelector("details");
          if (details && query && anyShown) details.open = true;
        });
        if (shownLabel) shownLabel.textContent = shown + " of " + cards.length + " shown";
        return shown;
      }
      document.addEventListener("change", function (event) {
        if (event.target.closest(".status-filter")) applyFilters();
      });
      if (nameFilter) nameFilter.addEventListener("input", applyFilters);

      // One scale for every image of a snapshot: the widest sets the stage's width, the others
      // take their share of it. Broken images get a placeholder naming the file.
      function fit(stage) {
        var images = all("img", stage);
        var widest = 0;
        images.forEach(function (img) {
          if (img.complete && img.naturalWidth > 0) widest = Math.max(widest, img.naturalWidth);
        });
        if (widest === 0) return;
        stage.style.setProperty("--w", widest + "px");
        images.forEach(function (img) {
          if (img.complete && img.naturalWidth > 0) {
            img.style.setProperty("--iw", (100 * img.naturalWidth / widest) + "%");
          }
        });
      }
      function settle(img) {
        var layer = img.closest(".layer");
        if (!layer) return;
        if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) {
          layer.classList.add("broken");
        } else if (img.complete) {
          layer.classList.remove("broken");
          fit(img.closest(".stage"));
        }
      }
      document.addEventListener("load", function (event) {
        if (event.target.tagName === "IMG") settle(event.target);
      }, true);
      document.addEventListener("error", function (event) {
        if (event.target.tagName === "IMG") settle(event.target);
      }, true);
      all(".stage img").forEach(function (img) { if (img.complete) settle(img); });

      // The self-test (see HTMLReport.script's documentation).
      function signature(viewer) {
        return all(".layer, .divider", viewer).map(function (element) {
          var style = getComputedStyle(element);
          var box = element.getBoundingClientRect();
          return [style.display, style.visibility, style.opacity, style.clipPath,
            Math.round(box.left), Math.round(box.top), Math.round(box.width),
            Math.round(box.height)].join(" ");
        }).join("|");
      }
      // What is wrong with the images shown: "" when every shown image has a size and all share
      // one scale, else "empty", "size" or "scale".
      function layoutProblem(viewer) {
        var shown = all(".layer", viewer).filter(function (layer) {
          var style = getComputedStyle(layer);
          return style.display !== "none" && style.visibility !== "hidden"
            && !layer.classList.contains("broken");
        });
        if (shown.length === 0) return "empty";
        var scales = [];
        for (var i = 0; i < shown.length; i += 1) {
          var img = shown[i].querySelector("img");
          var box = img.getBoundingClientRect();
          if (box.width < 1 || box.height < 1) return "size";
          scales.push(box.width / img.naturalWidth);
        }
        var largest = Math.max.apply(null, scales);
        return largest - Math.min.apply(null, scales) > 0.02 * largest ? "scale" : "";
      }
      function selfTest(nameQuery) {
        var body = document.body;
        var images = all('.snap:not([data-status="passed"]) .stage img');
        var loaded = images.filter(function (img) { return img.complete && img.naturalWidth > 0; });
        var broken = {};
        images.forEach(function (img) {
          if (loaded.indexOf(img) < 0) broken[img.closest(".snap").id] = true;
        });
        body.dataset.imagesTotal = images.length;
        body.dataset.imagesLoaded = loaded.length;
        body.dataset.imagesBroken = Object.keys(broken).join(" ");

        var switched = 0, changed = 0, failures = [];
        var checked = 0, controlFailures = [];
        var layouts = 0, layoutFailures = [];
        var checkLayout = function (viewer, id) {
          layouts += 1;
          var problem = layoutProblem(viewer);
          if (problem) layoutFailures.push(id + ":" + viewer.dataset.mode + ":" + problem);
        };
        all('.snap:not([data-status="passed"]) .viewer').forEach(function (viewer) {
          checkLayout(viewer, viewer.closest(".snap").id);
        });
        all(".viewer").forEach(function (viewer) {
          var id = viewer.closest(".snap").id;
          var modes = all(".modes button", viewer).map(function (b) { return b.dataset.mode; });
          if (modes.length < 2) return;
          var start = viewer.dataset.mode;
          var next = modes.indexOf(start) + 1;
          var order = modes.slice(next).concat(modes.slice(0, next));
          order.forEach(function (mode) {
            var before = signature(viewer);
            viewer.querySelector('.modes button[data-mode="' + mode + '"]').click();
            switched += 1;
            if (viewer.dataset.mode === mode && signature(viewer) !== before) changed += 1;
            else failures.push(id + ":" + mode);
            if (viewer.closest(".snap").dataset.status !== "passed") checkLayout(viewer, id);
            var control = null;
            if (mode === "slider") control = viewer.querySelector(".slider");
            if (mode === "blend") control = viewer.querySelector(".blend");
            if (control) {
              var beforeControl = signature(viewer);
              control.value = control.value === "20" ? "80" : "20";
              control.dispatchEvent(new Event("input", { bubbles: true }));
              checked += 1;
              if (signature(viewer) === beforeControl) controlFailures.push(id + ":" + mode);
            }
            if (mode === "toggle") {
              var beforeFlip = signature(viewer);
              viewer.querySelector(".stage").click();
              checked += 1;
              if (signature(viewer) === beforeFlip) controlFailures.push(id + ":toggle");
              viewer.querySelector(".flip").click();
              checked += 1;
              if (signature(viewer) !== beforeFlip) controlFailures.push(id + ":flip");
            }
          });
        });
        body.dataset.modesSwitched = switched;
        body.dataset.modesChanged = changed;
        body.dataset.modesFailures = failures.join(" ");
        body.dataset.controlsChecked = checked;
        body.dataset.controlsFailures = controlFailures.join(" ");
        body.dataset.layoutsChecked = layouts;
        body.dataset.layoutFailures = layoutFailures.join(" ");

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
