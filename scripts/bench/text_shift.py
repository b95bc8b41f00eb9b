#!/usr/bin/env python3
"""How far text moves inside its frame, as text-aware measures it: noise against real moves.

Usage: scripts/bench/text_shift.py [--boxes]

For every text box with an unchanged label and frame whose pixels differ, in every pair of both
verdicts corpora (scripts/bench/verdicts.py: Tests/SnapdiffCoreTests/Fixtures/verdicts and
verdicts-heldout), measures the ink's shift inside its frame the way InkComparison does (ink
weights against the box's commonest colour, from 5% of 255; the displacement that best aligns
the column and row profiles within three points, refined by a parabola), two ways:

  box      the profiles of the whole box (text-aware before this script);
  changed  the profiles of the bounding box of the pixels that differ by more than ΔE00 2,
           widened by a point (2 px at scale 2): what text-aware measures now

and prints the distributions (count, min, median, 90th percentile, max; across and down) for

  noise    every such box of every noise pair (a page against itself rasterised differently)
  moved    the button whose title moved one device pixel right inside it (the `shift` pairs)
  others   every other such box of the change pairs (noise beside the change)

and the margin between noise and moves against text-aware's allowance (0.75 px). Display P3
renders are converted to sRGB through their profile first (Pillow's LittleCMS), as snapdiff
does. The verdicts themselves are scripts/bench/verdicts.py's; this script only shows the
measure's distributions. Needs Pillow and NumPy. --boxes lists every moved box and the noise
boxes that come nearest.
"""

import argparse
import io
import json
import math
import os
import statistics
import sys

import numpy as np
from PIL import Image, ImageCms

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdicts  # noqa: E402

ALLOWANCE = 0.75  # TextComparison.maxShift
INK_LEVEL = 0.05  # TextComparison.inkLevel
DELTA_E = 2.0  # DiffOptions.defaultDeltaE
TEXT_TYPES = {"staticText", "button", "link", "tab", "menuItem", "menuBarItem", "toolbarButton", "popUpButton",
              "menuButton"}
FIELD_TYPES = {"textField", "secureTextField", "searchField", "textView", "comboBox"}


def load(path):
    """RGBA pixels (int32), converted to sRGB when the PNG carries an ICC profile."""
    image = Image.open(path)
    profile = image.info.get("icc_profile")
    image = image.convert("RGBA")
    pixels = np.array(image).astype(np.int32)
    if profile:
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        rgb = ImageCms.profileToProfile(image.convert("RGB"), source, ImageCms.createProfile("sRGB"),
                                        outputMode="RGB")
        pixels[..., :3] = np.array(rgb)
    return pixels


def text_boxes(tree):
    """(type, shown text, frame) of each element that shows text and has no text below it."""
    found = []

    def shown(node):
        kind = node.get("elementType")
        if kind in TEXT_TYPES:
            return node.get("label") or None
        if kind in FIELD_TYPES:
            return node.get("value") or node.get("placeholderValue") or None
        return None

    def has_text_below(node):
        return any(shown(child) or has_text_below(child) for child in node.get("children", []))

    def walk(node):
        if shown(node) and not has_text_below(node):
            found.append((node["elementType"], shown(node), node["frame"]))
        for child in node.get("children", []):
            walk(child)

    walk(tree["root"])
    return found


def pixels(frame, scale):
    """(left, top, right, bottom) in pixels, rounded outwards (ElementFrame.pixels)."""
    return (math.floor(frame["x"] * scale), math.floor(frame["y"] * scale),
            math.ceil((frame["x"] + frame["width"]) * scale), math.ceil((frame["y"] + frame["height"]) * scale))


def lab(rgb):
    c = rgb[..., :3] / 255.0
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = c @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e00(one, two):
    """CIEDE2000 between two arrays of Lab colours."""
    l1, a1, b1 = one[..., 0], one[..., 1], one[..., 2]
    l2, a2, b2 = two[..., 0], two[..., 1], two[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = h2 - h1
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1 * c2 == 0, 0, dh)
    d_hue = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = np.where(np.abs(h1 - h2) > 180, (h1 + h2 + 360) / 2, (h1 + h2) / 2)
    h_mean = np.where(c1 * c2 == 0, h1 + h2, h_mean)
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.2 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -2 * np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)) * np.sin(
        np.radians(60 * np.exp(-((h_mean - 275) / 25) ** 2)))
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return np.sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + r_t * dc * dhh)


def ink_weights(box):
    """Each pixel's largest channel distance from the box's commonest colour, 0 under INK_LEVEL."""
    flat = box.reshape(-1, 4).astype(np.int64)
    keys = flat[:, 0] | flat[:, 1] << 8 | flat[:, 2] << 16 | flat[:, 3] << 24
    values, counts = np.unique(keys, return_counts=True)
    background = values[np.argmax(counts)]
    channels = np.array([(background >> (8 * i)) & 0xff for i in range(3)])
    weights = np.abs(box[..., :3] - channels).max(-1) / 255.0
    weights[weights < INK_LEVEL] = 0
    return weights


def displacement(p, q, limit):
    """InkComparison.displacement: the best-overlapping whole shift, refined by a parabola."""
    count = min(len(p), len(q))
    limit = min(max(limit, 0), max(count - 1, 0))

    def overlap(d):
        low, high = max(0, -d), min(count, count - d)
        return float(np.dot(p[low:high], q[low + d:high + d])) if high > low else 0.0

    best, score = max(((d, overlap(d)) for d in range(-limit, limit + 1)), key=lambda s: (s[1], -abs(s[0])))
    if score <= 0:
        return 0.0
    if abs(best) >= limit:
        return float(best)
    left, right = overlap(best - 1), overlap(best + 1)
    curvature = left - 2 * score + right
    return best + (0.5 * (left - right) / curvature if curvature < 0 else 0)


