#!/usr/bin/env python3
"""Do the match levels flake on rendering noise, and do they miss real changes?

Usage: scripts/bench/verdicts.py [--heldout | --styles] [--render] [--corpus DIR] [--snapdiff PATH]
                                 [--levels LEVEL,...] [--details]

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
  shift          the button's title moved right by one device pixel inside the button (its
                 frame, the only one the tree has for it, unchanged)
  vanish         one label drawn transparent: its text is still in the tree, its ink gone
  ink            the text colour #1c1c1e -> #3a3a3c
Pairs: noise = (plain page, page under a noise setting); change = (plain page, changed page
rendered plainly or under the noise settings listed in CHANGES).

--heldout takes the held-out corpus instead: seven pages of other kinds (HELDOUT_PAGES: settings
with switches and hairlines, chat bubbles, a profile header, a tab bar with icons, dense 9-px
text, dark mode, Cyrillic and Greek), made after the levels' defaults were set and never used
to tune them, with their own changes (HELDOUT_CHANGES), in
Tests/SnapdiffCoreTests/Fixtures/verdicts-heldout.

--styles takes the style corpus instead (issue 27): five pages of other designs (STYLES_PAGES:
an article with a serif headline and grey text, stat cards with larger radii, a navigation bar
with inset dividers, a tinted banner, a ledger set at fractional sizes and offsets; Liberation
Sans and Serif beside DejaVu) under rasterisations the other corpora lack (STYLES_SETTINGS: full
hinting with and without the autohinter, no hinting, LCD text in BGR order with the light filter,
CSS geometricPrecision with and without subpixel positioning), radius +0.5 px, and changes
(STYLES_CHANGES: a word, a whole element's colour, grey text's colour, an icon, a divider's
inset, a real radius change, a label moved, a title moved inside its pill), in
Tests/SnapdiffCoreTests/Fixtures/verdicts-styles. Made to check that `text-aware` generalises.

--levels compares at the listed levels only (default: all of LEVELS).

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
HELDOUT_CORPUS = os.path.join(ROOT, "Tests", "SnapdiffCoreTests", "Fixtures", "verdicts-heldout")
STYLES_CORPUS = os.path.join(ROOT, "Tests", "SnapdiffCoreTests", "Fixtures", "verdicts-styles")
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
    "shift": (SCREENS, ["subpixel-off", "hinting", "lcd"]),
    "vanish": (SCREENS, ["subpixel-off", "lcd"]),
    "ink": (SCREENS, ["lcd"]),
}
# `strict-untagged` is `strict` on copies without their iCCP chunk: what snapdiff did before it
# read colour profiles.
LEVELS = ["exact", "strict", "strict-untagged", "ignore-colors", "layout", "perceptual", "text-aware", "rendering-tolerant"]

STYLE = """
body { margin: 0; padding: 10px; font: 13px 'DejaVu Sans', sans-serif; color: %(ink)s; background: #fff; }
.card { border: 1px solid %(border)s; border-radius: %(radius)s; padding: 8px; }
h1 { font-size: 16px; margin: 0 0 4px; }
p { margin: 0 0 8px; line-height: 1.3; }
.button { display: inline-block; background: %(button)s; color: #fff; border-radius: %(radius)s; padding: %(padding)s; font-weight: bold; %(move)s }
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

# The held-out corpus (--heldout): pages of other kinds, made after the levels' defaults were
# set and never used to tune them (Tests/SnapdiffCoreTests/Fixtures/verdicts-heldout). The same
# noise settings; changes that make sense for these pages. Each change names the pages it is
# made on, the noise settings it is also rendered under, and the page values it changes
# (key: (as in the page, as changed)); page noise `radius` adds half a pixel to every radius.
HELDOUT_STYLE = """
html { background: %(page)s; }
body { margin: 0; padding: 8px; width: 200px; height: 120px; box-sizing: border-box; position: relative; overflow: hidden; font: 12px 'DejaVu Sans', sans-serif; color: %(ink)s; background: %(page)s; }
.group { background: %(surface)s; border-radius: calc(8px + %(dr)s); }
.srow { display: flex; align-items: center; height: 24px; padding: 0 8px; gap: 6px; }
.icon { display: inline-block; width: 14px; height: 14px; border-radius: calc(3px + %(dr)s); }
.fill { flex: 1; }
.muted { color: #8e8e93; }
.chev { display: inline-block; width: 5px; height: 5px; border-right: 1.5px solid #c4c4c7; border-top: 1.5px solid #c4c4c7; transform: rotate(45deg); margin-right: 2px; %(chev)s }
.sep { border-top: 0.5px solid %(line)s; margin-left: 28px; }
.sw { display: inline-block; position: relative; width: 28px; height: 16px; border-radius: calc(8px + %(dr)s); background: #34c759; }
.sw::after { content: ''; position: absolute; top: 2px; left: 14px; width: 12px; height: 12px; border-radius: calc(6px + %(dr)s); background: #fff; }
.sw.off { background: #e9e9ea; }
.sw.off::after { left: 2px; }
.time { font-size: 9px; color: %(time)s; text-align: center; margin: 2px 0; }
.msg { max-width: 140px; width: fit-content; padding: 4px 8px; border-radius: calc(10px + %(dr)s); margin: 3px 0; line-height: 1.25; }
.in { background: %(bubble)s; color: #000; }
.out { background: #007aff; color: #fff; margin-left: auto; %(out)s }
.head { display: flex; align-items: center; gap: 10px; }
.avatar { position: relative; width: 44px; height: 44px; border-radius: calc(22px + %(dr)s); background: %(avatar)s; color: #fff; font: bold 16px 'DejaVu Sans'; display: flex; align-items: center; justify-content: center; %(avmove)s }
.badge { position: absolute; top: -3px; right: -5px; min-width: 14px; height: 14px; padding: 0 2px; box-sizing: border-box; border-radius: calc(7px + %(dr)s); background: %(badge)s; color: #fff; font: bold 9px/14px 'DejaVu Sans'; text-align: center; border: 1px solid #fff; %(nobadge)s }
.name { font-size: 14px; font-weight: %(weight)s; }
.sub { font-size: 10px; color: #8e8e93; }
.stats { display: flex; gap: 14px; margin-top: 10px; font-size: 11px; }
.tabs { position: absolute; left: 0; right: 0; top: 78px; height: 42px; display: flex; border-top: 0.5px solid %(tabline)s; background: #f9f9f9; }
.tab { flex: 1; display: flex; flex-direction: column; align-items: center; padding-top: 4px; font-size: 9px; color: #8e8e93; }
.tab svg { width: 18px; height: 18px; fill: currentColor; }
.sel { color: %(tint)s; }
.dense { font-size: 9px; line-height: 11.5px; }
.dense p { margin: 0; }
.dark { background: #1c1c1e; border-radius: calc(10px + %(dr)s); padding: 8px; color: %(darkink)s; }
.dark .row { display: flex; justify-content: space-between; padding: 3px 0; border-bottom: 0.5px solid %(darkline)s; }
.bar { height: 4px; border-radius: calc(2px + %(dr)s); background: #3a3a3c; margin: 6px 0; }
.bar i { display: block; height: 4px; width: 85%%; border-radius: calc(2px + %(dr)s); background: #30d158; }
.pill { display: inline-block; background: %(darkbutton)s; color: #fff; border-radius: calc(12px + %(dr)s); padding: %(pill)s; font-weight: bold; }
"""

HELDOUT_PAGES = {
    # A grouped settings list: square icons, toggle switches, chevrons, hairline separators.
    "settings": """<div class="group">
<div class="srow"><span class="icon" style="background:%(icon)s" data-image="Wi-Fi icon"></span><span>Wi-Fi</span><span class="fill"></span><span class="muted">Home</span><span class="chev"></span></div>
<div class="sep"></div>
<div class="srow"><span class="icon" style="background:%(orange)s"></span><span>%(airplane)s</span><span class="fill"></span><span class="sw off" data-switch="Airplane Mode"></span></div>
<div class="sep" style="%(nosep)s"></div>
<div class="srow"><span class="icon" style="background:#ff3b30"></span><span>Notifications</span><span class="fill"></span><span class="%(toggle)s" data-switch="Notifications"></span></div>
<div class="sep"></div>
<div class="srow"><span class="icon" style="background:#8e8e93"></span><span>General</span><span class="fill"></span><span class="chev"></span></div>
</div>""",
    # A chat: bubbles both ways, small timestamps.
    "chat": """<div class="time">Today %(sent)s</div>
<div class="msg in">Are we still on for %(meal)s?</div>
<div class="msg out">Yes! %(at)s at Nora's</div>
<div class="time">Read 9:43</div>""",
    # A profile header: an avatar circle with initials (an image: its initials are not in the
    # tree) and a notification badge, a name, a subtitle, counts.
    "profile": """<div class="head"><div class="avatar" data-image="Anna Kowalski">AK<div class="badge">%(count)s</div></div>
<div><div class="name">Anna Kowalski</div><div class="sub">Product %(role)s · Kraków</div></div></div>
<div class="stats"><span><b>128</b> posts</span><span><b>4.2k</b> followers</span></div>""",
    # A tab bar with icons (inline SVG) and labels: XCUITest gives each item as a button labelled
    # with its title, its frame holding icon and title.
    "tabs": """<div style="font-size:15px;font-weight:bold">Library</div><div class="muted" style="font-size:10px">3 albums, 41 songs</div>
<div class="tabs">
<div class="tab button %(home)s"><svg viewBox="0 0 20 20"><path d="M10 2 2 9h2v8h4v-5h4v5h4V9h2z"/></svg>Home</div>
<div class="tab button"><svg viewBox="0 0 20 20" style="%(noicon)s"><path d="M8.5 2a6.5 6.5 0 0 1 5.2 10.4l4 4-1.4 1.4-4-4A6.5 6.5 0 1 1 8.5 2zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9z"/></svg>Search</div>
<div class="tab button %(library)s"><svg viewBox="0 0 20 20"><path d="M3 3h3v14H3zm5 0h3v14H8zm5.2.6 2.9-.8 3.6 13.5-2.9.8z"/></svg>Library</div>
<div class="tab button"><svg viewBox="0 0 20 20"><circle cx="10" cy="6" r="4"/><path d="M2 18c0-4 3.6-6 8-6s8 2 8 6z"/></svg>%(profile)s</div>
</div>""",
    # Dense small text: nine lines of 9-px text.
    "dense": """<div class="dense">
<p>Build 2114 · main · 3 min ago</p>
<p>Tests %(tests)s passed, 2 skipped</p>
<p>Coverage 81.4%% (+0.3)</p>
<p>Artifacts: app.ipa%(comma)s dSYM.zip</p>
<p style="%(linemove)s">Duration 4m 12s; queue 18s</p>
<p>Commit a91f3c2 by anna</p>
<p>Deploy to %(env)s pending</p>
<p>Signed by Distribution: Acme Ltd</p>
<p>Next run at 14:05 UTC%(stop)s</p></div>""",
    # A dark-mode card: light text on near-black, hairlines, a progress bar, a pill button.
    "dark": """<div class="dark"><div style="font-weight:bold;font-size:14px">%(title)s</div>
<div class="row"><span>iCloud</span><span>%(used)s GB of 50 GB</span></div>
<div class="bar"><i></i></div>
<div class="row" style="border:0"><span class="muted">Photos, Mail, Backups</span></div>
<span class="pill button">Manage</span></div>""",
    # Non-Latin text (Cyrillic, Greek; DejaVu Sans has both).
    "cyrillic": """<div style="font-size:14px;font-weight:bold">Заказ № 4031</div>
<p style="margin:4px 0">%(shipped)s сегодня%(cstop)s</p>
<p style="margin:4px 0">Итого: %(sum)s руб.</p>
<p style="margin:4px 0" class="muted">Ευχαριστούμε, %(greek)s!</p>""",
}

# change: (pages, noise settings it is also rendered under, {key: (in the page, changed)}).
HELDOUT_CHANGES = {
    "color": (["settings", "chat", "profile", "dark"], ["subpixel-off", "display-p3"], {
        # ΔE00 3.06, 3.03, 3.04, 3.14
        "icon": ("#ff9500", "#ff8c00"), "bubble": ("#e9e9eb", "#dcdce0"),
        "avatar": ("#5856d6", "#5e5ce6"), "darkbutton": ("#0a84ff", "#0a7cf0")}),
    "tint": (["tabs"], ["subpixel-off", "lcd"], {"tint": ("#007aff", "#0a7fef")}),  # ΔE00 2.92
    "word": (["settings", "chat", "profile", "tabs", "dense", "dark"], ["hinting", "lcd"], {
        "airplane": ("Airplane Mode", "Airplane mode"), "meal": ("lunch", "brunch"),
        "role": ("designer", "Designer"), "profile": ("Profile", "Account"),
        "env": ("staging", "production"), "title": ("Storage", "Storage full")}),
    "digit": (["chat", "profile", "dense", "dark", "cyrillic"], ["hinting", "lcd"], {
        "at": ("12:30", "12:36"), "count": ("3", "8"), "tests": ("1,204", "1,209"),
        "used": ("42.7", "42.1"), "sum": ("1 280", "1 230")}),
    "time": (["chat"], ["subpixel-off", "lcd"], {"sent": ("9:41", "9:47")}),
    "stop": (["dense", "cyrillic"], ["hinting", "lcd", "stroke"], {"stop": (".", ""), "cstop": (".", "")}),
    "comma": (["dense"], ["hinting", "lcd"], {"comma": (",", "")}),
    "letter": (["cyrillic"], ["hinting", "lcd"], {"shipped": ("Отправлен", "Отправлено"), "greek": ("Άννα", "Άνα")}),
    "weight": (["profile"], ["hinting", "lcd"], {"weight": ("bold", "normal")}),
    "toggle": (["settings"], ["subpixel-off", "lcd"], {"toggle": ("sw", "sw off")}),
    "separator": (["settings", "tabs", "dark"], ["subpixel-off", "lcd"], {
        "nosep": ("", "border-top-color: transparent"), "tabline": ("#c6c6c8", "transparent"),
        "darkline": ("#38383a", "transparent")}),
    "icon": (["settings", "profile", "tabs"], ["subpixel-off", "lcd"], {
        "orange": ("#ff9500", "transparent"), "nobadge": ("", "display: none;"),
        "noicon": ("", "visibility: hidden")}),
    "select": (["tabs"], ["subpixel-off"], {"library": ("sel", ""), "home": ("", "sel")}),
    "move": (["settings", "chat", "profile", "dense"], ["subpixel-off", "lcd"], {
        # Half a CSS pixel: one device pixel at scale 2.
        "chev": ("", "position: relative; left: 0.5px;"), "out": ("", "position: relative; left: -0.5px;"),
        "avmove": ("", "left: 0.5px;"), "linemove": ("", "position: relative; left: 0.5px;")}),
    "ink": (["dark"], ["lcd"], {"darkink": ("#ffffff", "#e5e5ea")}),
    # The pill's title one device pixel to the right inside the same pill (added after the
    # levels were tuned, to check that a label moved inside its frame fails).
    "shift": (["dark"], ["hinting", "lcd"], {"pill": ("3px 12px", "3px 11.5px 3px 12.5px")}),
    "time-color": (["chat"], ["lcd"], {"time": ("#8e8e93", "#86868c")}),  # ΔE00 2.84
}
HELDOUT_BASE = {"ink": "#1c1c1e", "page": "#f2f2f7", "surface": "#fff", "line": "#c6c6c8",
                "dr": "0px", "badge": "#ff3b30"}
HELDOUT_PAGE_VALUES = {"dark": {"page": "#000"}, "dense": {"page": "#fff"}, "tabs": {"page": "#fff"}}

# The style corpus (--styles): pages of other designs (other fonts, grey text on tinted
# backgrounds, cards with larger radii, a navigation bar, inset dividers), made after
# `text-aware` was tuned on the two corpora above, rendered under the text-rasterisation
# settings those corpora lack or have few of: full and no hinting, LCD text in RGB and BGR
# order with another filter, CSS geometric precision. Made to check that `text-aware`
# generalises (issue 27), in Tests/SnapdiffCoreTests/Fixtures/verdicts-styles.
STYLES_SETTINGS = {
    "plain": ([], None, ""),
    "subpixel-off": (["--disable-font-subpixel-positioning"], None, ""),
    "hinting": (["--disable-font-subpixel-positioning"], "hint", ""),
    "hint-full": (["--disable-font-subpixel-positioning"], "hintfull", ""),
    "hint-none": (["--disable-font-subpixel-positioning"], "nohint", ""),
    "lcd": ([], "lcd", ""),
    "lcd-bgr": (["--disable-font-subpixel-positioning"], "lcd-bgr", ""),
    "geometric": ([], None, "body, body * { text-rendering: geometricPrecision; }"),
    "geometric-off": (["--disable-font-subpixel-positioning"], None,
                      "body, body * { text-rendering: geometricPrecision; }"),
}
FONTCONFIG.update({
    "hintfull": '<match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit>'
                '<edit name="hintstyle" mode="assign"><const>hintfull</const></edit>'
                '<edit name="autohint" mode="assign"><bool>false</bool></edit></match>',
    "nohint": '<match target="font"><edit name="hinting" mode="assign"><bool>false</bool></edit>'
              '<edit name="hintstyle" mode="assign"><const>hintnone</const></edit></match>',
    "lcd-bgr": '<match target="font"><edit name="rgba" mode="assign"><const>bgr</const></edit>'
               '<edit name="lcdfilter" mode="assign"><const>lcdlight</const></edit>'
               '<edit name="hintstyle" mode="assign"><const>hintslight</const></edit></match>',
})

STYLES_STYLE = """
html { background: %(page)s; }
body { margin: 0; padding: 8px; width: 200px; height: 120px; box-sizing: border-box; position: relative; overflow: hidden; font: 12px 'Liberation Sans', sans-serif; color: #222; background: %(page)s; }
h2 { font: bold 15px 'Liberation Serif', serif; margin: 0 0 2px; }
.byline { font-size: 10px; color: %(byline)s; margin: 0 0 4px; %(bymove)s }
.body { color: #555555; line-height: 1.35; margin: 0; font-size: 11px; }
hr { border: 0; border-top: 1px solid %(rule)s; margin: 4px 0 4px %(inset)s; }
.cards { display: flex; gap: 6px; }
.c { flex: 1; background: %(cardbg)s; border: 1px solid #e0e0e6; border-radius: calc(%(cardr)s + %(dr)s); padding: 6px; }
.c .k { font-size: 9px; color: #777778; text-transform: uppercase; }
.c .v { font: bold 16px 'DejaVu Serif', serif; color: #1d1d1f; }
.c .u { font-size: 9px; color: #8e8e93; }
.nav { display: flex; align-items: center; justify-content: space-between; height: 26px; border-bottom: 1px solid #d1d1d6; margin: -8px -8px 0; padding: 0 8px; background: #f7f7f8; }
.nav .t { font-weight: bold; font-size: 13px; }
.tint { color: %(tint)s; font-size: 12px; }
.r { display: flex; align-items: center; gap: 6px; height: 22px; }
.r svg { width: 14px; height: 14px; fill: %(glyph)s; }
.r .d { margin-left: auto; color: #777778; font-size: 11px; }
.div { border-top: 1px solid #e5e5ea; margin-left: %(rowinset)s; }
.banner { background: %(banner)s; border-radius: calc(8px + %(dr)s); padding: 6px 8px; color: #7a5c1e; font-size: 11px; }
.banner b { display: block; font-size: 12px; color: #5b4314; }
.pill { display: inline-block; margin-top: 6px; background: #34c759; color: #fff; border-radius: calc(%(pillr)s + %(dr)s); padding: %(pillpad)s; font: bold 11px 'DejaVu Sans', sans-serif; }
.cap { font-size: 9px; color: #777778; margin-top: 4px; }
"""

STYLES_PAGES = {
    # An article: a serif headline, a grey byline, a grey paragraph, a divider.
    "article": """<h2>Night trains return</h2>
<p class="byline">By Ines Vidal · 6 %(minutes)s read</p>
<hr>
<p class="body">Sleeper routes between Vienna, Paris and Brussels reopen this winter, with cabins for four and a dining car.</p>""",
    # Three stat cards with larger corner radii, small grey captions and serif numbers.
    "cards": """<div class="cards">
<div class="c"><div class="k">%(steps)s</div><div class="v">8,412</div><div class="u">today</div></div>
<div class="c"><div class="k">Sleep</div><div class="v">7h 5m</div><div class="u">last night</div></div>
<div class="c"><div class="k">Heart</div><div class="v">62</div><div class="u">bpm avg</div></div></div>
<p class="cap">Updated 2 min ago from Watch</p>""",
    # A navigation bar (a back button, a title, an edit button) above rows with icons, grey
    # details and inset dividers.
    "nav": """<div class="nav"><span class="tint button">‹ Back</span><span class="t">Account</span><span class="tint button">%(edit)s</span></div>
<div class="r"><svg viewBox="0 0 20 20" style="%(noicon)s"><circle cx="10" cy="10" r="8"/></svg><span>Name</span><span class="d">Ines Vidal</span></div>
<div class="div"></div>
<div class="r"><svg viewBox="0 0 20 20"><path d="M2 4h16v12H2z"/></svg><span>Email</span><span class="d">ines@vidal.eu</span></div>
<div class="div"></div>
<div class="r"><svg viewBox="0 0 20 20"><path d="M10 2l8 16H2z"/></svg><span>Plan</span><span class="d">Family</span></div>""",
    # A receipt set at fractional sizes and offsets (13.5-px and 10.5-px text, 0.3-px steps),
    # so baselines fall between device pixels and a renderer that snaps them moves every line.
    "ledger": """<div style="padding-top:0.3px;font-size:13.5px;line-height:17.3px"><b>Order %(order)s</b></div>
<div style="font-size:10.5px;line-height:14.3px;color:#555555">Coffee beans, 1 kg<br>Oat milk, 6 × 1 l<br>Delivery</div>
<div style="font-size:10.5px;line-height:14.3px;color:#777778;position:absolute;right:8.3px;top:25.6px;text-align:right">€18.90<br>€14.40<br>€%(fee)s</div>
<div style="border-top:1px solid #d1d1d6;margin-top:5.3px;padding-top:3.3px;font-size:12.5px"><b>Total</b> <span style="float:right">€%(total)s</span></div>""",
    # A tinted banner with brown text, a pill button and a grey caption.
    "banner": """<div class="banner"><b>Storage almost full</b>Photos and backups use 48.2 GB of 50 GB.
<br><span class="pill button">%(upgrade)s</span></div>
<p class="cap">Manage storage in Settings › General</p>""",
}

# change: (pages, noise settings it is also rendered under, {key: (in the page, changed)}).
STYLES_CHANGES = {
    "word": (["article", "cards", "nav", "banner", "ledger"], ["lcd", "hinting", "geometric"], {
        "minutes": ("min", "mins"), "steps": ("Steps", "Stairs"), "edit": ("Edit", "Done"),
        "upgrade": ("Upgrade", "Upgrades"), "order": ("4031", "4037")}),
    "digit": (["ledger"], ["lcd", "hinting", "subpixel-off"], {"fee": ("2.50", "2.90"), "total": ("35.80", "36.20")}),
    # The colour of a whole element: a card's background (ΔE00 3.2), the bar's tint (3.5),
    # the banner (3.0).
    "color": (["cards", "nav", "banner"], ["lcd", "subpixel-off"], {
        "cardbg": ("#f4f4f6", "#ebebf0"), "tint": ("#007aff", "#0a84ff"), "banner": ("#fdf3d8", "#fcedc4")}),
    # Grey text's colour (the byline #777778 → #5f5f60, ΔE00 9).
    "text-color": (["article"], ["lcd", "lcd-bgr", "geometric"], {"byline": ("#777778", "#5f5f60")}),
    "icon": (["nav"], ["lcd", "hinting"], {"noicon": ("", "visibility: hidden")}),
    # A divider's inset: the article's rule starts 12 px in; the rows' dividers start at 0.
    "inset": (["article", "nav"], ["lcd", "subpixel-off"], {"inset": ("0", "12px"), "rowinset": ("20px", "0")}),
    # A real radius change: the cards' 10 px → 4 px; the pill's 12 px → 4 px.
    "radius-change": (["cards", "banner"], ["lcd", "hinting"], {"cardr": ("10px", "4px"), "pillr": ("12px", "4px")}),
    # A label really moved: the byline a device pixel right (its frame with it).
    "move": (["article"], ["lcd", "hinting", "geometric"], {"bymove": ("", "position: relative; left: 0.5px;")}),
    # The pill's title a device pixel right inside the same pill.
    "shift": (["banner"], ["lcd", "hinting", "geometric-off"], {"pillpad": ("3px 12px", "3px 11.5px 3px 12.5px")}),
}
STYLES_BASE = {"page": "#fff", "dr": "0px", "rule": "#d1d1d6", "glyph": "#8e8e93"}


def styles_html(page, change, setting="plain"):
    """The page with one change (or none) as HTML, in the style corpus."""
    values = dict(STYLES_BASE)
    for name, (_, _, keys) in STYLES_CHANGES.items():
        for key, (same, changed) in keys.items():
            values[key] = changed if name == change else same
    if change == "radius":
        values["dr"] = "0.5px"
    body = STYLES_PAGES[page] % values
    return "<!doctype html><html><head><meta charset='utf-8'><style>%s%s</style></head><body>%s</body></html>" % (
        STYLES_STYLE % values, STYLES_SETTINGS[setting][2], body)


def styles_wanted(page, change, setting):
    """Whether the style corpus has this render (as `wanted`, with STYLES_CHANGES)."""
    if change is None:
        return True
    if change in PAGE_NOISE:
        return setting == "plain"
    pages, settings, _ = STYLES_CHANGES[change]
    return page in pages and (setting == "plain" or setting in settings)


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
  if (el.dataset.switch) {
    node.elementType = 'switch'; node.label = el.dataset.switch; node.value = el.classList.contains('off') ? '0' : '1'; return node;
  }
  if (el.dataset.image) {
    node.elementType = 'image'; node.label = el.dataset.image; return node;
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
    """The page with one change (or none) as HTML, in the tuned corpus."""
    values = {
        "border": "transparent" if change == "border" else "#c7c7cc",
        "button": "#0a84ff" if change == "color" else "#007aff",
        "word": "Today" if change == "word" else "today",
        "radius": "6.5px" if change == "radius" else "6px",
        "total": "$12.86" if change == "digit" else "$12.80",
        "stop": "" if change == "stop" else ".",
        # Half a CSS pixel: one device pixel at scale 2.
        "move": "position: relative; left: 0.5px;" if change == "move" else "",
        # The title half a CSS pixel to the right inside a button of the same size.
        "padding": "4px 11.5px 4px 12.5px" if change == "shift" else "4px 12px",
        "gone": "transparent" if change == "vanish" else "inherit",
        "ink": "#3a3a3c" if change == "ink" else "#1c1c1e",
    }
    body = PAGES[page] % values
    return "<!doctype html><html><head><meta charset='utf-8'><style>%s%s</style></head><body>%s</body></html>" % (
        STYLE % values, SETTINGS[setting][2], body)


def heldout_html(page, change, setting="plain"):
    """The page with one change (or none) as HTML, in the held-out corpus."""
    values = dict(HELDOUT_BASE, **HELDOUT_PAGE_VALUES.get(page, {}))
    for name, (_, _, keys) in HELDOUT_CHANGES.items():
        for key, (same, changed) in keys.items():
            values[key] = changed if name == change else same
    if change == "radius":
        values["dr"] = "0.5px"
    body = HELDOUT_PAGES[page] % values
    return "<!doctype html><html><head><meta charset='utf-8'><style>%s%s</style></head><body>%s</body></html>" % (
        HELDOUT_STYLE % values, SETTINGS[setting][2], body)


def heldout_wanted(page, change, setting):
    """Whether the held-out corpus has this render (as `wanted`, with HELDOUT_CHANGES)."""
    if change is None:
        return True
    if change in PAGE_NOISE:
        return setting == "plain"
    pages, settings, _ = HELDOUT_CHANGES[change]
    return page in pages and (setting == "plain" or setting in settings)


class Corpus:
    """One corpus: its pages, changes, HTML, which renders it has, and the settings (and page
    noise) it is rendered under."""

    def __init__(self, pages, changes, html, wanted, folder, settings=None, page_noise=None):
        self.pages, self.changes, self.html, self.wanted, self.folder = pages, changes, html, wanted, folder
        self.settings = settings or SETTINGS
        self.page_noise = PAGE_NOISE if page_noise is None else page_noise


TUNED = Corpus(PAGES, CHANGES, html, lambda *a: wanted(*a), DEFAULT_CORPUS)
HELDOUT = Corpus(HELDOUT_PAGES, HELDOUT_CHANGES, heldout_html, heldout_wanted, HELDOUT_CORPUS)
STYLES = Corpus(STYLES_PAGES, STYLES_CHANGES, styles_html, styles_wanted, STYLES_CORPUS, STYLES_SETTINGS)


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


def render(spec, corpus):
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        sys.exit("verdicts.py: --render needs chromium and chromedriver on PATH")
    os.makedirs(corpus, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for setting, (flags, fontconfig, _) in spec.settings.items():
            config = None
            if fontconfig:
                config = os.path.join(scratch, f"fonts-{fontconfig}.conf")
                with open(config, "w") as f:
                    f.write('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                            '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>%s</fontconfig>'
                            % FONTCONFIG[fontconfig])
            driver = start_browser(flags, config, os.path.join(scratch, "profile-" + setting))
            try:
                for page in spec.pages:
                    for change in [None] + list(spec.changes) + spec.page_noise:
                        if not spec.wanted(page, change, setting):
                            continue
                        source = os.path.join(scratch, f"{page}-{change}-{setting}.html")
                        with open(source, "w") as f:
                            f.write(spec.html(page, change, setting))
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


def pairs(spec):
    """(kind, page, label, baseline name, current name)."""
    for page in spec.pages:
        base = f"{page}-same-plain.png"
        for setting in spec.settings:
            if setting != "plain":
                yield "noise", page, setting, base, f"{page}-same-{setting}.png"
        for change in spec.page_noise:
            if spec.wanted(page, change, "plain"):
                yield "noise", page, change, base, f"{page}-{change}-plain.png"
        for change in spec.changes:
            for setting in spec.settings:
                if spec.wanted(page, change, setting):
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
    parser.add_argument("--heldout", action="store_true",
                        help="the held-out corpus (pages never used for tuning) instead of the tuned one")
    parser.add_argument("--styles", action="store_true",
                        help="the style corpus (other page designs and text rasterisations) instead")
    parser.add_argument("--levels", help="comma-separated levels to compare (default: all)")
    parser.add_argument("--corpus", help="the corpus folder (default: the committed one)")
    parser.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    parser.add_argument("--details", action="store_true", help="print every pair's different pixels per level")
    args = parser.parse_args()
    spec = STYLES if args.styles else HELDOUT if args.heldout else TUNED
    args.corpus = args.corpus or spec.folder
    if args.render:
        render(spec, args.corpus)
    if not os.access(args.snapdiff, os.X_OK):
        sys.exit(f"verdicts.py: no snapdiff at {args.snapdiff} (swift build -c release --product snapdiff)")
    all_pairs = list(pairs(spec))
    noise_total = sum(1 for p in all_pairs if p[0] == "noise")
    change_total = len(all_pairs) - noise_total
    rows = []
    details = []
    scratch = tempfile.mkdtemp(prefix="verdicts-")
    for level in (args.levels.split(",") if args.levels else LEVELS):
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
            print(f"{level:14} {kind:7} {page:8} {label:28} {count:7} {'pass' if passed else 'FAIL'}")


if __name__ == "__main__":
    main()
