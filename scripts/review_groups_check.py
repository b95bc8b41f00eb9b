#!/usr/bin/env python3
"""Checks, in headless Chromium driven by Selenium, the review page's groups of similar changes,
its branches, and that it stays true after every review, on a run of real PNGs posted to
`snapdiff serve`:

- a brand colour changed on 12 screens with 12 different titles is ONE group ("one kind of edit",
  the colours in words), beside an exact group of two and a change seen once, which is not
  counted as a group; the page's group is what `approve --same-as` picks (the API's dry run);
- a group's members are listed, two are left out with their checkboxes, and the group's Approve
  approves exactly the other ten (the confirmation names the count and those left out);
- after that, after approving one snapshot of the exact pair and after a rejection, the page
  (counts in the header and the filters, sections and their counts, groups, the sentence counting
  the groups, "changes seen once") is what a reload shows, without reloading;
- the viewer's "N of M" counts the snapshots in the lists shown (not the collapsed passed ones),
  and j never lands on a passed snapshot;
- the run page names the branch, its base and where approvals go; the run list has Base and
  Overlay columns; the branch list shows what each overlay holds; Merge (confirmed) promotes the
  branch's baselines into the store, Discard (confirmed) drops another branch's overlay, the
  store unchanged; `snapdiff history` shows the store's own line apart from the branch's.

  scripts/review_groups_check.py [--snapdiff PATH] [--artifacts DIR]

PATH defaults to `snapdiff` on PATH, else .build/debug/snapdiff, else .build/release/snapdiff;
`snapdiff-serve` must be beside it. Needs Chromium, chromedriver and Selenium (as
scripts/review_page_check.py). Exit status: 0 when every check passed; 1 when one failed (a
screenshot and the page's HTML are kept); 2 when it cannot run.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

from review_page_check import API, CheckFailed, find_snapdiff, start_browser
from serve_support import CannotRun, Server, png

BLUE, RED, GREEN, PURPLE = (30, 136, 229), (229, 57, 53), (26, 127, 55), (130, 80, 223)
BRANCH, BASE, OTHER = "feature/new-brand", "main", "feature/other"


def log(message):
    print(f"review_groups_check: {message}", file=sys.stderr, flush=True)


def screen(brand, title_width, button=GREEN, banner=False, width=240, height=200):
    """A small app screen: a header in `brand` with a white title `title_width` wide, rows of
    text, a button in `button` with a white label; `banner` adds a yellow banner."""
    rects = [(0, 0, width, 40, brand), (16, 14, title_width, 12, (255, 255, 255))]
    for line in range(4):
        rects.append((16, 60 + line * 18, 150 - line * 20, 8, (89, 99, 110)))
    rects.append((16, 150, 120, 30, button))
    rects.append((40, 160, 60, 10, (255, 255, 255)))
    if banner:
        rects.append((150, 130, 80, 60, (255, 223, 93)))
    rows = []
    for y in range(height):
        row = bytearray(b"\xff" * (width * 3))
        for x, top, w, h, color in rects:
            if top <= y < top + h:
                row[x * 3 : (x + w) * 3] = bytes(color) * w
        rows.append(bytes(row))
    return png(width, height, rows)


BRAND_KEYS = [f"Screen{index:02d} - test_brand/Screen{index:02d}" for index in range(1, 13)]
PAIR = ["Feed - test_feed/Feed", "Inbox - test_inbox/Inbox"]
ALONE = "Login - test_login/Login"
PASSED = "Settings - test_theme/Settings"
NEW = "Profile - test_edit/Profile"


def prepare(workspace, api):
    """Baselines in the store and a run on BRANCH (from BASE) of 17 frames: 12 brand screens
    (blue → red, 12 titles), an exact pair (the same banner), a button's colour changed alone, a
    passed screen and a new one. Returns the run id and the frames by key."""
    snapshots = []
    for index, key in enumerate(BRAND_KEYS):
        title = 30 + index * 9
        snapshots.append((key, screen(BLUE, title), screen(RED, title), "failed"))
    for key in PAIR:
        snapshots.append((key, screen(BLUE, 60), screen(BLUE, 60, banner=True), "failed"))
    snapshots.append((ALONE, screen(BLUE, 50), screen(BLUE, 50, button=PURPLE), "failed"))
    snapshots.append((PASSED, screen(BLUE, 70), screen(BLUE, 70), "passed"))
    snapshots.append((NEW, None, screen(BLUE, 80), "new"))
    for key, baseline, _, _ in snapshots:
        if baseline is not None:
            path = os.path.join(workspace, "baselines", key + ".png")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(baseline)
    run = api.json("POST", "/api/v1/runs", {"name": "brand refresh", "branch": BRANCH, "baseBranch": BASE})["id"]
    for key, _, frame, expected in snapshots:
        verdict = json.loads(api.request("PUT", API.snapshot_path(run, key), frame, "image/png"))
        if verdict.get("status") != expected:
            raise CheckFailed(f"posting {key}: status {verdict.get('status')!r}, expected {expected!r}")
    api.json("POST", f"/api/v1/runs/{run}/close")
    return run, {key: frame for key, _, frame, _ in snapshots}


class GroupsCheck:
    def __init__(self, driver, server, token, run, workspace, snapdiff):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.By, self.Wait = By, WebDriverWait
        self.driver = driver
        self.base = server.url
        self.token = token
        self.api = API(server.url, token)
        self.run = run
        self.workspace = workspace
        self.snapdiff = snapdiff
        self.passed = []

    def ok(self, what):
        self.passed.append(what)
        log(f"ok: {what}")

    def expect(self, condition, message):
        if not condition:
            raise CheckFailed(message)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def wait_for(self, what, predicate, timeout=15):
        try:
            return self.Wait(self.driver, timeout, poll_frequency=0.1).until(lambda d: predicate())
        except Exception:
            raise CheckFailed(f"timed out after {timeout} s waiting for {what}") from None

    def click(self, element):
        self.js("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
        element.click()

    def confirm(self, contains):
        alert = self.Wait(self.driver, 5).until(lambda d: d.switch_to.alert)
        text = alert.text
        alert.accept()
        for part in contains:
            self.expect(part in text, f"the confirmation says {text!r}, without {part!r}")
        return text

    def open(self, path):
        self.driver.get(self.base + path)
        self.js("localStorage.setItem('snapdiff-token', arguments[0])", self.token)
        self.wait_for("the page's script", lambda: self.js("return document.readyState") == "complete")

    def open_run(self):
        self.open("/runs/" + urllib.parse.quote(self.run, safe=""))
        self.wait_for("the review controls", lambda: self.js("return !!window.snapdiffLive"))

    def statuses(self):
        record = self.api.json("GET", f"/api/v1/runs/{urllib.parse.quote(self.run, safe='')}")
        return {s["key"]: s["status"] for s in record["snapshots"]}

    def state(self):
        """What the page says, as a reviewer reads it: the header's and the filters' counts, the
        sections and their counts and keys, the groups shown, the sentence, "seen once"."""
        return self.js(
            """
            function text(e) { return e ? e.textContent.replace(/\\s+/g, ' ').trim() : null; }
            function visible(e) { return e && !e.hidden && e.style.display !== 'none' && !e.closest('[hidden]'); }
            var s = {};
            s.header = Array.from(document.querySelectorAll('.counts li')).map(text);
            s.filters = Array.from(document.querySelectorAll('.status-filter label')).map(text);
            var summary = document.querySelector('.changes-summary');
            s.summary = visible(summary) ? text(summary) : null;
            s.sections = Array.from(document.querySelectorAll('main > section.group')).filter(visible).map(function (sec) {
              return sec.dataset.status + ' ' + text(sec.querySelector('h2 .count')) + ': '
                + Array.from(sec.querySelectorAll('article.snap')).map(function (c) { return c.dataset.key; }).sort().join(', ');
            });
            s.groups = Array.from(document.querySelectorAll('.change-group')).filter(visible).map(function (g) {
              return text(g.querySelector('h3')) + ' [' + g.dataset.tier + ']: '
                + Array.from(g.querySelectorAll('article.snap')).map(function (c) { return c.dataset.key; }).sort().join(', ');
            });
            var once = document.querySelector('#failed h3.once');
            s.once = visible(once) ? text(once) : null;
            s.differences = Array.from(document.querySelectorAll('.difference-groups li')).filter(visible).map(function (li) {
              return li.dataset.difference + ' ' + li.dataset.count;
            });
            return s;
            """
        )

    def same_as_reload(self, what):
        """The page as it is after a review, against the page a reload serves."""
        live = self.state()
        self.open_run()
        fresh = self.state()
        for part in live:
            self.expect(live[part] == fresh[part], f"after {what}, the page's {part} is {live[part]!r}, a reload shows {fresh[part]!r}")
        self.ok(f"after {what}, the page without a reload is the page a reload shows ({fresh['summary']})")
        return fresh

    def wait_reviewed(self, action, count):
        self.wait_for(
            f"the page to confirm {action} of {count}",
            lambda: self.js("return document.body.dataset.reviewed || ''") == action
            and self.js("return document.body.dataset.reviewedCount") == str(count),
        )

    # The checks

    def one_group_for_the_brand(self):
        self.open_run()
        groups = self.driver.find_elements(self.By.CSS_SELECTOR, ".change-group")
        self.expect(len(groups) == 2, f"{len(groups)} groups on the page, expected the brand group and the exact pair")
        brand, pair = groups
        keys = sorted(c.get_attribute("data-key") for c in brand.find_elements(self.By.CSS_SELECTOR, "article.snap"))
        self.expect(keys == sorted(BRAND_KEYS), f"the first group holds {keys}")
        self.expect(brand.get_attribute("data-tier") == "similar", "the brand group is not of the similar tier")
        heading = brand.find_element(self.By.CSS_SELECTOR, ".group-head").text
        self.expect("12 snapshots, one kind of edit" in heading and "colour #1E88E5 → #E53935" in heading, f"the brand group says {heading!r}")
        listed = [li.get_attribute("data-key") for li in brand.find_elements(self.By.CSS_SELECTOR, ".group-members li")]
        self.expect(sorted(listed) == sorted(BRAND_KEYS), f"the brand group lists {listed}")
        pair_keys = sorted(c.get_attribute("data-key") for c in pair.find_elements(self.By.CSS_SELECTOR, "article.snap"))
        self.expect(pair_keys == sorted(PAIR) and pair.get_attribute("data-tier") == "exact", f"the second group is {pair_keys}")
        summary = self.driver.find_element(self.By.CSS_SELECTOR, ".changes-summary").text
        expected = "2 groups of changes in 15 failed snapshots: 14 of them in groups (the largest 12), 1 change seen once."
        self.expect(summary == expected, f"the sentence says {summary!r}, expected {expected!r}")
        # The page's group is what approve --same-as picks.
        for reference in (BRAND_KEYS[4], PAIR[1]):
            dry = self.api.json("POST", f"/api/v1/runs/{urllib.parse.quote(self.run, safe='')}/approve", {"sameAs": reference, "dryRun": True})
            picked = sorted(item["key"] for item in dry["snapshots"])
            shown = sorted(BRAND_KEYS) if reference in BRAND_KEYS else sorted(PAIR)
            self.expect(picked == shown, f"approve --same-as {reference!r} picks {picked}, the page's group is {shown}")
        alone = self.api.json("POST", f"/api/v1/runs/{urllib.parse.quote(self.run, safe='')}/approve", {"sameAs": ALONE, "dryRun": True})
        self.expect([i["key"] for i in alone["snapshots"]] == [ALONE], "the change seen once picks more than itself")
        self.ok("a brand colour on 12 screens with 12 titles is one group (colour #1E88E5 → #E53935), the pair another, "
                "the single change no group; --same-as picks exactly the page's groups")

    def group_approve_leaving_two_out(self):
        brand = self.driver.find_elements(self.By.CSS_SELECTOR, ".change-group")[0]
        left_out = BRAND_KEYS[2:4]
        self.click(brand.find_element(self.By.CSS_SELECTOR, ".group-members summary"))
        for key in left_out:
            box = [li for li in brand.find_elements(self.By.CSS_SELECTOR, ".group-members li") if li.get_attribute("data-key") == key][0]
            self.click(box.find_element(self.By.CSS_SELECTOR, "input.include"))
        button = brand.find_element(self.By.CSS_SELECTOR, ".group-actions button.approve")
        self.expect(button.text == "Approve these 10", f"with two left out the button says {button.text!r}")
        excluded = self.js("return Array.from(document.querySelectorAll('article.snap.excluded')).map(function (c) { return c.dataset.key; })")
        self.expect(sorted(excluded) == sorted(left_out), f"the cards marked left out are {excluded}")
        before = self.statuses()
        self.click(button)
        self.confirm(["Approve all 10 snapshots of this group", "leaving out 2"])
        self.wait_reviewed("approved", 10)
        after = self.statuses()
        changed = sorted(k for k in after if after[k] != before[k])
        expected = sorted(set(BRAND_KEYS) - set(left_out))
        self.expect(changed == expected and all(after[k] == "approved" for k in expected), f"the group approval changed {changed}")
        self.expect(all(after[k] == "failed" for k in left_out), "a member left out was approved")
        state = self.state()
        self.expect(any(g.startswith("2 snapshots, one kind of edit") for g in state["groups"]), f"the groups now: {state['groups']}")
        self.ok("two members left out with their checkboxes: Approve these 10, confirmed, approved exactly those 10")
        self.same_as_reload("a group approval with two left out")

    def approve_one_of_the_pair(self):
        card = [c for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.get_attribute("data-key") == PAIR[0]][0]
        self.click(card.find_element(self.By.CSS_SELECTOR, ".review-actions button.approve"))
        self.wait_reviewed("approved", 1)
        state = self.state()
        self.expect(not any("one change" in g for g in state["groups"]), f"the pair's group is still shown: {state['groups']}")
        self.expect(state["summary"].startswith("1 group of changes in 4 failed snapshots"), f"the sentence: {state['summary']!r}")
        self.ok(f"one of the pair approved: its group is gone, the other counted once ({state['summary']})")
        self.same_as_reload("approving one of an exact pair")

    def reject_the_single_change(self):
        card = [c for c in self.driver.find_elements(self.By.CSS_SELECTOR, "article.snap") if c.get_attribute("data-key") == ALONE][0]
        self.click(card.find_element(self.By.CSS_SELECTOR, ".review-actions button.reject"))
        self.wait_reviewed("rejected", 1)
        section = self.js("return document.querySelector('article.snap[data-key=\"' + arguments[0] + '\"]').closest('section').dataset.status", ALONE)
        self.expect(section == "rejected", f"the rejected snapshot sits in the {section} section")
        self.ok("a rejection moves the card to the rejected section in place")
        self.same_as_reload("a rejection")

    def viewer_counts_what_it_shows(self):
        self.open_run()
        total = self.js("return document.querySelectorAll('article.snap').length")
        passed = self.js("return document.querySelectorAll('article.snap[data-status=\"passed\"]').length")
        first = self.driver.find_element(self.By.CSS_SELECTOR, "#failed article.snap")
        self.js("window.snapdiffReport.open(arguments[0])", first)
        self.wait_for("the viewer", lambda: self.js("return window.snapdiffReport.isOpen()"))
        position = self.driver.find_element(self.By.CSS_SELECTOR, ".focus-pos").text
        self.expect(position == f"1 of {total - passed}", f"the viewer says {position!r}: {total} snapshots, {passed} passed (collapsed)")
        for _ in range(total):
            self.js("window.snapdiffReport.step(1)")
            self.expect(self.js("return window.snapdiffReport.current().dataset.status") != "passed", "j landed on a passed snapshot")
        self.js("window.snapdiffReport.close()")
        self.ok(f"the viewer says {position!r} ({passed} passed snapshot collapsed, not counted), j never lands on it")

    def branches(self, frames):
        self.open_run()
        strip = self.driver.find_element(self.By.CSS_SELECTOR, ".branch-strip")
        text = strip.text
        self.expect(strip.get_attribute("data-base") == BASE and f"Branch {BRANCH}, from {BASE}" in text, f"the branch strip says {text!r}")
        self.expect(f"Approvals here stay on {BRANCH} until it is merged" in text and "holds 11 baselines now" in text, f"the strip: {text!r}")
        self.ok(f"the run page says: {text}")
        self.open("/")
        row = [r for r in self.driver.find_elements(self.By.CSS_SELECTOR, "tbody tr") if self.run in r.text][0]
        cells = [c.text for c in row.find_elements(self.By.CSS_SELECTOR, "td")]
        self.expect(cells[2] == BRANCH and cells[3] == BASE and cells[4] == "11 baselines, not merged", f"the run list's row: {cells}")
        self.ok(f"the run list: branch {cells[2]}, base {cells[3]}, overlay {cells[4]!r}")

        # A second branch with one approval, to discard.
        other = self.api.json("POST", "/api/v1/runs", {"name": "other", "branch": OTHER, "baseBranch": BASE})["id"]
        self.api.request("PUT", API.snapshot_path(other, PASSED), screen(BLUE, 70, banner=True), "image/png")
        self.api.json("POST", f"/api/v1/runs/{other}/approve", {"keys": [PASSED]})
        store_passed = open(os.path.join(self.workspace, "baselines", PASSED + ".png"), "rb").read()
        self.open("/?branch=" + urllib.parse.quote(OTHER, safe=""))
        listed = [r.find_element(self.By.CSS_SELECTOR, "td").text for r in self.driver.find_elements(self.By.CSS_SELECTOR, "tbody tr")]
        heading = self.driver.find_element(self.By.CSS_SELECTOR, "h1").text
        self.expect(listed == [other] and heading == f"Runs on branch {OTHER} 1", f"/?branch= lists {listed} under {heading!r}")
        self.ok(f"/?branch={OTHER} lists that branch's run alone")

        self.open("/branches")
        rows = {r.get_attribute("data-branch"): r for r in self.driver.find_elements(self.By.CSS_SELECTOR, "tr[data-branch]")}
        self.expect(sorted(rows) == sorted([BRANCH, OTHER]), f"the branch list: {sorted(rows)}")
        self.expect(rows[BRANCH].get_attribute("data-count") == "11" and rows[OTHER].get_attribute("data-count") == "1", "the counts held")
        self.click(rows[BRANCH].find_element(self.By.CSS_SELECTOR, "details summary"))
        listed = [li.text for li in rows[BRANCH].find_elements(self.By.CSS_SELECTOR, "details li")]
        self.expect(len(listed) == 11 and BRAND_KEYS[0] in listed, f"the overlay's list: {listed}")
        self.click(rows[BRANCH].find_element(self.By.CSS_SELECTOR, "button.merge"))
        self.confirm([f"Merge branch {BRANCH} into the store", "11 baselines"])
        self.wait_for("the merge", lambda: rows[BRANCH].get_attribute("data-state") == "merged")
        for key in (BRAND_KEYS[0], PAIR[0]):
            stored = open(os.path.join(self.workspace, "baselines", key + ".png"), "rb").read()
            self.expect(stored == frames[key], f"after the merge the store's {key} is not the approved frame")
        self.expect(not os.path.exists(os.path.join(self.workspace, "baselines", ".branches", "feature%2Fnew-brand")), "the overlay is still there")
        self.click(rows[OTHER].find_element(self.By.CSS_SELECTOR, "button.discard"))
        self.confirm([f"Discard branch {OTHER}", "1 baseline"])
        self.wait_for("the discard", lambda: rows[OTHER].get_attribute("data-state") == "discarded")
        self.expect(not os.path.exists(os.path.join(self.workspace, "baselines", ".branches", "feature%2Fother")), "the discarded overlay is still there")
        self.expect(open(os.path.join(self.workspace, "baselines", PASSED + ".png"), "rb").read() == store_passed, "a discard changed the store")
        self.ok("the branch list: what each overlay holds; Merge (confirmed) promoted 11 baselines; Discard (confirmed) dropped the other, the store unchanged")
        self.open("/branches")
        self.expect(not self.driver.find_elements(self.By.CSS_SELECTOR, "tr[data-branch]"), "a merged or discarded branch is still listed")

        history = subprocess.run([self.snapdiff, "history", BRAND_KEYS[0]], cwd=self.workspace, capture_output=True, text=True)
        out = history.stdout
        self.expect(history.returncode == 0, f"snapdiff history: {history.stderr}")
        self.expect("The store's own line" in out and f"On branch {BRANCH}" in out and f"merged from branch {BRANCH}" in out, f"history:\n{out}")
        store_part = out.split(f"On branch {BRANCH}")[0]
        self.expect("none in the overlay" not in store_part, f"the store's line shows the branch's entry:\n{out}")
        self.ok("snapdiff history: the store's own line (the merge) apart from the branch's approval")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapdiff", help="the snapdiff executable to start")
    parser.add_argument("--artifacts", help="keep the browser's profile, logs and failure screenshots here")
    parser.add_argument("--timeout", type=float, default=240, help="give up after this many seconds (default 240)")
    arguments = parser.parse_args()

    def time_out(signum, frame):
        raise CheckFailed(f"the whole check took more than {arguments.timeout:g} s")

    signal.signal(signal.SIGALRM, time_out)
    signal.setitimer(signal.ITIMER_REAL, arguments.timeout)
    scratch = tempfile.mkdtemp(prefix="snapdiff-review-groups-")
    artifacts = arguments.artifacts or scratch
    os.makedirs(artifacts, exist_ok=True)
    server = driver = check = None
    succeeded = False
    started = time.monotonic()
    try:
        executable = os.path.abspath(find_snapdiff(arguments.snapdiff)) if arguments.snapdiff else find_snapdiff(None)
        token = "review-groups-check-" + os.urandom(8).hex()
        os.makedirs(os.path.join(scratch, "baselines"))
        server = Server(executable, scratch, token)
        log(f"snapdiff serve at {server.url} in {scratch}")
        run, frames = prepare(scratch, API(server.url, token))
        driver = start_browser(artifacts)
        check = GroupsCheck(driver, server, token, run, scratch, executable)
        check.one_group_for_the_brand()
        check.group_approve_leaving_two_out()
        check.approve_one_of_the_pair()
        check.reject_the_single_change()
        check.viewer_counts_what_it_shows()
        check.branches(frames)
        succeeded = True
    except CannotRun as error:
        log(f"cannot run: {error}")
        return 2
    except CheckFailed as error:
        log(f"FAIL: {error}")
        if driver:
            try:
                driver.save_screenshot(os.path.join(artifacts, "failure.png"))
                with open(os.path.join(artifacts, "failure.html"), "w") as file:
                    file.write(driver.page_source)
                log(f"the page at the failure: {artifacts}/failure.png and failure.html")
            except Exception as problem:
                log(f"(could not save the page: {problem})")
        if server:
            log(f"server log:\n{server.errors()}")
        return 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if driver:
            driver.quit()
        if server:
            server.stop()
        if succeeded and not arguments.artifacts:
            shutil.rmtree(scratch, ignore_errors=True)
        elif not succeeded:
            log(f"kept for a look: {scratch}")
    print(f"review groups, live page and branches: {len(check.passed)} checks passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