def shifts(weights_a, weights_b, reach):
    return (displacement(weights_a.sum(0), weights_b.sum(0), 3 * reach),
            displacement(weights_a.sum(1), weights_b.sum(1), 3 * reach))


def measure(folder, baseline, current):
    """(type, text, whole-box shift, changed-region shift) of each differing box with its label
    and frame unchanged."""
    a, b = load(os.path.join(folder, baseline)), load(os.path.join(folder, current))
    tree_a = json.load(open(os.path.join(folder, baseline[:-4] + ".tree.json")))
    tree_b = json.load(open(os.path.join(folder, current[:-4] + ".tree.json")))
    scale = tree_a["scale"]
    height, width = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    found = []
    for (kind, text, frame_a), (_, text_b, frame_b) in zip(text_boxes(tree_a), text_boxes(tree_b)):
        if text != text_b or any(abs(frame_a[k] - frame_b[k]) * scale > 0.5 for k in frame_a):
            continue
        one, two = pixels(frame_a, scale), pixels(frame_b, scale)
        left, top = max(min(one[0], two[0]), 0), max(min(one[1], two[1]), 0)
        right, bottom = min(max(one[2], two[2]), width), min(max(one[3], two[3]), height)
        if right <= left or bottom <= top:
            continue
        box_a, box_b = a[top:bottom, left:right], b[top:bottom, left:right]
        differs = delta_e00(lab(box_a.astype(float)), lab(box_b.astype(float))) > DELTA_E
        if not differs.any():
            continue
        weights_a, weights_b = ink_weights(box_a), ink_weights(box_b)
        rows, columns = np.nonzero(differs)
        x0, x1 = max(columns.min() - scale, 0), min(columns.max() + 1 + scale, right - left)
        y0, y1 = max(rows.min() - scale, 0), min(rows.max() + 1 + scale, bottom - top)
        found.append((kind, text, shifts(weights_a, weights_b, scale),
                      shifts(weights_a[y0:y1, x0:x1], weights_b[y0:y1, x0:x1], scale)))
    return found


def summary(values):
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(math.ceil(0.9 * len(ordered))) - 1)]
    return f"{min(ordered):.2f} / {statistics.median(ordered):.2f} / {p90:.2f} / {max(ordered):.2f}"


def main():
    parser = argparse.ArgumentParser(description="Text shift inside its frame: noise against moves.")
    parser.add_argument("--boxes", action="store_true", help="list the moved boxes and the nearest noise")
    args = parser.parse_args()
    groups = {"noise": [], "moved": [], "others": []}
    for spec in (verdicts.TUNED, verdicts.HELDOUT):
        corpus = os.path.basename(spec.folder)
        for kind, page, label, baseline, current in verdicts.pairs(spec):
            for element, text, box, changed in measure(spec.folder, baseline, current):
                moved = kind == "change" and label.startswith("shift") and element == "button"
                group = "moved" if moved else "noise" if kind == "noise" else "others"
                groups[group].append((f"{corpus}/{current[:-4]}", f"{element} \"{text}\"", box, changed))
    print("shift inside the frame, px: count, then min / median / 90th percentile / max of |shift|")
    print(f"{'':8} {'':5} {'whole box across':>26} {'whole box down':>26} {'changed across':>26} "
          f"{'changed down':>26}")
    for name, rows in groups.items():
        columns = [[abs(row[2][0]) for row in rows], [abs(row[2][1]) for row in rows],
                   [abs(row[3][0]) for row in rows], [abs(row[3][1]) for row in rows]]
        print(f"{name:8} {len(rows):5} " + " ".join(f"{summary(c):>26}" for c in columns))
    unmoved = groups["noise"] + groups["others"]
    for name, index in (("whole box", 2), ("changed", 3)):
        across = max(abs(row[index][0]) for row in unmoved)
        down = max(abs(row[index][1]) for row in unmoved)
        moves = min(abs(row[index][0]) for row in groups["moved"])
        caught = sum(abs(row[index][0]) > ALLOWANCE for row in groups["moved"])
        over = sum(max(abs(row[index][0]), abs(row[index][1])) > ALLOWANCE for row in unmoved)
        print(f"{name}: unmoved boxes at most {across:.2f} px across and {down:.2f} px down, moves at least "
              f"{moves:.2f} px across (margin {moves - across:+.2f} px); allowance {ALLOWANCE} px: {caught} of "
              f"{len(groups['moved'])} moves over it, {over} of {len(unmoved)} unmoved boxes")
    if args.boxes:
        for pair, element, box, changed in groups["moved"]:
            print(f"moved  {pair} {element}: whole box {box[0]:+.2f}, {box[1]:+.2f}; "
                  f"changed {changed[0]:+.2f}, {changed[1]:+.2f}")
        nearest = sorted(unmoved, key=lambda row: -max(abs(row[3][0]), abs(row[3][1])))[:8]
        for pair, element, box, changed in nearest:
            print(f"noise  {pair} {element}: whole box {box[0]:+.2f}, {box[1]:+.2f}; "
                  f"changed {changed[0]:+.2f}, {changed[1]:+.2f}")


if __name__ == "__main__":
    main()
