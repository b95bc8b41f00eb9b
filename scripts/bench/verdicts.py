#!/usr/bin/env python3
"""Do the match levels flake on rendering noise, and do they miss real changes?

Usage: scripts/bench/verdicts.py [--render] [--corpus DIR] [--snapdiff PATH] [--markdown]

Renders a few small HTML pages in headless Chromium (Selenium, the system's chromedriver) at
device scale factor 2, once with plain settings and once per noise setting, plus one-change
variants of each page, each also rendered under noise. Then it runs `snapdiff compare` on every
pair at every match level and prints a confusion table: noise pairs failed (false alarms) and
real changes missed.

Noise settings (one Chromium process each; a screenshot differs only in how it was rasterised):
  subpixel-off   --disable-font-subpixel-positioning
  display-p3     --force-color-profile=display-p3-d65: Chromium renders for a Display P3 screen
                 and tags its screenshot with that profile (an iCCP chunk, "Display P3 Gamut
                 with sRGB Transfer"), as Apple platforms tag theirs
  radius         (in the page) corner radii 6.5 px instead of 6, rendered with plain flags
One-change variants:
  color          the button #007aff -> #0a84ff (CIEDE2000 3.5)
  word           one word of the body text changed ("today" -> "Today")
  border         the 1-px border of the card removed
Pairs: noise = (plain page, page under a noise setting); change = (plain page, changed page
rendered plainly or under a noise setting: the colour change under each, the others plainly and
under subpixel-off).

--render renders the corpus into DIR (default Tests/SnapdiffCoreTests/Fixtures/verdicts, where
the committed corpus lives); without it, the committed corpus is compared. Needs chromium,
chromedriver and selenium only with --render.

Exit status: 0 when done; 2 on a setup error.
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_CORPUS = os.path.join(ROOT, "Tests", "SnapdiffCoreTests", "Fixtures", "verdicts")
WIDTH, HEIGHT, SCALE = 200, 120, 2

# Chromium flags per noise setting (--disable-lcd-text and --font-render-hinting=* were tried
# and changed no pixel in headless Chromium 156, so they are not here).
NOISE = {
    "subpixel-off": ["--disable-font-subpixel-positioning"],
    "display-p3": ["--force-color-profile=display-p3-d65"],
}
# Noise made in the page: corner radii half a pixel larger, as another rasteriser's
# anti-aliasing of a curve differs (rendered with the plain flags).
PAGE_NOISE = ["radius"]
CHANGES = ["color", "word", "border"]
# `strict-untagged` is `strict` on copies without their iCCP chunk: what snapdiff did before it
# read colour profiles.
LEVELS = ["exact", "strict", "strict-untagged", "ignore-colors", "perceptual"]

STYLE = """
body { margin: 0; padding: 10px; font: 13px 'DejaVu Sans', sans-serif; color: #1c1c1e; background: #fff; }
.card { border: 1px solid %(border)s; border-radius: %(radius)s; padding: 8px; }
h1 { font-size: 16px; margin: 0 0 4px; }
p { margin: 0 0 8px; line-height: 1.3; }
.button { display: inline-block; background: %(button)s; color: #fff; border-radius: %(radius)s; padding: 4px 12px; font-weight: bold; }
.row { display: flex; justify-content: space-between; border-bottom: 1px solid #c6c6c8; padding: 3px 0; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; background: #34c759; }
"""

PAGES = {
    "card": """<div class="card"><h1>Delivery</h1>
<p>Your order shipped %(word)s and arrives on Friday.</p>
<span class="button">Track</span></div>""",
    "list": """<div class="card"><div class="row"><span><span class="dot"></span> Revenue</span><span>$12,480</span></div>
<div class="row"><span>Sessions %(word)s</span><span>3,912</span></div>
<div class="row"><span>Growth</span><span>+4.2%%</span></div>
<p></p><span class="button">Export</span></div>""",
    "form": """<div class="card"><p>Email</p><p style="border:1px solid #c6c6c8;border-radius:4px;padding:3px">anna@example.com</p>
<p>Plan: Premium, renews %(word)s</p><span class="button">Save</span></div>""",
}


def html(page, change):
    values = {
        "border": "transparent" if change == "border" else "#c7c7cc",
        "button": "#0a84ff" if change == "color" else "#007aff",
        "word": "Today" if change == "word" else "today",
        "radius": "6.5px" if change == "radius" else "6px",
    }
    body = PAGES[page] % values
    return "<!doctype html><html><head><meta charset='utf-8'><style>%s</style></head><body>%s</body></html>" % (
        STYLE % values, body)


def start_browser(flags, profile_dir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("google-chrome")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--force-device-scale-factor={SCALE}",
                     f"--window-size={WIDTH},{HEIGHT + 200}", f"--user-data-dir={profile_dir}"] + flags:
        options.add_argument(argument)
    service = Service(executable_path=shutil.which("chromedriver"), log_output=os.devnull)
    return webdriver.Chrome(options=options, service=service)


def screenshot(driver, path_html):
    import base64

    driver.get("file://" + path_html)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 1}})
    return base64.b64decode(shot["data"])


def recompress(png, path):
    """Writes `png` with its pixels and iCCP unchanged, smaller (Pillow, optimize)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png))
    profile = image.info.get("icc_profile")
    image.save(path, format="PNG", optimize=True, **({"icc_profile": profile} if profile else {}))


def render(corpus):
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        sys.exit("verdicts.py: --render needs chromium and chromedriver on PATH")
    os.makedirs(corpus, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for setting, flags in [("plain", [])] + list(NOISE.items()):
            driver = start_browser(flags, os.path.join(scratch, "profile-" + setting))
            try:
                for page in PAGES:
                    for change in [None] + CHANGES + PAGE_NOISE:
                        if not wanted(page, change, setting):
                            continue
                        source = os.path.join(scratch, f"{page}-{change}.html")
                        with open(source, "w") as f:
                            f.write(html(page, change))
                        png = screenshot(driver, source)
                        name = f"{page}-{change or 'same'}-{setting}.png"
                        recompress(png, os.path.join(corpus, name))
            finally:
                driver.quit()


def wanted(page, change, setting):
    """Whether the corpus has this render: every page plainly and under each noise setting;
    page noise plainly; the colour change under every setting, the others plainly and under
    subpixel-off (under display-p3 they add nothing the colour change does not show)."""
    if change is None or setting == "plain":
        return True
    if change in PAGE_NOISE:
        return False
    return change == "color" or setting == "subpixel-off"


def pairs():
    """(kind, page, label, baseline name, current name)."""
    for page in PAGES:
        base = f"{page}-same-plain.png"
        for setting in NOISE:
            yield "noise", page, setting, base, f"{page}-same-{setting}.png"
        for change in PAGE_NOISE:
            yield "noise", page, change, base, f"{page}-{change}-plain.png"
        for change in CHANGES:
            for setting in ["plain"] + list(NOISE):
                if wanted(page, change, setting):
                    yield "change", page, f"{change} ({setting})", base, f"{page}-{change}-{setting}.png"


def untagged_copy(corpus, name, scratch):
    """A copy of `name` without its iCCP chunk, in `scratch`."""
    data = open(os.path.join(corpus, name), "rb").read()
    out, offset = data[:8], 8
    while offset < len(data):
        length = struct.unpack(">I", data[offset:offset + 4])[0]
        chunk = data[offset:offset + 12 + length]
        if chunk[4:8] != b"iCCP":
            out += chunk
        offset += 12 + length
    path = os.path.join(scratch, name)
    with open(path, "wb") as f:
        f.write(out)
    return path


def compare(snapdiff, corpus, a, b, level, scratch):
    paths = [os.path.join(corpus, a), os.path.join(corpus, b)]
    if level == "strict-untagged":
        paths = [untagged_copy(corpus, a, scratch), untagged_copy(corpus, b, scratch)]
        level = "strict"
    output = subprocess.run([snapdiff, "compare", *paths, "--match", level, "--json"],
                            capture_output=True, text=True)
    if output.returncode not in (0, 1):
        sys.exit(f"verdicts.py: snapdiff failed on {a} {b}: {output.stderr.strip()}")
    return json.loads(output.stdout)


def main():
    parser = argparse.ArgumentParser(description="Confusion table of snapdiff's match levels on a Chromium corpus.")
    parser.add_argument("--render", action="store_true", help="render the corpus first (needs Chromium)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    parser.add_argument("--details", action="store_true", help="print every pair's different pixels per level")
    args = parser.parse_args()
    if args.render:
        render(args.corpus)
    if not os.access(args.snapdiff, os.X_OK):
        sys.exit(f"verdicts.py: no snapdiff at {args.snapdiff} (swift build -c release --product snapdiff)")
    all_pairs = list(pairs())
    noise_total = sum(1 for p in all_pairs if p[0] == "noise")
    change_total = len(all_pairs) - noise_total
    rows = []
    details = []
    scratch = tempfile.mkdtemp(prefix="verdicts-")
    for level in LEVELS:
        false_alarms, missed = [], []
        for kind, page, label, a, b in all_pairs:
            result = compare(args.snapdiff, args.corpus, a, b, level, scratch)
            details.append((level, kind, page, label, result["differentPixels"], result["passed"]))
            if kind == "noise" and not result["passed"]:
                false_alarms.append(f"{page}/{label}")
            if kind == "change" and result["passed"]:
                missed.append(f"{page}/{label}")
        rows.append((level, false_alarms, missed))
    shutil.rmtree(scratch)
    print(f"| match level | noise pairs failed (of {noise_total}) | changes missed (of {change_total}) |")
    print("|---|---|---|")
    for level, false_alarms, missed in rows:
        print(f"| `{level}` | {len(false_alarms)} | {len(missed)} |")
    print()
    for level, false_alarms, missed in rows:
        print(f"{level}: noise failed: {', '.join(false_alarms) or '-'}")
        print(f"{' ' * len(level)}  changes missed: {', '.join(missed) or '-'}")
    if args.details:
        print()
        for level, kind, page, label, count, passed in details:
            print(f"{level:14} {kind:7} {page:5} {label:28} {count:7} {'pass' if passed else 'FAIL'}")


if __name__ == "__main__":
    main()
