extension HTMLReport {
  /// The self-test (the end of `script`), run when the page is opened with `#selftest`: see
  /// `script`'s documentation for what it writes on `<body>`.
  static let selfTestScript = #"""
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
