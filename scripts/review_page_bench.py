#!/usr/bin/env python3
"""Times the review page of a large run in headless Chromium: makes a project with N phone
screenshots (default 1,000 at 1170x2532), records a run of them with `snapdiff check`, starts
`snapdiff serve`, opens the run's page in a 1400x1000 window and prints, from the browser's
navigation and resource timing: the load time (navigationStart to loadEvent end), the HTML's
size, the number of requests and the bytes of images, for a first visit (thumbnails made on
the server) and a second (thumbnails cached on disk). Exit 0, or 2 when it cannot run.

  scripts/review_page_bench.py [--snapdiff PATH] [--snapshots 1000] [--repeat 3]

The run: 15% failed (two changes shared by many screens and a few seen once), 5% new, the
rest passed. Frames are drawn with zlib and struct (flat colours and a gradient band).
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import CannotRun, Server  # noqa: E402
from review_page_check import find_snapdiff, start_browser  # noqa: E402

WIDTH, HEIGHT = 1170, 2532


def screen(accent, header=(246, 248, 250), banner=None, shift=0, dot=None):
    """A 1170x2532 RGB PNG: a header, a gradient band, rows of text, a button in `accent`; `dot`,
    a colour: two pixels of it at the bottom right (a frame a few pixels off another)."""
    raw = bytearray(b"\xff" * (WIDTH * 3) * HEIGHT)

    def rect(x, y, w, h, color):
        row = bytes(color) * w
        for line in range(y, min(y + h, HEIGHT)):
            start = line * WIDTH * 3 + x * 3
            raw[start : start + w * 3] = row

    rect(0, 0, WIDTH, 132, header)
    rect(48, 42, 120, 48, (31, 35, 40))
    for y in range(180, 840, 4):  # a band that weighs something when compressed
        shade = (y * 7) % 256
        rect(48, y, WIDTH - 96, 4, (shade, 255 - shade, (shade * 3) % 256))
    for line in range(20):
        rect(72, 900 + shift + line * 60, 900 - (line * 111) % 360, 30, (89, 99, 110))
    rect(72, 2100, WIDTH - 144, 156, accent)
    if banner:
        rect(0, 2300, WIDTH, 120, banner)
    if dot:
        rect(WIDTH - 8, HEIGHT - 8, 2, 1, dot)
    rows = b"".join(b"\x00" + bytes(raw[y * WIDTH * 3 : (y + 1) * WIDTH * 3]) for y in range(HEIGHT))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header_chunk = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header_chunk) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def make_project(root, count):
    base = screen((9, 105, 218))
    header_change = screen((9, 105, 218), header=(255, 223, 93))
    button_change = screen((207, 34, 46))
    uniques = [screen((9, 105, 218), shift=4 * (i + 1)) for i in range(10)]
    new = screen((191, 135, 0))
    failed, new_count = count * 15 // 100, count * 5 // 100
    plan = []
    for index in range(count):
        key = f"Screen{index // 20:03d} - test_{index:04d}/Screen {index:04d}"
        if index < failed:
            which = index % 15
            frame = uniques[which] if which < len(uniques) else (header_change if which < 13 else button_change)
            plan.append((key, base, frame))
        elif index < failed + new_count:
            plan.append((key, None, new))
        else:
            plan.append((key, base, base))
    for key, baseline, frame in plan:
        for folder, data in (("baselines", baseline), ("frames", frame)):
            if data is None:
                continue
            path = os.path.join(root, folder, key + ".png")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(data)
    return len(plan)


MEASURE = """
var nav = performance.getEntriesByType("navigation")[0];
var resources = performance.getEntriesByType("resource");
var images = resources.filter(function (r) { return r.initiatorType === "img"; });
return {
  load: nav.loadEventEnd - nav.startTime,
  domContentLoaded: nav.domContentLoadedEventEnd - nav.startTime,
  html: nav.encodedBodySize || nav.transferSize,
  transferred: resources.reduce(function (sum, r) { return sum + (r.transferSize || 0); }, nav.transferSize || 0),
  requests: 1 + resources.length,
  imageBytes: images.reduce(function (sum, r) { return sum + (r.encodedBodySize || r.transferSize || 0); }, 0),
  images: images.length,
  imagesDone: Math.max.apply(null, [0].concat(images.map(function (r) { return r.responseEnd; }))),
  cards: document.querySelectorAll("article.snap").length,
  shown: document.querySelectorAll("article.snap:not([hidden]):not([data-paged])").length
};
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapdiff")
    parser.add_argument("--snapshots", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="visits after the first (default 3)")
    parser.add_argument("--keep", action="store_true", help="keep the project folder")
    parser.add_argument("--project", help="a folder a previous --keep left: its run is measured again, not remade")
    arguments = parser.parse_args()
    root = arguments.project or tempfile.mkdtemp(prefix="snapdiff-bench-page-")
    server = driver = None
    try:
        executable = find_snapdiff(arguments.snapdiff)
        if arguments.project:
            count = len(json.load(open(os.path.join(root, ".snapdiff", "runs", "last", "run.json")))["snapshots"])
            for name in os.listdir(os.path.join(root, ".snapdiff")):
                if name == "thumbnails" or name.startswith("serve.sqlite"):  # a first visit again
                    path = os.path.join(root, ".snapdiff", name)
                    shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        else:
            started = time.monotonic()
            count = make_project(root, arguments.snapshots)
            print(f"project: {count} snapshots of {WIDTH}x{HEIGHT} in {time.monotonic() - started:.1f} s", flush=True)
            started = time.monotonic()
            check = subprocess.run(
                [os.path.abspath(executable), "check", "frames", "--baselines", "baselines", "--record", "never"],
                cwd=root, capture_output=True, text=True)
            if check.returncode not in (0, 1):
                raise CannotRun(f"snapdiff check failed ({check.returncode}): {check.stderr[-800:]}")
            print(f"snapdiff check: {time.monotonic() - started:.1f} s; {check.stdout.splitlines()[0]}", flush=True)
        run = os.path.basename(os.path.realpath(os.path.join(root, ".snapdiff", "runs", "last")))
        server = Server(executable, root, "bench-" + os.urandom(6).hex())
        driver = start_browser(root)
        driver.set_window_size(1400, 1000)
        url = f"{server.url}/runs/{run}"
        results = []
        for visit in range(1 + arguments.repeat):
            driver.get("about:blank")
            driver.execute_script("performance.clearResourceTimings()")
            driver.get(url)
            time.sleep(2.5)  # the lazy thumbnails in view, after the load event
            figures = driver.execute_script(MEASURE)
            results.append(figures)
            label = "first visit (thumbnails made)" if visit == 0 else f"visit {visit + 1} (thumbnails cached)"
            print(
                f"{label}: load {figures['load']:.0f} ms (DOMContentLoaded {figures['domContentLoaded']:.0f} ms),"
                f" HTML {figures['html'] / 1024:.0f} KiB, {figures['requests']} requests,"
                f" {figures['transferred'] / 1024:.0f} KiB transferred,"
                f" {figures['images']} images {figures['imageBytes'] / 1024:.0f} KiB (last at {figures['imagesDone']:.0f} ms);"
                f" {figures['shown']} of {figures['cards']} cards not paged out", flush=True)
        cached = sorted(r["load"] for r in results[1:]) or [results[0]["load"]]
        print(json.dumps({"snapshots": count, "firstLoadMs": round(results[0]["load"]),
                          "medianCachedLoadMs": round(cached[len(cached) // 2]),
                          "htmlKiB": round(results[-1]["html"] / 1024), "requests": results[-1]["requests"],
                          "transferredKiB": round(results[-1]["transferred"] / 1024),
                          "imageKiB": round(results[-1]["imageBytes"] / 1024)}))
        return 0
    except CannotRun as error:
        print(f"review_page_bench: cannot run: {error}", file=sys.stderr)
        return 2
    finally:
        if driver:
            driver.quit()
        if server:
            server.stop()
        if arguments.keep or arguments.project:
            print(f"kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
