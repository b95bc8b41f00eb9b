#!/usr/bin/env python3
"""Checks the review page's approvals in headless Chromium, driven by Selenium: a group approved
through the service is one operation, listed in the page's Approvals panel with its author and
time and noted on each card it approved, both with Undo; while a review request runs the page is
busy (aria-busy, a line in the panel); Undo on a card undoes the whole group in one request (the
cards back to failed, the panel listing the undo, the store back to the old baselines); and at
390 px wide the toolbar takes a small part of the height.

  scripts/approvals_page_check.py [--snapdiff PATH]

Self-contained: prepares a project in a temporary folder (six 390x844 phone screens changed the
same way and one unchanged, drawn with zlib and struct), starts `snapdiff serve` on a free
loopback port with a token, posts the frames as a run, checks, stops the server.

Needs Chromium, chromedriver and Selenium, as scripts/review_page_check.py. Exit status: 0 when
every check passed, 1 when one failed (the message says which), 2 when it cannot run.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import CannotRun, Server, phone_screen  # noqa: E402
from review_page_check import API, CheckFailed, find_snapdiff, start_browser  # noqa: E402

GROUP = [f"Brand{index} - test_brand/Screen {index}" for index in range(1, 7)]
UNCHANGED = "Settings - test_theme/Settings"


def log(message):
    print(f"approvals_page_check: {message}", file=sys.stderr, flush=True)


def prepare(workspace, api):
    before, after = phone_screen((9, 105, 218)), phone_screen((9, 105, 218), banner=True)
    for key in GROUP + [UNCHANGED]:
        path = os.path.join(workspace, "baselines", key + ".png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(before)
    run = api.json("POST", "/api/v1/runs", {"name": "approvals-page-check", "branch": "main"})["id"]
    for key in GROUP + [UNCHANGED]:
        api.request("PUT", API.snapshot_path(run, key), after if key in GROUP else before, "image/png")
    api.json("POST", f"/api/v1/runs/{run}/close")
    return run, before, after


def wait_for(what, predicate, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise CheckFailed(f"timed out waiting for {what}")


def check(driver, base, run, token, workspace, before, after):
    passed = []

    def ok(what):
        passed.append(what)
        log(f"ok: {what}")

    def expect(condition, message):
        if not condition:
            raise CheckFailed(message)

    js = driver.execute_script
    page = f"{base}/runs/{urllib.parse.quote(run, safe='')}"

    def open_page():
        driver.get(page)
        wait_for("the run page", lambda: js("return document.readyState") == "complete"
                 and js("return document.body && document.body.dataset.run") == run)

    driver.get(base + "/")
    js("localStorage.setItem('snapdiff-token', arguments[0])", token)
    open_page()
    expect(js("return !!document.querySelector('.approvals')"), "no Approvals panel on the run page")
    expect(js("return document.querySelector('.approvals-count').textContent") == "0", "the panel is not empty at first")
    ok("the run page has an empty Approvals panel")

    # A group approval through the page's fetch: busy at once, then listed.
    busy = js("""
      var headers = { "Content-Type": "application/json", Authorization: "Bearer " + localStorage.getItem("snapdiff-token") };
      window.fetch("/api/v1/runs/" + encodeURIComponent(arguments[0]) + "/approve",
        { method: "POST", headers: headers, body: JSON.stringify({ sameAs: arguments[1] }) });
      return [document.body.getAttribute("aria-busy"), document.querySelector(".approvals-busy").textContent];
    """, run, GROUP[0])
    expect(busy == ["true", "Working…"], f"the page is not busy while the approval runs: {busy}")
    ok("the page is busy (aria-busy, 'Working…') while a review request runs")
    wait_for("the panel to list the approval", lambda: js("return document.querySelector('.approvals-count').textContent") == "1")
    expect(js("return document.body.getAttribute('aria-busy')") is None, "still busy after the answer")
    item = js("""var li = document.querySelector('.approvals-list li');
      return { what: li.querySelector('.approval-what').textContent, user: li.querySelector('b').textContent,
               time: li.querySelector('time').getAttribute('datetime'), undo: !!li.querySelector('.undo-operation') };""")
    expect(item["what"] == "approved 6 snapshots" and item["user"] == "service (token)" and item["time"] and item["undo"],
           f"the panel's item is wrong: {item}")
    ok("the panel lists the group approval with author, time and Undo, without a reload")

    open_page()
    notes = js("""return Array.from(document.querySelectorAll('.snap')).filter(function (card) {
      return card.querySelector('.approval-note .undo-operation'); }).map(function (card) { return card.dataset.key; });""")
    expect(sorted(notes) == sorted(GROUP), f"the approved cards do not all carry the approval's note and Undo: {notes}")
    ok("each approved card says by whom and when, with Undo")

    # Undo from one card: one request for the whole group.
    button = driver.find_element("css selector", f'.snap[data-key="{GROUP[3]}"] .approval-note .undo-operation')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait_for("the page to come back with the group undone",
             lambda: js("return document.readyState") == "complete"
             and js("return document.querySelector('.approvals-count') && document.querySelector('.approvals-count').textContent") == "2",
             timeout=30)
    statuses = js("""var s = {}; document.querySelectorAll('.snap').forEach(function (c) { s[c.dataset.key] = c.dataset.status; });
      return s;""")
    expect(all(statuses.get(key) == "failed" for key in GROUP), f"cards not back to failed: {statuses}")
    listed = API(base, token).json("GET", f"/api/v1/runs/{urllib.parse.quote(run, safe='')}/approvals")["operations"]
    expect([operation["kind"] for operation in listed] == ["approve", "undo"] and len(listed[1]["keys"]) == 6,
           f"the log does not hold one undo of the six: {json.dumps(listed)[:400]}")
    for key in GROUP:
        with open(os.path.join(workspace, "baselines", key + ".png"), "rb") as file:
            expect(file.read() == before, f"{key}: the old baseline is not back")
    first = js("return document.querySelector('.approvals-list li:last-child .approval-refusal').textContent")
    expect("already undone" in first, f"the undone approval does not say so: {first!r}")
    ok("Undo on one card undid the group as one operation: cards failed, panel and store agree")

    # Narrow: the toolbar takes a small part of a phone's height.
    driver.set_window_size(390, 844)
    open_page()
    share = js("""var bar = document.querySelector('.toolbar'); if (!bar) return 0;
      return bar.getBoundingClientRect().height / window.innerHeight;""")
    expect(share < 0.2, f"at 390 px the toolbar takes {share:.0%} of the height")
    ok(f"at 390 px the toolbar takes {share:.0%} of the height")
    return passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapdiff")
    arguments = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="snapdiff-approvals-page-")
    server = driver = None
    succeeded = False
    try:
        executable = find_snapdiff(arguments.snapdiff)
        token = "approvals-page-" + os.urandom(6).hex()
        os.makedirs(os.path.join(scratch, "baselines"))
        server = Server(executable, scratch, token)
        run, before, after = prepare(scratch, API(server.url, token))
        driver = start_browser(scratch)
        driver.set_window_size(1400, 1000)
        passed = check(driver, server.url, run, token, scratch, before, after)
        succeeded = True
        print(f"approvals page: {len(passed)} checks passed")
        return 0
    except CannotRun as error:
        log(f"cannot run: {error}")
        return 2
    except CheckFailed as error:
        log(f"FAIL: {error}")
        if server:
            log(f"server log:\n{server.errors()}")
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.stop()
        if succeeded:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            log(f"kept for a look: {scratch}")


if __name__ == "__main__":
    sys.exit(main())
