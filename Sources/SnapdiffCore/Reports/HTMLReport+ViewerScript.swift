extension HTMLReport {
  /// The viewer (part of `script`): view modes, fit, synced zoom and pan, the boxes over
  /// changed regions and "next change", the slider, blend and toggle controls, and images
  /// that cannot be loaded.
  static let viewerScript = #"""
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
    """#
}
