#!/usr/bin/env python3
"""Checks `snapdiff serve`'s review page in headless Chromium, driven by Selenium, as a reviewer
would use it: the run list renders and filters, a run's page loads its images, every view mode of
a snapshot switches (and its slider, blend and toggle controls act), the keyboard works, a review
without the server's token is refused on the page, and clicking Approve changes the baseline on
disk to the approved frame.

Two ways to run it:

  scripts/review_page_check.py [--snapdiff PATH]
      Self-contained: prepares a project in a temporary folder (three baselines and four frames
      drawn with zlib and struct: a 390x120 search bar and a 390x844 login screen changed, a
      settings screen equal, a profile screen new), starts `snapdiff serve` on a free loopback
      port with a token, posts the frames as a run, checks, stops the server.
      PATH defaults to `snapdiff` on PATH, else .build/debug/snapdiff, else .build/release/snapdiff.

  scripts/review_page_check.py --url URL --baselines DIR --run RUN [--token TOKEN]
                               [--approve KEY] [--approve-by-key KEY] [--reject KEY]
      Against a server that is already running (the Swift test ReviewPageBrowserTests starts one).
      The run needs two failed snapshots and a new one: by default the first failed one in
      run.json is approved with a click, the first new one with the keys j…a, the second failed
      one rejected. DIR is the server's baseline store (no --environment), read to check what the
      reviews wrote. With --token, Approve is first tried without it and must be refused.

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
    """Three baselines and a run of four frames: a search bar (an element-sized snapshot, short,
    where an overflowing control would show) and a login screen changed (failed), a settings
    screen equal (passed), a profile screen new. Returns the run id and the snapshots to approve
    with a click, to approve with the keys and to reject."""
    bar, bar_changed = phone_screen((9, 105, 218), height=120), phone_screen((207, 34, 46), height=120, shifted=True)
    login = phone_screen((26, 127, 55))
    settings = phone_screen((130, 80, 223))
    approve, approve_by_key, reject = "Search - test_search/Search bar", "Profile - test_edit/Profile", "Login - test_login/Login"
    snapshots = [
        # key, baseline (None: new), frame posted, the status the server must give it
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
        self.expect(len(cells) == 8, f"run row has {len(cells)} cells: {cells}")
        self.expect(cells[6] == str(listed["toReview"]), f"'To review' shows {cells[6]!r}, the API says {listed['toReview']}")
        self.expect(cells[7] == listed["verdict"], f"verdict shows {cells[7]!r}, the API says {listed['verdict']!r}")
        self.ok(f"the run list shows run {self.run} ({cells[1]}, {cells[6]} to review, {cells[7]})")

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
        for field in ("modesFailures", "controlsFailures", "layoutFailures"):
            self.expect(data[field] == "", f"self-test {field}: {data[field]}")
        self.expect(data["statusFilter"] == "ok", f"self-test status filter: {data['statusFilter']}")
        self.ok(
            f"self-test: {data['imagesLoaded']} images loaded, {data['modesSwitched']} mode switches and"
            f" {data['controlsChecked']} control checks all visible"
        )

    def layers(self, card):
        """Each image layer's computed visibility and box, by kind (base, top, diff)."""
        return self.js(
            """
            var out = {};
            arguments[0].querySelectorAll(".viewer .layer").forEach(function (layer) {
              var kind = ["base", "top", "diff"].filter(function (k) { return layer.classList.contains(k); })[0];
              var style = getComputedStyle(layer), box = layer.getBoundingClientRect();
              out[kind] = { shown: style.display !== "none" && style.visibility !== "hidden",
                left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width),
                opacity: style.opacity, clip: style.clipPath };
            });
            return out;
            """,
            card,
        )

    def view_modes(self, key, screenshot):
        """Clicks each view mode of `key` and checks what shows, then the slider, blend and toggle
        controls with real pointer input."""
        from selenium.webdriver.common.action_chains import ActionChains

        self.open_run_page()
        card = self.card(key)
        self.js("arguments[0].scrollIntoView({block: 'start'})", card)
        viewer = card.find_element(self.By.CSS_SELECTOR, ".viewer")
        buttons = {b.get_attribute("data-mode"): b for b in viewer.find_elements(self.By.CSS_SELECTOR, ".modes button")}
        self.expect(list(buttons) == ["2up", "slider", "blend", "toggle", "diff"], f"view modes of {key}: {list(buttons)}")
        self.expect(viewer.get_attribute("data-mode") == "2up", f"{key} opens in {viewer.get_attribute('data-mode')}, not 2-up")
        self.wait_for(
            f"the images of {key}",
            lambda: self.js(
                "return Array.prototype.every.call(arguments[0].querySelectorAll('img'),"
                " function (i) { return i.complete && i.naturalWidth > 0; })",
                viewer,
            ),
        )
        for mode in ["slider", "blend", "toggle", "diff", "2up"]:
            self.click(buttons[mode])
            self.expect(viewer.get_attribute("data-mode") == mode, f"clicking {mode} left the viewer in {viewer.get_attribute('data-mode')}")
            pressed = [m for m, b in buttons.items() if b.get_attribute("aria-pressed") == "true"]
            self.expect(pressed == [mode], f"after clicking {mode} the pressed buttons are {pressed}")
            # Every button of the snapshot can still be clicked: nothing of this mode lies over them.
            for button in card.find_elements(self.By.CSS_SELECTOR, ".modes button, .review-actions button"):
                cover = self.covering(button)
                self.expect(cover is None, f"in {mode} mode, the {button.text!r} button is covered by {cover}")
            layers = self.layers(card)
            shown = sorted(k for k, v in layers.items() if v["shown"])
            if mode == "diff":
                self.expect(shown == ["diff"], f"diff mode shows {shown}")
            else:
                self.expect(shown == ["base", "top"], f"{mode} mode shows {shown}")
            if mode == "2up":
                self.expect(layers["top"]["left"] >= layers["base"]["left"] + layers["base"]["width"], f"2-up is not side by side: {layers}")
            elif mode != "diff":
                self.expect(layers["top"]["left"] == layers["base"]["left"], f"{mode} does not stack the images: {layers}")
            if mode == "slider":
                before = layers["top"]["clip"]
                stage = viewer.find_element(self.By.CSS_SELECTOR, ".stage")
                self.js("arguments[0].scrollIntoView({block: 'center'})", stage)
                # Pointer input on the range input that covers the stage: a quarter of the way in.
                ActionChains(self.driver).move_to_element_with_offset(stage, -stage.size["width"] // 4, 0).click().perform()
                after = self.layers(card)["top"]["clip"]
                self.expect(after != before and "inset" in after, f"the slider did not move the divider: {before!r} -> {after!r}")
                self.ok(f"slider: clicking the image moves the divider ({before} -> {after})")
            if mode == "blend":
                blend = viewer.find_element(self.By.CSS_SELECTOR, "input.blend")
                blend.send_keys(self.Keys.HOME)
                opacity = self.layers(card)["top"]["opacity"]
                self.expect(opacity == "0", f"blend at its start leaves the current frame's opacity at {opacity}")
                blend.send_keys(self.Keys.END)
                opacity = self.layers(card)["top"]["opacity"]
                self.expect(opacity == "1", f"blend at its end leaves the current frame's opacity at {opacity}")
                self.ok("blend: the control fades the current frame from 0 to 1")
            if mode == "toggle":
                self.click(viewer.find_element(self.By.CSS_SELECTOR, ".stage"))
                self.expect(not self.layers(card)["top"]["shown"], "clicking the image in toggle mode does not hide the current frame")
                state = viewer.find_element(self.By.CSS_SELECTOR, ".flip-state").text
                self.expect(state == "baseline", f"toggle says it shows {state!r} after a flip")
                self.click(viewer.find_element(self.By.CSS_SELECTOR, "button.flip"))
                self.expect(self.layers(card)["top"]["shown"], "Flip does not bring the current frame back")
                self.ok("toggle: a click on the image and the Flip button switch between the frames")
            if mode == "diff" and screenshot:
                self.driver.save_screenshot(screenshot)
        self.ok(f"view modes of {key}: each of 2-up, slider, blend, toggle, diff shows what it should")

        # The toolbar's "view all as" switches every viewer.
        self.click(self.driver.find_element(self.By.CSS_SELECTOR, '.mode-all button[data-mode="blend"]'))
        modes = set(self.js("return Array.prototype.map.call(document.querySelectorAll('.viewer .modes'), function (m) { return m.parentNode.dataset.mode; })"))
        self.expect(modes == {"blend"}, f"'View all as Blend' leaves viewers in {modes}")
        self.ok("'View all as' switches every snapshot")

        # Keys, in a narrower window, where the sticky toolbar wraps to three rows: j and k move
        # between the snapshots, each scrolled so that its heading shows below the toolbar; 5 and
        # 1 switch the focused one's view.
        self.driver.set_window_size(1000, 900)
        try:
            self.open_run_page()
            body = self.driver.find_element(self.By.TAG_NAME, "body")
            shown = [c for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.is_displayed()]
            self.expect(len(shown) >= 2, f"{len(shown)} snapshots shown on the run page")
            for key_name, order in (("j", shown), ("k", list(reversed(shown))[1:])):
                for card in order:
                    body.send_keys(key_name)
                    self.expect("current-snap" in card.get_attribute("class"), f"{key_name} does not focus {card.get_attribute('data-key')}")
                    toolbar_bottom, head_top = self.js(
                        "return [document.querySelector('.toolbar').getBoundingClientRect().bottom,"
                        " arguments[0].querySelector('.snap-head').getBoundingClientRect().top]",
                        card,
                    )
                    self.expect(
                        head_top >= toolbar_bottom,
                        f"after {key_name}, the heading of {card.get_attribute('data-key')} is under the sticky toolbar"
                        f" (its top at {head_top:.0f} px, the toolbar's bottom at {toolbar_bottom:.0f} px)",
                    )
            first_viewer = shown[0].find_element(self.By.CSS_SELECTOR, ".viewer")
            body.send_keys("5")
            self.expect(first_viewer.get_attribute("data-mode") == "diff", f"key 5 leaves {first_viewer.get_attribute('data-mode')}")
            body.send_keys("1")
            self.expect(first_viewer.get_attribute("data-mode") == "2up", f"key 1 leaves {first_viewer.get_attribute('data-mode')}")
        finally:
            self.driver.set_window_size(1280, 1000)
        self.ok(f"keys: j and k move through {len(shown)} snapshots, each heading below the toolbar; 5 and 1 switch the view")
        errors = self.console_errors()
        self.expect(not errors, f"console errors while switching views: {errors}")

    def wait_for_review(self, what):
        """The page's message after a review, then its reload."""
        self.wait_for(f"the page to confirm: {what}", lambda: self.js("return document.body.dataset.reviewed || ''") != "")
        message = self.driver.find_element(self.By.CSS_SELECTOR, ".review-message").text
        self.wait_for("the page to reload after the review", lambda: self.js("return document.body.dataset.reviewed === undefined && document.readyState === 'complete'"))
        return message

    def approve_refused_without_token(self, key):
        """With a token on the server and none in the page, Approve says why it was not done and
        the baseline stays."""
        self.open_run_page()
        self.js("localStorage.removeItem('snapdiff-token')")
        before = self.baseline_bytes(key)
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.approve"))
        message = self.driver.find_element(self.By.CSS_SELECTOR, ".review-message")
        self.wait_for("the refusal message", lambda: message.is_displayed() and message.text.startswith("Not done"))
        self.expect("problem" in message.get_attribute("class"), "the refusal is not shown as a problem")
        self.expect(self.baseline_bytes(key) == before, "the baseline changed although the approval was refused")
        self.expect(self.card(key).get_attribute("data-status") == "failed", "the snapshot is no longer failed after a refusal")
        buttons = self.card(key).find_elements(self.By.CSS_SELECTOR, ".review-actions button")
        self.expect(all(b.is_enabled() for b in buttons), "the review buttons stay disabled after a refusal")
        errors = self.console_errors(allowed=("401",))  # the refused request itself is logged
        self.expect(not errors, f"console errors besides the refused request: {errors}")
        self.ok(f"without the token, Approve is refused on the page: {message.text!r}")

    def enter_token(self):
        field = self.driver.find_element(self.By.CSS_SELECTOR, ".serve-bar .token input")
        field.clear()
        field.send_keys(self.token, self.Keys.TAB)  # the change event stores it
        stored = self.js("return localStorage.getItem('snapdiff-token')")
        self.expect(stored == self.token, "the token field does not keep the token")
        self.ok("the token field keeps the token")

    def approve_by_click(self, key):
        self.open_run_page()
        current = self.api.request("GET", API.snapshot_path(self.run, key, "/current.png"))
        before = self.baseline_bytes(key)
        self.expect(before != current, f"the baseline of {key} already equals its current frame")
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.approve"))
        message = self.wait_for_review(f"approve {key}")
        self.expect(message.startswith("approved 1 snapshot") and key in message, f"approval message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "approved", f"{key} is not shown approved after the reload")
        self.expect(not self.card(key).find_elements(self.By.CSS_SELECTOR, ".review-actions"), "an approved snapshot still has review buttons")
        after = self.baseline_bytes(key)
        self.expect(after == current, f"baselines/{key}.png is not the approved frame ({len(after or b'')} bytes, frame {len(current)})")
        self.ok(f"Approve (click) wrote the approved frame to baselines/{key}.png ({len(current)} bytes)")

    def approve_by_keyboard(self, key):
        """j until `key` is the current snapshot, then a."""
        self.open_run_page()
        current = self.api.request("GET", API.snapshot_path(self.run, key, "/current.png"))
        self.expect(self.baseline_bytes(key) is None, f"{key} already has a baseline")
        order = [c.get_attribute("data-key") for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.is_displayed()]
        self.expect(key in order, f"{key} is not shown on the run page")
        body = self.driver.find_element(self.By.TAG_NAME, "body")
        for _ in range(order.index(key) + 1):
            body.send_keys("j")
        self.expect("current-snap" in self.card(key).get_attribute("class"), f"j did not reach {key}")
        body.send_keys("a")
        message = self.wait_for_review(f"approve {key} with the key a")
        self.expect(message.startswith("approved 1 snapshot") and key in message, f"approval message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "approved", f"{key} is not shown approved after the reload")
        self.expect(self.baseline_bytes(key) == current, f"baselines/{key}.png is not the approved new frame")
        self.ok(f"j … a approved the new snapshot: baselines/{key}.png written")

    def reject_by_click(self, key):
        self.open_run_page()
        before = self.baseline_bytes(key)
        self.click(self.card(key).find_element(self.By.CSS_SELECTOR, ".review-actions button.reject"))
        message = self.wait_for_review(f"reject {key}")
        self.expect(message.startswith("rejected 1 snapshot"), f"rejection message: {message!r}")
        self.expect(self.card(key).get_attribute("data-status") == "rejected", f"{key} is not shown rejected after the reload")
        self.expect(self.baseline_bytes(key) == before, f"rejecting changed baselines/{key}.png")
        rejected = os.path.join(self.baselines, key + ".rejected.json")
        self.expect(os.path.exists(rejected), f"rejecting wrote no {rejected}")
        self.ok(f"Reject kept the baseline of {key} and recorded the change")

    def final_state(self, approved, rejected):
        record = self.api.json("GET", f"/api/v1/runs/{urllib.parse.quote(self.run, safe='')}")
        statuses = {s["key"]: s["status"] for s in record["snapshots"]}
        for key in approved:
            self.expect(statuses.get(key) == "approved", f"run.json: {key} is {statuses.get(key)!r}, not approved")
        for key in rejected:
            self.expect(statuses.get(key) == "rejected", f"run.json: {key} is {statuses.get(key)!r}, not rejected")
        errors = self.console_errors()
        self.expect(not errors, f"console errors during the reviews: {errors}")
        self.ok("run.json records the reviews made on the page")


def choose_snapshots(base_url, run, token, approve, approve_by_key, reject):
    """The snapshots to review: as given, else the run's first failed one (approved by a click),
    its first new one (approved with the keys j…a) and its second failed one (rejected), in
    run.json's order. Each must have that status."""
    record = API(base_url, token).json("GET", f"/api/v1/runs/{urllib.parse.quote(run, safe='')}")
    by_status = {}
    for snapshot in record["snapshots"]:
        by_status.setdefault(snapshot["status"], []).append(snapshot["key"])
    failed, new = by_status.get("failed", []), by_status.get("new", [])
    approve = approve or (failed[0] if failed else None)
    approve_by_key = approve_by_key or (new[0] if new else None)
    reject = reject or next((k for k in failed if k != approve), None)
    if approve not in failed or reject not in failed or approve == reject or approve_by_key not in new:
        raise CannotRun(
            f"run {run} needs two failed snapshots (to approve and to reject) and a new one (to approve);"
            f" chosen: {approve!r}, {reject!r}, {approve_by_key!r}; the run has {json.dumps(by_status)}"
        )
    return approve, approve_by_key, reject


def run_checks(base_url, run, baselines, token, artifacts, screenshot, chosen=(None, None, None)):
    """All the checks against a running server; raises CheckFailed on the first that fails."""
    approve, approve_by_key, reject = choose_snapshots(base_url, run, token, *chosen)

    driver = start_browser(artifacts)
    check = ReviewPageCheck(driver, base_url, run, baselines, token)
    steps = [
        ("the run list", check.run_list),
        ("the page's self-test", check.self_test),
        (f"the view modes of {approve}", lambda: check.view_modes(approve, screenshot)),
    ]
    if token:
        steps += [
            ("Approve without the token", lambda: check.approve_refused_without_token(approve)),
            ("the token field", check.enter_token),
        ]
    steps += [
        (f"Approve {approve} with a click", lambda: check.approve_by_click(approve)),
        (f"approve {approve_by_key} with j…a", lambda: check.approve_by_keyboard(approve_by_key)),
        (f"Reject {reject}", lambda: check.reject_by_click(reject)),
        ("run.json after the reviews", lambda: check.final_state([approve, approve_by_key], [reject])),
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
    parser.add_argument("--screenshot", help="save a screenshot of the run page in diff mode to this PNG")
    parser.add_argument("--timeout", type=float, default=180, help="give up after this many seconds (default 180)")
    arguments = parser.parse_args()

    def time_out(signum, frame):
        raise CheckFailed(f"the whole check took more than {arguments.timeout:g} s")

    signal.signal(signal.SIGALRM, time_out)
    signal.setitimer(signal.ITIMER_REAL, arguments.timeout)
    scratch = tempfile.mkdtemp(prefix="snapdiff-review-page-")
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
