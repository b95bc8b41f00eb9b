#!/usr/bin/env python3
"""Checks `snapdiff serve`'s review page in headless Chromium, driven by Selenium, as a reviewer
would use it: the run list renders and filters; a run's page passes its self-test (images, every
view mode, the boxes over changed regions, filters); status badges keep their colours; the viewer
fits a whole 1170x2532 screen into a 1400x1000 window, keeps 2-up's zoom and pan in step, draws a
box at each region the API reports and centres it with n, and answers every key (j/k, Enter, Esc,
1-5, f, 0, +, n, t, ]); "approve all with this change" shows only for a shared change; a review
without the server's token is refused beside its button; a change group's Approve confirms with
its count and approves exactly the group; Approve (click and key a) and Reject update the cards
in place without a reload, move to the next snapshot to review, and j goes on from there; and on
disk the approved baselines are the approved frames. Screenshots of the run list, a run, a change
group and the viewer are saved at the end (--screenshots DIR; the folder is printed).

Two ways to run it:

  scripts/review_page_check.py [--snapdiff PATH] [--screenshots DIR]
      Self-contained: prepares a project in a temporary folder (five baselines and six frames
      drawn with zlib and struct: two 1170x2532 screens with one change, a 390x120 search bar
      and a 390x844 login screen changed, a settings screen equal, a profile screen new), starts
      `snapdiff serve` on a free loopback port with a token, posts the frames as a run, checks,
      stops the server.
      PATH defaults to `snapdiff` on PATH, else .build/debug/snapdiff, else .build/release/snapdiff.

  scripts/review_page_check.py --url URL --baselines DIR --run RUN [--token TOKEN]
                               [--approve KEY] [--approve-by-key KEY] [--reject KEY]
      Against a server that is already running (the Swift test ReviewPageBrowserTests starts one).
      The run needs two failed snapshots with changes of their own, a new one, and two or more
      failed ones sharing one change, the first of them a 1170x2532 screen: by default the first
      failed one in run.json is approved with a click, the first new one with the keys j…a, the
      second failed one rejected, the largest change group approved as a group. DIR is the
      server's baseline store (no --environment), read to check what the reviews wrote. With
      --token, Approve is first tried without it and must be refused.

Needs Chromium and its driver (Debian: apt-get install chromium chromium-driver) and Selenium
(pip install selenium). Exit status: 0 when every check passed; 1 when a check failed (the message
says which, and a screenshot and the page's HTML are saved); 2 when it cannot run (a tool is
missing, the server does not start).
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from serve_support import CannotRun, Server, phone_screen


class CheckFailed(Exception):
    """A check of the page did not hold: the review page (or the server) has a bug."""


def log(message):
    print(f"review_page_check: {message}", file=sys.stderr, flush=True)


# MARK: The API (frames and the server: serve_support.py)


class API:
    """The service's JSON API, with the bearer token when there is one."""

    def __init__(self, base_url, token=None):
        self.base = base_url.rstrip("/")
        self.token = token

    def request(self, method, path, body=None, content_type="application/json"):
        headers = {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if body is not None:
            headers["Content-Type"] = content_type
            if content_type == "application/json":
                body = json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                data = response.read()
        except urllib.error.HTTPError as error:
            raise CheckFailed(f"{method} {path}: HTTP {error.code}: {error.read()[:300]!r}") from None
        except OSError as error:
            raise CheckFailed(f"{method} {path}: {error}") from None
        return data

    def json(self, method, path, body=None):
        return json.loads(self.request(method, path, body))

    @staticmethod
    def snapshot_path(run, key, suffix=""):
        return f"/api/v1/runs/{urllib.parse.quote(run, safe='')}/snapshots/{urllib.parse.quote(key, safe='')}{suffix}"


def find_snapdiff(given):
    """The `snapdiff` executable: --snapdiff, else on PATH, else in this checkout's build folders."""
    if given:
        if not os.access(given, os.X_OK):
            raise CannotRun(f"--snapdiff {given}: not an executable file")
        return given
    on_path = shutil.which("snapdiff")
    if on_path:
        return on_path
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for build in ("debug", "release"):
        candidate = os.path.join(root, ".build", build, "snapdiff")
        if os.access(candidate, os.X_OK):
            return candidate
    raise CannotRun("no snapdiff found: pass --snapdiff PATH, or build it (swift build --product snapdiff)")


def prepare_run(workspace, api):
    """Five baselines and a run of six frames: two tall screens with the same change (a change
    group), a search bar (an element-sized snapshot, short, where an overflowing control would
    show) and a login screen changed (failed), a settings screen equal (passed), a profile screen
    new. Returns the run id and the snapshots to approve with a click, to approve with the keys
    and to reject."""
    bar, bar_changed = phone_screen((9, 105, 218), height=120), phone_screen((207, 34, 46), height=120, shifted=True)
    login = phone_screen((26, 127, 55))
    settings = phone_screen((130, 80, 223))
    approve, approve_by_key, reject = "Search - test_search/Search bar", "Profile - test_edit/Profile", "Login - test_login/Login"
    # Two tall phone screens (1170x2532) with one change: a change group, and the viewer's fit.
    tall, tall_changed = phone_screen((9, 105, 218), width=1170, height=2532), phone_screen((9, 105, 218), width=1170, height=2532, banner=True)
    snapshots = [
        # key, baseline (None: new), frame posted, the status the server must give it
        ("Feed - test_feed/Feed", tall, tall_changed, "failed"),
        ("Inbox - test_inbox/Inbox", tall, tall_changed, "failed"),
        (approve, bar, bar_changed, "failed"),
        (reject, login, phone_screen((26, 127, 55), banner=True), "failed"),
        ("Settings - test_theme/Settings", settings, settings, "passed"),
        (approve_by_key, None, phone_screen((191, 135, 0)), "new"),
    ]
    for key, baseline, _, _ in snapshots:
        if baseline is not None:
            path = os.path.join(workspace, "baselines", key + ".png")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(baseline)
    run = api.json("POST", "/api/v1/runs", {"name": "review-page-check", "branch": "main"})["id"]
    for key, _, frame, expected in snapshots:
        verdict = json.loads(api.request("PUT", API.snapshot_path(run, key), frame, "image/png"))
        if verdict.get("status") != expected:
            raise CheckFailed(f"posting {key}: status {verdict.get('status')!r}, expected {expected!r}")
    api.json("POST", f"/api/v1/runs/{run}/close")
    return run, (approve, approve_by_key, reject)


# MARK: The browser


def start_browser(artifacts):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise CannotRun("Selenium is not installed (pip install selenium)") from None
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise CannotRun("needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--window-size=1280,1000",
        f"--user-data-dir={os.path.join(artifacts, 'chromium-profile')}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The driver from the system, so that Selenium Manager never tries to download one.
    service = Service(executable_path=driver_path, log_output=os.path.join(artifacts, "chromedriver.log"))
    try:
        return webdriver.Chrome(options=options, service=service)
    except Exception as error:  # WebDriverException and OS errors alike: the browser did not start
        raise CannotRun(f"Chromium did not start under chromedriver: {error}") from None


class ReviewPageCheck:
    """The checks, in the order a reviewer goes: the list, a run, its view modes, the reviews."""

    def __init__(self, driver, base_url, run, baselines, token):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait

        self.By, self.Keys, self.Wait = By, Keys, WebDriverWait
        self.driver = driver
        self.base = base_url.rstrip("/")
        self.run = run
        self.baselines = baselines
        self.token = token
        self.api = API(self.base, token)
        self.passed = []

    # Helpers

    def ok(self, what):
        self.passed.append(what)
        log(f"ok: {what}")

    def expect(self, condition, message):
        if not condition:
            raise CheckFailed(message)

    def wait_for(self, what, predicate, timeout=15):
        try:
            return self.Wait(self.driver, timeout, poll_frequency=0.1).until(lambda d: predicate())
        except Exception:
            raise CheckFailed(f"timed out after {timeout} s waiting for {what}") from None

    def click(self, element):
        """A real click, with the element first scrolled to the middle of the window: the page's
        toolbar is sticky, and an element scrolled just into view can sit under it."""
        self.js("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
        element.click()

    def covering(self, element):
        """What a click at the middle of `element` would hit instead of it (scrolled to the middle
        of the window first), or None when the element itself gets the click."""
        return self.js(
            """
            var element = arguments[0];
            element.scrollIntoView({block: 'center', inline: 'nearest'});
            var box = element.getBoundingClientRect();
            var hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            if (!hit || element === hit || element.contains(hit)) return null;
            return hit.tagName.toLowerCase() + (hit.className ? '.' + String(hit.className).split(' ').join('.') : '');
            """,
            element,
        )

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def console_errors(self, allowed=()):
        """The page's console errors since the last call, less those containing an allowed text."""
        entries = self.driver.get_log("browser")
        return [
            e["message"] for e in entries if e["level"] == "SEVERE" and not any(a in e["message"] for a in allowed)
        ]

    def card(self, key):
        cards = [c for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.get_attribute("data-key") == key]
        self.expect(len(cards) == 1, f"{len(cards)} snapshot cards for {key!r} on the run page")
        return cards[0]

    def cards(self, status):
        return [
            c.get_attribute("data-key")
            for c in self.driver.find_elements(self.By.CSS_SELECTOR, f'article.snap[data-status="{status}"]')
        ]

    def baseline_bytes(self, key):
        path = os.path.join(self.baselines, key + ".png")
        if not os.path.exists(path):
            return None
        with open(path, "rb") as file:
            return file.read()

    def open_run_page(self, fragment=""):
        if fragment:
            # From the same page, a URL that differs only by its fragment would not load it again.
            self.driver.get("about:blank")
        self.driver.get(f"{self.base}/runs/{urllib.parse.quote(self.run, safe='')}{fragment}")
        self.wait_for("the run page", lambda: self.js("return document.body && document.body.dataset.run") == self.run)
        self.wait_for("the page's script", lambda: self.js("return document.readyState") == "complete")

    # The checks

    def run_list(self):
        self.driver.get(self.base + "/")
        self.wait_for("the run list", lambda: self.driver.find_elements(self.By.CSS_SELECTOR, "main.runs h1"))
        self.expect(self.driver.title == "snapdiff runs", f"run list title {self.driver.title!r}")
        rows = self.driver.find_elements(self.By.CSS_SELECTOR, "tbody tr")
        ours = [r for r in rows if r.find_element(self.By.CSS_SELECTOR, "td a code").text == self.run]
        self.expect(len(ours) == 1, f"run {self.run} appears {len(ours)} times in the run list ({len(rows)} rows)")
        row = ours[0]
        summary = self.api.json("GET", f"/api/v1/runs?limit=100")
        listed = next((r for r in summary["runs"] if r["id"] == self.run), None)
        self.expect(listed is not None, f"GET /api/v1/runs does not list {self.run}")
        cells = [td.text for td in row.find_elements(self.By.CSS_SELECTOR, "td")]
        # Run, Name, Branch, Base, Overlay, Created, State, Snapshots, To review, Verdict.
        self.expect(len(cells) == 10, f"run row has {len(cells)} cells: {cells}")
        self.expect(cells[8] == str(listed["toReview"]), f"'To review' shows {cells[8]!r}, the API says {listed['toReview']}")
        self.expect(cells[9] == listed["verdict"], f"verdict shows {cells[9]!r}, the API says {listed['verdict']!r}")
        self.ok(f"the run list shows run {self.run} ({cells[1]}, {cells[8]} to review, {cells[9]})")

        search = self.driver.find_element(self.By.CSS_SELECTOR, "input.filter")
        search.send_keys("no-such-run-zzz")
        self.expect(not row.is_displayed(), "the run stays listed when the filter matches nothing")
        search.clear()
        search.send_keys(self.run[:8])
        self.expect(row.is_displayed(), "the run is hidden by a filter on its own id")
        self.ok("the run list's filter hides and shows the run")
        self.click(row.find_element(self.By.CSS_SELECTOR, "td a"))
        self.wait_for("the run page after clicking the run", lambda: self.js("return document.body && document.body.dataset.run") == self.run)
        self.ok("clicking the run opens its page")
        errors = self.console_errors()
        self.expect(not errors, f"console errors on the run list or run page: {errors}")

    def self_test(self):
        """The report's own self-test (HTMLReport.script, `#selftest`): images, modes, controls,
        layouts and filters, every snapshot."""
        self.open_run_page("#selftest")
        self.wait_for("the page's self-test", lambda: self.js("return document.body.dataset.selftest") == "done")
        data = self.js("return Object.assign({}, document.body.dataset)")
        self.expect(int(data["imagesTotal"]) > 0, "the run page shows no images")
        self.expect(
            data["imagesLoaded"] == data["imagesTotal"],
            f"{data['imagesLoaded']} of {data['imagesTotal']} images loaded; broken: {data['imagesBroken']}",
        )
        self.expect(int(data["boxesChecked"]) > 0, "the self-test checked no boxes")
        for field in ("modesFailures", "controlsFailures", "layoutFailures", "boxFailures"):
            self.expect(data[field] == "", f"self-test {field}: {data[field]}")
        self.expect(data["statusFilter"] == "ok", f"self-test status filter: {data['statusFilter']}")
        self.ok(
            f"self-test: {data['imagesLoaded']} images loaded, {data['modesSwitched']} mode switches and"
            f" {data['controlsChecked']} control checks all visible"
        )

    def open_viewer(self, key):
        """Opens `key` in the viewer with a click on its thumbnail; waits for its images."""
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".thumb"))
        self.wait_for(f"the viewer on {key}", lambda: self.js(
            "var f = document.querySelector('.focus'); return !f.hidden && window.snapdiffReport.current().dataset.key === arguments[0]", key))
        self.wait_for(f"the images of {key}", lambda: self.js(
            "return Array.prototype.every.call(document.querySelectorAll('.focus .layer:not(.empty) img'),"
            " function (i) { return i.complete && i.naturalWidth > 0; })"))
        return self.driver.find_element(self.By.CSS_SELECTOR, ".focus")

    def shown_layers(self):
        """The viewer's shown image layers: pane, kind and the image's box on the screen."""
        return self.js(
            """
            var out = [];
            document.querySelectorAll(".focus .pane").forEach(function (pane, index) {
              if (pane.offsetParent === null) return;
              pane.querySelectorAll(".layer").forEach(function (layer) {
                var style = getComputedStyle(layer);
                if (style.display === "none" || style.visibility === "hidden" || layer.classList.contains("empty")) return;
                var kind = ["base", "top", "diff"].filter(function (k) { return layer.classList.contains(k); })[0];
                var img = layer.querySelector("img"), box = img.getBoundingClientRect(), p = pane.getBoundingClientRect();
                out.push({pane: index, kind: kind, left: box.left, top: box.top, width: box.width, height: box.height,
                  right: box.right, bottom: box.bottom, natural: [img.naturalWidth, img.naturalHeight],
                  paneBox: [p.left, p.top, p.right, p.bottom], opacity: style.opacity, clip: style.clipPath});
              });
            });
            return out;
            """
        )

    def viewer(self, key, tall, unique, screenshot_dir):
        """The viewer: opens on a click, fits a tall screen whole into a 1400x1000 window, switches
        modes (buttons and keys 1-5), keeps 2-up's zoom and pan in step, draws a box at each
        reported region and jumps to it with n, offers "same change" only for a shared change."""
        from selenium.webdriver.common.action_chains import ActionChains

        self.driver.set_window_size(1400, 1000)
        self.open_run_page()
        self.js("window.__noReload = true")
        focus = self.open_viewer(tall)
        self.expect(focus.get_attribute("data-mode") == "2up", f"the viewer opens in {focus.get_attribute('data-mode')}, not 2-up")
        layers = self.shown_layers()
        self.expect([l["kind"] for l in layers] == ["base", "top"], f"2-up shows {[(l['pane'], l['kind']) for l in layers]}")
        size = layers[0]["natural"]
        self.expect(size == [1170, 2532], f"{tall} is {size[0]}x{size[1]}, the check needs a 1170x2532 screen")
        inner = self.js("return [window.innerWidth, window.innerHeight]")
        for layer in layers:
            p = layer["paneBox"]
            self.expect(
                layer["left"] >= p[0] - 1 and layer["top"] >= p[1] - 1 and layer["right"] <= p[2] + 1 and layer["bottom"] <= p[3] + 1
                and layer["bottom"] <= inner[1] and layer["right"] <= inner[0],
                f"fitted, the {layer['kind']} image ({layer['left']:.0f},{layer['top']:.0f})-({layer['right']:.0f},{layer['bottom']:.0f})"
                f" is not inside its pane {p} and the {inner} window",
            )
            self.expect(layer["height"] > 0.6 * (p[3] - p[1]), f"fitted, the image is {layer['height']:.0f} px high in a pane of {p[3] - p[1]:.0f}")
        self.ok(f"fit: the whole {size[0]}x{size[1]} screen shows in a {inner[0]}x{inner[1]} window, both panes"
                f" ({layers[0]['width']:.0f}x{layers[0]['height']:.0f} px each)")

        # Boxes where the API says the changes are.
        verdict = self.api.json("GET", API.snapshot_path(self.run, tall))
        regions = verdict["regions"]
        self.expect(regions, f"{tall} has no regions in its verdict")
        boxes = self.js(
            """
            var pane = document.querySelector('.focus .pane-a'), img = pane.querySelector('.layer.base img').getBoundingClientRect();
            var scale = img.width / pane.querySelector('.layer.base img').naturalWidth;
            return Array.prototype.map.call(pane.querySelectorAll('.box'), function (b) {
              var r = b.getBoundingClientRect(), style = getComputedStyle(b);
              return [(r.left - img.left) / scale, (r.top - img.top) / scale, r.width / scale, r.height / scale, style.outlineStyle];
            });
            """
        )
        self.expect(len(boxes) == len(regions), f"{len(boxes)} boxes for {len(regions)} regions")
        for box, region in zip(boxes, regions):
            wanted = [region["x"], region["y"], region["width"], region["height"]]
            self.expect(all(abs(a - b) <= 1.5 for a, b in zip(box[:4], wanted)) and box[4] == "solid",
                        f"a box is drawn at {[round(v, 1) for v in box[:4]]}, the region is {wanted}")
        self.ok(f"boxes: {len(boxes)} drawn at the reported coordinates ({regions[0]})")
        if screenshot_dir:
            self.driver.save_screenshot(os.path.join(screenshot_dir, "review-viewer.png"))

        # Keys in the viewer: n centres the next change, 0 is 1:1, + zooms, f fits, 1-5 modes.
        body = self.driver.find_element(self.By.TAG_NAME, "body")
        body.send_keys("n")
        state = self.js("return window.snapdiffReport.view()")
        self.expect(state["change"] == 0 and not state["fit"], f"n: {state}")
        current_box = self.js(
            "var b = document.querySelector('.focus .pane-a .box.current'); if (!b) return null; var r = b.getBoundingClientRect(),"
            " p = b.closest('.pane').getBoundingClientRect(); return [r.left + r.width / 2 - p.left - p.width / 2, r.top + r.height / 2 - p.top - p.height / 2]")
        self.expect(current_box and abs(current_box[0]) < 3 and abs(current_box[1]) < 3, f"n does not centre the change: offset {current_box}")
        # 2-up in step: both panes show the same part at the same scale.
        layers = self.shown_layers()
        self.expect(abs(layers[0]["width"] - layers[1]["width"]) < 0.5 and abs((layers[0]["left"] - layers[0]["paneBox"][0]) - (layers[1]["left"] - layers[1]["paneBox"][0])) < 0.5
                    and abs(layers[0]["top"] - layers[1]["top"]) < 0.5, f"2-up panes out of step after n: {layers}")
        pane = self.driver.find_element(self.By.CSS_SELECTOR, ".focus .pane-b")
        ActionChains(self.driver).move_to_element(pane).click_and_hold().move_by_offset(-60, -40).release().perform()
        layers = self.shown_layers()
        self.expect(abs((layers[0]["left"] - layers[0]["paneBox"][0]) - (layers[1]["left"] - layers[1]["paneBox"][0])) < 0.5
                    and abs(layers[0]["top"] - layers[1]["top"]) < 0.5, f"dragging one pane does not pan the other: {layers}")
        body.send_keys("0")
        self.expect(abs(self.js("return window.snapdiffReport.view().zoom") - 1) < 1e-6, "0 does not show actual pixels")
        body.send_keys("+")
        self.expect(self.js("return window.snapdiffReport.view().zoom") > 1.2, "+ does not zoom in")
        body.send_keys("f")
        self.expect(self.js("return window.snapdiffReport.view().fit"), "f does not fit")
        self.ok("keys in the viewer: n centres the change, drag pans both panes of 2-up, 0, + and f zoom")

        for number, mode in enumerate(["2up", "slider", "blend", "toggle", "diff"], start=1):
            body.send_keys(str(number))
            self.expect(focus.get_attribute("data-mode") == mode, f"key {number} leaves the viewer in {focus.get_attribute('data-mode')}")
            shown = sorted(l["kind"] for l in self.shown_layers())
            self.expect(shown == (["diff"] if mode == "diff" else ["base", "top"]), f"{mode} shows {shown}")
            if mode in ("slider", "blend", "toggle", "diff"):
                layer = self.shown_layers()[0]
                p = layer["paneBox"]
                self.expect(layer["bottom"] <= p[3] + 1 and layer["top"] >= p[1] - 1, f"{mode}: the fitted image overflows its pane")
            if mode == "slider":
                before = [l for l in self.shown_layers() if l["kind"] == "top"][0]["clip"]
                body.send_keys("]")
                after = [l for l in self.shown_layers() if l["kind"] == "top"][0]["clip"]
                self.expect(before != after and "inset" in after, f"] does not move the divider: {before} -> {after}")
            if mode == "blend":
                control = self.driver.find_element(self.By.CSS_SELECTOR, ".focus input.blend")
                control.send_keys(self.Keys.HOME)
                self.expect([l for l in self.shown_layers() if l["kind"] == "top"][0]["opacity"] == "0", "blend at 0 still shows the current frame")
                control.send_keys(self.Keys.END)
                self.expect([l for l in self.shown_layers() if l["kind"] == "top"][0]["opacity"] == "1", "blend at its end does not show the current frame")
                body.send_keys("5")
                body.send_keys("4")
            if mode == "toggle":
                self.click(self.driver.find_element(self.By.CSS_SELECTOR, ".focus .pane-a"))
                self.expect(not any(l["kind"] == "top" for l in self.shown_layers()), "a click in toggle mode does not hide the current frame")
                body.send_keys("t")
                self.expect(any(l["kind"] == "top" for l in self.shown_layers()), "t does not flip back")
        self.ok("keys 1-5 switch the viewer's modes; slider (]), blend and toggle (click, t) act on the fitted image")

        same = self.driver.find_elements(self.By.CSS_SELECTOR, ".focus-actions button.same")
        count = self.js("return document.querySelector('.change-group') ? Number(document.querySelector('.change-group').dataset.count) : 0")
        self.expect(len(same) == 1 and f"all {count} " in same[0].text, f"the viewer of a shared change offers {[b.text for b in same]}")
        same_label = same[0].text
        body.send_keys(self.Keys.ESCAPE)
        self.expect(not focus.is_displayed(), "Esc does not close the viewer")
        self.open_viewer(unique)
        self.expect(not self.driver.find_elements(self.By.CSS_SELECTOR, ".focus-actions button.same"),
                    f"{unique}'s change is its own, yet the viewer offers 'same change'")
        body.send_keys(self.Keys.ESCAPE)
        self.ok(f"'approve all with this change' shows for a shared change ({same_label!r}), not for {unique}")

        # The list's keys: j/k move, Enter opens, Esc back; 1-5 choose the mode it opens in.
        shown = [c for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.is_displayed()]
        self.js("window.snapdiffReport.select(null)")
        for key_name, order in (("j", shown), ("k", list(reversed(shown))[1:])):
            for card in order:
                body.send_keys(key_name)
                self.expect("current-snap" in card.get_attribute("class"), f"{key_name} does not make {card.get_attribute('data-key')} current")
                self.expect(self.js("return document.activeElement === arguments[0]", card), f"{key_name}: the focus is not on the current card")
                toolbar_bottom, top = self.js(
                    "return [document.querySelector('.toolbar').getBoundingClientRect().bottom, arguments[0].getBoundingClientRect().top]", card)
                self.expect(top >= toolbar_bottom - 1, f"after {key_name}, {card.get_attribute('data-key')} is under the sticky toolbar")
        body.send_keys("3")
        body.send_keys(self.Keys.ENTER)
        self.expect(focus.is_displayed() and focus.get_attribute("data-mode") == "blend", f"3 then Enter: the viewer is in {focus.get_attribute('data-mode')}")
        body.send_keys("1")
        body.send_keys(self.Keys.ESCAPE)
        self.expect(self.js("return window.__noReload === true"), "the page reloaded")
        self.ok(f"keys in the list: j and k move through {len(shown)} cards (focus follows, below the toolbar), 3 + Enter opens the viewer in blend")
        errors = self.console_errors()
        self.expect(not errors, f"console errors in the viewer: {errors}")

    def wait_for_review(self, what, action):
        """The page's answer to a review, without a reload: `data-reviewed` and the toast."""
        self.wait_for(f"the page to confirm: {what}", lambda: self.js("return document.body.dataset.reviewed || ''") == action)
        self.expect(self.js("return window.__noReload === true"), f"the page reloaded after {what}")
        message = self.driver.find_element(self.By.CSS_SELECTOR, ".review-message").text
        count = int(self.js("return document.body.dataset.reviewedCount"))
        self.js("delete document.body.dataset.reviewed")
        return message, count

    def open_for_review(self):
        self.open_run_page()
        self.js("window.__noReload = true")

    def approve_refused_without_token(self, key):
        """With a token on the server and none in the page, Approve says why, beside the button,
        and the baseline stays."""
        self.open_for_review()
        self.js("localStorage.removeItem('snapdiff-token')")
        before = self.baseline_bytes(key)
        row = self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions")
        self.click(row.find_element(self.By.CSS_SELECTOR, "button.approve"))
        self.wait_for("the refusal beside the button", lambda: row.find_elements(self.By.CSS_SELECTOR, ".action-error"))
        error = row.find_element(self.By.CSS_SELECTOR, ".action-error")
        self.expect(error.text.startswith("Not done") and error.is_displayed(), f"the refusal says {error.text!r}")
        button = row.find_element(self.By.CSS_SELECTOR, "button.approve").rect
        box = error.rect
        self.expect(abs(box["y"] - button["y"]) < 120, f"the error is {abs(box['y'] - button['y']):.0f} px from its button")
        self.expect(self.js("return document.activeElement === arguments[0]", row.find_element(self.By.CSS_SELECTOR, "button.approve")),
                    "the focus left the button that was refused")
        self.expect(self.baseline_bytes(key) == before, "the baseline changed although the approval was refused")
        self.expect(self.card(key).get_attribute("data-status") == "failed", "the snapshot is no longer failed after a refusal")
        buttons = row.find_elements(self.By.CSS_SELECTOR, "button")
        self.expect(all(b.is_enabled() for b in buttons), "the review buttons stay disabled after a refusal")
        errors = self.console_errors(allowed=("401",))  # the refused request itself is logged
        self.expect(not errors, f"console errors besides the refused request: {errors}")
        self.ok(f"without the token, Approve is refused beside the button: {error.text!r}")

    def enter_token(self):
        field = self.driver.find_element(self.By.CSS_SELECTOR, ".serve-bar .token input")
        field.clear()
        field.send_keys(self.token, self.Keys.TAB)  # the change event stores it
        stored = self.js("return localStorage.getItem('snapdiff-token')")
        self.expect(stored == self.token, "the token field does not keep the token")
        self.ok("the token field keeps the token")

    def statuses(self):
        record = self.api.json("GET", f"/api/v1/runs/{urllib.parse.quote(self.run, safe='')}")
        return {s["key"]: s["status"] for s in record["snapshots"]}

    def group_approve(self, members, screenshot_dir):
        """The change group's Approve: the confirmation names the count, exactly the group's
        snapshots are approved, the page says how many."""
        self.open_for_review()
        before = self.statuses()
        group = self.driver.find_element(self.By.CSS_SELECTOR, ".change-group")
        keys = [c.get_attribute("data-key") for c in group.find_elements(self.By.CSS_SELECTOR, "article.snap")]
        self.expect(sorted(keys) == sorted(members), f"the change group shows {keys}, run.json's group is {members}")
        heading = group.find_element(self.By.CSS_SELECTOR, ".group-head h3").text
        self.expect(heading.startswith(f"{len(members)} snapshots"), f"the group's heading says {heading!r}")
        summary = self.driver.find_element(self.By.CSS_SELECTOR, ".changes-summary").text
        self.expect("groups of changes" in summary or "group of changes" in summary, f"the run page opens on {summary!r}")
        if screenshot_dir:
            self.js("window.scrollTo(0, 0)")  # the page as it opens: the summary, then the group
            self.driver.save_screenshot(os.path.join(screenshot_dir, "review-group.png"))
        button = group.find_element(self.By.CSS_SELECTOR, ".group-actions button.approve")
        self.expect(button.text == f"Approve these {len(members)}", f"the group's button says {button.text!r}")
        self.click(button)
        alert = self.Wait(self.driver, 5).until(lambda d: d.switch_to.alert)
        text = alert.text
        self.expect(f"Approve all {len(members)} snapshots" in text, f"the confirmation says {text!r}")
        alert.accept()
        message, count = self.wait_for_review("the group approval", "approved")
        self.expect(count == len(members) and message.startswith(f"approved {len(members)} snapshots"), f"after the group: {message!r} ({count})")
        after = self.statuses()
        changed = sorted(k for k in after if after[k] != before[k])
        self.expect(changed == sorted(members) and all(after[k] == "approved" for k in members),
                    f"the group approval changed {changed}, the group is {members}")
        for key in members:
            self.expect(self.card(key).get_attribute("data-status") == "approved", f"{key} is not shown approved")
        self.expect(not group.find_elements(self.By.CSS_SELECTOR, ".group-actions button"), "the approved group still has its buttons")
        self.ok(f"group approve: the confirmation names {len(members)}, exactly those {len(members)} were approved ({message!r})")

    def approve_by_click(self, key):
        self.open_for_review()
        current = self.api.request("GET", API.snapshot_path(self.run, key, "/current.png"))
        before = self.baseline_bytes(key)
        self.expect(before != current, f"the baseline of {key} already equals its current frame")
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.approve"))
        message, count = self.wait_for_review(f"approve {key}", "approved")
        self.expect(message.startswith("approved 1 snapshot") and key in message, f"approval message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "approved", f"{key} is not shown approved")
        self.expect(not self.card(key).find_elements(self.By.CSS_SELECTOR, ".review-actions"), "an approved snapshot still has review buttons")
        nxt = self.js("var c = window.snapdiffReport.current(); return c && c.dataset.key")
        self.expect(nxt and nxt != key and self.js("return document.activeElement === window.snapdiffReport.current()"),
                    f"after approving, the current card is {nxt!r} (focus on it: {self.js('return document.activeElement.tagName')})")
        self.expect(self.api.json("GET", API.snapshot_path(self.run, nxt))["status"] in ("failed", "new", "missing", "rejected"),
                    f"after approving, {nxt} became current although it has nothing to review")
        after = self.baseline_bytes(key)
        self.expect(after == current, f"baselines/{key}.png is not the approved frame ({len(after or b'')} bytes, frame {len(current)})")
        self.ok(f"Approve (click) updated the card in place, moved to {nxt!r}, wrote baselines/{key}.png ({len(current)} bytes)")
        self.undo_approval(key, before, current)

    def undo_approval(self, key, before, current):
        """The toast's Undo puts the replaced baseline back (bytes as before) and the card back to
        failed, without a reload; approving again then works as the first time."""
        self.click(self.driver.find_element(self.By.CSS_SELECTOR, ".review-message button.undo"))
        message, count = self.wait_for_review(f"undo the approval of {key}", "undone")
        self.expect(count == 1 and message.startswith("undid the approval of 1 snapshot") and key in message,
                    f"undo message: {message!r}")
        self.expect(self.baseline_bytes(key) == before, f"after Undo, baselines/{key}.png is not the baseline it replaced")
        self.expect(self.card(key).get_attribute("data-status") == "failed", f"after Undo, {key} is not shown failed")
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.approve"))
        self.wait_for_review(f"approve {key} again", "approved")
        self.expect(self.baseline_bytes(key) == current, f"approving {key} again did not write its frame")
        self.ok(f"Undo put back baselines/{key}.png ({len(before or b'')} bytes) and the card's status; approved again")

    def approve_by_keyboard(self, key):
        """j until `key` is the current snapshot, a, then j moves on from the next unreviewed one."""
        self.open_for_review()
        current = self.api.request("GET", API.snapshot_path(self.run, key, "/current.png"))
        self.expect(self.baseline_bytes(key) is None, f"{key} already has a baseline")
        order = [c.get_attribute("data-key") for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.is_displayed()]
        self.expect(key in order, f"{key} is not shown on the run page")
        body = self.driver.find_element(self.By.TAG_NAME, "body")
        for _ in range(order.index(key) + 1):
            body.send_keys("j")
        self.expect("current-snap" in self.card(key).get_attribute("class"), f"j did not reach {key}")
        reviewable = [k for k in order if self.card(k).find_elements(self.By.CSS_SELECTOR, ".review-actions") and k != key]
        self.driver.switch_to.active_element.send_keys("a")
        message, count = self.wait_for_review(f"approve {key} with the key a", "approved")
        self.expect(message.startswith("approved 1 snapshot") and key in message, f"approval message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "approved", f"{key} is not shown approved")
        nxt = self.js("return window.snapdiffReport.current().dataset.key")
        after_key = [k for k in order[order.index(key) + 1:] + order[:order.index(key)] if k in reviewable]
        self.expect(after_key and nxt == after_key[0], f"after a, the current card is {nxt!r}, the next unreviewed is {after_key[:1]}")
        # The approved card has moved to the approved section: j goes on in the page's order now.
        order = [c.get_attribute("data-key") for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.is_displayed()]
        self.driver.switch_to.active_element.send_keys("j")
        moved = self.js("return window.snapdiffReport.current().dataset.key")
        self.expect(moved == order[(order.index(nxt) + 1) % len(order)] or (order.index(nxt) == len(order) - 1 and moved == nxt),
                    f"j after the approval went to {moved!r}, not the card after {nxt!r}")
        self.expect(self.js("return window.__noReload === true"), "the page reloaded")
        self.expect(self.baseline_bytes(key) == current, f"baselines/{key}.png is not the approved new frame")
        self.ok(f"j … a approved the new snapshot in place; the current card became {nxt!r}, then j went to {moved!r}")

    def reject_by_click(self, key):
        self.open_for_review()
        before = self.baseline_bytes(key)
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.reject"))
        message, count = self.wait_for_review(f"reject {key}", "rejected")
        self.expect(message.startswith("rejected 1 snapshot"), f"rejection message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "rejected", f"{key} is not shown rejected")
        self.expect(self.baseline_bytes(key) == before, f"rejecting changed baselines/{key}.png")
        rejected = os.path.join(self.baselines, key + ".rejected.json")
        self.expect(os.path.exists(rejected), f"rejecting wrote no {rejected}")
        self.ok(f"Reject kept the baseline of {key} and recorded the change")

    def badges(self):
        """Status badges keep their status colour on the service page."""
        self.open_run_page()
        colours = self.js(
            "var out = {}; document.querySelectorAll('.snap-head .badge').forEach(function (b) {"
            " out[b.textContent] = getComputedStyle(b).backgroundColor; }); return out")
        self.expect(len(set(colours.values())) == len(colours) and len(colours) >= 3, f"badge colours: {colours}")
        self.ok(f"status badges have their own colours: {colours}")

    def final_state(self, approved, rejected, screenshot_dir):
        statuses = self.statuses()
        for key in approved:
            self.expect(statuses.get(key) == "approved", f"run.json: {key} is {statuses.get(key)!r}, not approved")
        for key in rejected:
            self.expect(statuses.get(key) == "rejected", f"run.json: {key} is {statuses.get(key)!r}, not rejected")
        errors = self.console_errors()
        self.expect(not errors, f"console errors during the reviews: {errors}")
        self.ok("run.json records the reviews made on the page")
        if screenshot_dir:
            self.driver.get(self.base + "/")
            self.driver.save_screenshot(os.path.join(screenshot_dir, "review-runs.png"))
            self.open_run_page()
            self.driver.save_screenshot(os.path.join(screenshot_dir, "review-run.png"))


def choose_snapshots(base_url, run, token, approve, approve_by_key, reject):
    """The snapshots to review: as given, else the run's first failed one with a change of its own
    (approved by a click), its first new one (approved with the keys j…a) and another failed one
    (rejected); and the largest change group (two or more failed snapshots with one changeHash,
    approved as a group; its first member is the tall screen the viewer is checked on)."""
    record = API(base_url, token).json("GET", f"/api/v1/runs/{urllib.parse.quote(run, safe='')}")
    by_status, by_change = {}, {}
    for snapshot in record["snapshots"]:
        by_status.setdefault(snapshot["status"], []).append(snapshot["key"])
        if snapshot["status"] == "failed" and snapshot.get("changeHash") and not snapshot.get("error"):
            by_change.setdefault(snapshot["changeHash"], []).append(snapshot["key"])
    groups = sorted((keys for keys in by_change.values() if len(keys) > 1), key=len, reverse=True)
    group = groups[0] if groups else []
    failed = [k for k in by_status.get("failed", []) if k not in group]
    new = by_status.get("new", [])
    approve = approve or (failed[0] if failed else None)
    approve_by_key = approve_by_key or (new[0] if new else None)
    reject = reject or next((k for k in failed if k != approve), None)
    if approve not in failed or reject not in failed or approve == reject or approve_by_key not in new or not group:
        raise CannotRun(
            f"run {run} needs two failed snapshots with changes of their own (to approve and to reject), a new one"
            f" (to approve) and two or more failed ones sharing one change (a group); chosen: {approve!r}, {reject!r},"
            f" {approve_by_key!r}, group {group}; the run has {json.dumps(by_status)}"
        )
    return approve, approve_by_key, reject, group


def run_checks(base_url, run, baselines, token, artifacts, screenshot, chosen=(None, None, None)):
    """All the checks against a running server; raises CheckFailed on the first that fails.
    Screenshots of the run list, a run, a change group and the viewer go to `screenshot` (a
    folder), else to `artifacts`."""
    approve, approve_by_key, reject, group = choose_snapshots(base_url, run, token, *chosen)
    shots = screenshot or os.path.join(artifacts, "screenshots")
    os.makedirs(shots, exist_ok=True)

    driver = start_browser(artifacts)
    check = ReviewPageCheck(driver, base_url, run, baselines, token)
    steps = [
        ("the run list", check.run_list),
        ("the page's self-test", check.self_test),
        ("status badges", check.badges),
        (f"the viewer on {group[0]}", lambda: check.viewer(approve, group[0], approve, shots)),
    ]
    if token:
        steps += [
            ("Approve without the token", lambda: check.approve_refused_without_token(approve)),
            ("the token field", check.enter_token),
        ]
    steps += [
        (f"approve the group {group}", lambda: check.group_approve(group, shots)),
        (f"Approve {approve} with a click", lambda: check.approve_by_click(approve)),
        (f"approve {approve_by_key} with j…a", lambda: check.approve_by_keyboard(approve_by_key)),
        (f"Reject {reject}", lambda: check.reject_by_click(reject)),
        ("run.json after the reviews", lambda: check.final_state([approve, approve_by_key] + group, [reject], shots)),
    ]
    try:
        for name, step in steps:
            try:
                step()
            except CheckFailed as error:
                raise CheckFailed(f"{name}: {error}") from None
            except Exception as error:  # Selenium's: an element missing, not clickable, stale…
                first_line = (getattr(error, "msg", None) or str(error)).strip().splitlines()[0]
                raise CheckFailed(f"{name}: {type(error).__name__}: {first_line}") from None
    except Exception:
        # Whatever went wrong, keep what the browser showed.
        try:
            driver.save_screenshot(os.path.join(artifacts, "failure.png"))
            with open(os.path.join(artifacts, "failure.html"), "w") as file:
                file.write(driver.page_source)
            log(f"the page at the failure: {artifacts}/failure.png and failure.html")
        except Exception as error:
            log(f"(could not save the page: {error})")
        raise
    finally:
        driver.quit()
    print(f"screenshots: {shots}", flush=True)
    return check.passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapdiff", help="the snapdiff executable to start (self-contained mode)")
    parser.add_argument("--url", help="a running server's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--baselines", help="with --url: the server's baseline store")
    parser.add_argument("--run", help="with --url: the run to review (2+ failed, 1+ new)")
    parser.add_argument("--token", help="with --url: the server's token, if it has one")
    parser.add_argument("--approve", metavar="KEY", help="with --url: the failed snapshot to approve with a click")
    parser.add_argument("--approve-by-key", metavar="KEY", help="with --url: the new snapshot to approve with j…a")
    parser.add_argument("--reject", metavar="KEY", help="with --url: the failed snapshot to reject")
    parser.add_argument("--artifacts", help="keep the browser's profile, logs and failure screenshots here")
    parser.add_argument("--screenshots", dest="screenshot", metavar="DIR",
                        help="save screenshots (run list, run, a change group, the viewer) here; default: <artifacts>/screenshots")
    parser.add_argument("--timeout", type=float, default=180, help="give up after this many seconds (default 180)")
    arguments = parser.parse_args()

    def time_out(signum, frame):
        raise CheckFailed(f"the whole check took more than {arguments.timeout:g} s")

    signal.signal(signal.SIGALRM, time_out)
    signal.setitimer(signal.ITIMER_REAL, arguments.timeout)
    scratch = tempfile.mkdtemp(prefix="snapdiff-review-page-")
    if not arguments.screenshot:
        # Kept after the check (CI keeps the folder printed at the end as an artifact).
        arguments.screenshot = tempfile.mkdtemp(prefix="snapdiff-review-screenshots-")
    artifacts = arguments.artifacts or scratch
    os.makedirs(artifacts, exist_ok=True)
    server = None
    succeeded = False
    started = time.monotonic()
    try:
        if arguments.url:
            if not arguments.baselines or not arguments.run:
                raise CannotRun("--url needs --baselines and --run")
            chosen = (arguments.approve, arguments.approve_by_key, arguments.reject)
            passed = run_checks(
                arguments.url, arguments.run, arguments.baselines, arguments.token, artifacts, arguments.screenshot, chosen
            )
        else:
            executable = find_snapdiff(arguments.snapdiff)
            token = "review-page-check-" + os.urandom(8).hex()
            os.makedirs(os.path.join(scratch, "baselines"))
            server = Server(executable, scratch, token)
            log(f"snapdiff serve at {server.url} in {scratch}")
            run, chosen = prepare_run(scratch, API(server.url, token))
            passed = run_checks(
                server.url, run, os.path.join(scratch, "baselines"), token, artifacts, arguments.screenshot, chosen
            )
        succeeded = True
    except CannotRun as error:
        log(f"cannot run: {error}")
        return 2
    except CheckFailed as error:
        log(f"FAIL: {error}")
        if server:
            log(f"server log:\n{server.errors()}")
        return 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if server:
            server.stop()
        if succeeded and not arguments.artifacts:
            shutil.rmtree(scratch, ignore_errors=True)
        elif not succeeded:
            log(f"kept for a look: {scratch}")
    print(f"review page: {len(passed)} checks passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
