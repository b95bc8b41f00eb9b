#!/usr/bin/env python3
"""Do the match levels flake on rendering noise, and do they miss real changes?

Usage: scripts/bench/verdicts.py [--render] [--corpus DIR] [--snapdiff PATH] [--details]

Renders a few small HTML pages in headless Chromium (Selenium, the system's chromedriver) at
device scale factor 2, once with plain settings and once per noise setting, plus one-change
variants of each page, each also rendered under noise, and beside every PNG its element tree
from the DOM (NAME.tree.json, snapdiff's tree format: a button with its title as label, a field
with its text as value, every other run of text a staticText framed by its text's bounding box).
Then it runs `snapdiff compare` on every pair at every match level and prints a confusion table:
noise pairs failed (false alarms) and real changes missed.

Noise settings (one Chromium process each; a screenshot differs only in how it was rasterised):
  subpixel-off   --disable-font-subpixel-positioning
  display-p3     --force-color-profile=display-p3-d65: Chromium renders for a Display P3 screen
                 and tags its screenshot with that profile (an iCCP chunk, "Display P3 Gamut
                 with sRGB Transfer"), as Apple platforms tag theirs
  hinting        fontconfig full hinting (autohinter), with subpixel positioning off (Skia
                 hints only glyphs it does not position by subpixels)
  lcd            fontconfig rgba=rgb: LCD subpixel text (coloured glyph edges)
  stroke         (in the page) -webkit-text-stroke: 0.2px: a hair more ink on every glyph
  radius         (in the page) corner radii 6.5 px instead of 6, rendered plainly
One-change variants (pages: card, list, form unless said):
  color          the button #007aff -> #0a84ff (CIEDE2000 3.5)
  word           one word of the body text changed ("today" -> "Today")
  border         the 1-px border of the card removed
  digit          (receipt) "$12.80" -> "$12.86"
  stop           (receipt) the full stop ending "Order 4031 ships today." removed
  move           the button moved right by half a CSS pixel: one device pixel
  vanish         one label drawn transparent: its text is still in the tree, its ink gone
  ink            the text colour #1c1c1e -> #3a3a3c
Pairs: noise = (plain page, page under a noise setting); change = (plain page, changed page
rendered plainly or under the noise settings listed in CHANGES).

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

# fontconfig files for the text-rasterisation noise (Chromium reads them through
# FONTCONFIG_FILE). Full hinting only takes effect without subpixel positioning (Skia ignores
# hinting for subpixel-positioned glyphs), so `hinting` is both.
FONTCONFIG = {
    "hint": '<match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit>'
            '<edit name="hintstyle" mode="assign"><const>hintfull</const></edit>'
            '<edit name="autohint" mode="assign"><bool>true</bool></edit></match>',
    "lcd": '<match target="font"><edit name="rgba" mode="assign"><const>rgb</const></edit>'
           '<edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit></match>',
}
# How a render is rasterised: (Chromium flags, fontconfig file, extra CSS). --disable-lcd-text,
# --enable-lcd-text and --font-render-hinting=* were tried and changed no pixel in headless
# Chromium 156; fontconfig's settings do.
SETTINGS = {
    "plain": ([], None, ""),
    "subpixel-off": (["--disable-font-subpixel-positioning"], None, ""),
    "display-p3": (["--force-color-profile=display-p3-d65"], None, ""),
    "hinting": (["--disable-font-subpixel-positioning"], "hint", ""),
    "lcd": ([], "lcd", ""),
    "stroke": ([], None, "body { -webkit-text-stroke: 0.2px currentColor; }"),
}
# Settings that only change how text is rasterised.
TEXT_NOISE = ["subpixel-off", "hinting", "lcd", "stroke"]
# Noise made in the page: corner radii half a pixel larger, as another rasteriser's
# anti-aliasing of a curve differs (rendered with the plain settings).
PAGE_NOISE = ["radius"]
# One-change variants, with the pages that have them and the settings they are rendered under
# besides plain.
SCREENS = ["card", "list", "form"]
CHANGES = {
    "color": (SCREENS, ["subpixel-off", "display-p3"]),
    "word": (SCREENS, TEXT_NOISE),
    "border": (SCREENS, ["subpixel-off", "lcd"]),
    "digit": (["receipt"], TEXT_NOISE),
    "stop": (["receipt"], TEXT_NOISE),
    "move": (SCREENS, ["subpixel-off", "lcd"]),
    "vanish": (SCREENS, ["subpixel-off", "lcd"]),
    "ink": (SCREENS, ["lcd"]),
}
# `strict-untagged` is `strict` on copies without their iCCP chunk: what snapdiff did before it
# read colour profiles.
LEVELS = ["exact", "strict", "strict-untagged", "ignore-colors", "layout", "perceptual", "text-aware"]

STYLE = """
body { margin: 0; padding: 10px; font: 13px 'DejaVu Sans', sans-serif; color: %(ink)s; background: #fff; }
.card { border: 1px solid %(border)s; border-radius: %(radius)s; padding: 8px; }
h1 { font-size: 16px; margin: 0 0 4px; }
p { margin: 0 0 8px; line-height: 1.3; }
.button { display: inline-block; background: %(button)s; color: #fff; border-radius: %(radius)s; padding: 4px 12px; font-weight: bold; %(move)s }
.row { display: flex; justify-content: space-between; border-bottom: 1px solid #c6c6c8; padding: 3px 0; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; background: #34c759; }
.gone { color: %(gone)s; }
"""

PAGES = {
    "card": """<div class="card"><h1 class="gone">Delivery</h1>
<p>Your order shipped %(word)s and arrives on Friday%(stop)s</p>
<span class="button">Track</span></div>""",
    "list": """<div class="card"><div class="row"><span><span class="dot"></span> Revenue</span><span>$12,480</span></div>
<div class="row"><span>Sessions %(word)s</span><span>3,912</span></div>
<div class="row"><span class="gone">Growth</span><span>+4.2%%</span></div>
<p></p><span class="button">Export</span></div>""",
    "form": """<div class="card"><p class="gone">Email</p><p data-field="Email" style="border:1px solid #c6c6c8;border-radius:4px;padding:3px">anna@example.com</p>
<p>Plan: Premium, renews %(word)s</p><span class="button">Save</span></div>""",
    "receipt": """<div class="card"><h1>Receipt</h1><p>Order 4031 ships today%(stop)s</p><p>Total: %(total)s</p></div>""",
}

# The element tree of the page in snapdiff's format, from the DOM, as XCUITest would give it:
# a button with its title as label and no children, a field (data-field) with its text as
# value, every other run of text a staticText framed by its text's bounding box; containers are
# `other`. Frames in CSS pixels, which are points at device scale factor 2.
TREE_SCRIPT = """
function frame(r) { return {x: r.x, y: r.y, width: r.width, height: r.height}; }
function walk(el) {
  const node = {elementType: 'other', frame: frame(el.getBoundingClientRect()), children: []};
  if (el.classList.contains('button')) {
    node.elementType = 'button'; node.label = el.textContent.trim(); return node;
  }
  if (el.dataset.field) {
    node.elementType = 'textField'; node.label = el.dataset.field; node.value = el.textContent.trim(); return node;
  }
  for (const child of el.childNodes) {
    if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) {
      const range = document.createRange(); range.selectNodeContents(child);
      node.children.push({elementType: 'staticText', label: child.textContent.trim().replace(/\\s+/g, ' '),
                          frame: frame(range.getBoundingClientRect())});
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      node.children.push(walk(child));
    }
  }
  return node;
}
const root = walk(document.body);
root.elementType = 'application';
root.frame = {x: 0, y: 0, width: %(width)d, height: %(height)d};
return {scale: %(scale)d, screen: {width: %(width)d, height: %(height)d}, root: root};
""" % {"width": WIDTH, "height": HEIGHT, "scale": SCALE}


def html(page, change, setting="plain"):
    values = {
        "border": "transparent" if change == "border" else "#c7c7cc",
        "button": "#0a84ff" if change == "color" else "#007aff",
        "word": "Today" if change == "word" else "today",
        "radius": "6.5px" if change == "radius" else "6px",
        "total": "$12.86" if change == "digit" else "$12.80",
        "stop": "" if change == "stop" else ".",
        # Half a CSS pixel: one device pixel at scale 2.
        "move": "position: relative; left: 0.5px;" if change == "move" else "",
        "gone": "transparent" if change == "vanish" else "inherit",
        "ink": "#3a3a3c" if change == "ink" else "#1c1c1e",
    }
    body = PAGES[page] % values
    return "<!doctype html><html><head><meta charset='utf-8'><style>%s%s</style></head><body>%s</body></html>" % (
        STYLE % values, SETTINGS[setting][2], body)


def start_browser(flags, fontconfig, profile_dir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("google-chrome")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--force-device-scale-factor={SCALE}",
                     f"--window-size={WIDTH},{HEIGHT + 200}", f"--user-data-dir={profile_dir}"] + flags:
        options.add_argument(argument)
    env = dict(os.environ)
    if fontconfig:
        env["FONTCONFIG_FILE"] = fontconfig
    service = Service(executable_path=shutil.which("chromedriver"), log_output=os.devnull, env=env)
    return webdriver.Chrome(options=options, service=service)


def screenshot(driver, path_html):
    import base64

    driver.get("file://" + path_html)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 1}})
    return base64.b64decode(shot["data"]), driver.execute_script(TREE_SCRIPT)


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
        for setting, (flags, fontconfig, _) in SETTINGS.items():
            config = None
            if fontconfig:
                config = os.path.join(scratch, f"fonts-{fontconfig}.conf")
                with open(config, "w") as f:
                    f.write('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                            '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>%s</fontconfig>'
                            % FONTCONFIG[fontconfig])
            driver = start_browser(flags, config, os.path.join(scratch, "profile-" + setting))
            try:
                for page in PAGES:
                    for change in [None] + list(CHANGES) + PAGE_NOISE:
                        if not wanted(page, change, setting):
                            continue
                        source = os.path.join(scratch, f"{page}-{change}-{setting}.html")
                        with open(source, "w") as f:
                            f.write(html(page, change, setting))
                        png, tree = screenshot(driver, source)
                        name = f"{page}-{change or 'same'}-{setting}"
                        recompress(png, os.path.join(corpus, name + ".png"))
                        with open(os.path.join(corpus, name + ".tree.json"), "w") as f:
                            json.dump(tree, f, separators=(",", ":"), sort_keys=True)
                            f.write("\n")
            finally:
                driver.quit()


def wanted(page, change, setting):
    """Whether the corpus has this render: every page plainly and under each setting; page
    noise plainly; each change plainly and under its settings (CHANGES), on its pages."""
    if change is None:
        return True
    if change in PAGE_NOISE:
        return setting == "plain" and page in SCREENS
    pages, settings = CHANGES[change]
    return (pages is None or page in pages) and (setting == "plain" or setting in settings)


def pairs():
    """(kind, page, label, baseline name, current name)."""
    for page in PAGES:
        base = f"{page}-same-plain.png"
        for setting in SETTINGS:
            if setting != "plain":
                yield "noise", page, setting, base, f"{page}-same-{setting}.png"
        for change in PAGE_NOISE:
            if wanted(page, change, "plain"):
                yield "noise", page, change, base, f"{page}-{change}-plain.png"
        for change in CHANGES:
            for setting in SETTINGS:
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
