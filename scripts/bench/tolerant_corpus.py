#!/usr/bin/env python3
"""Confusion tables of match levels on a labelled corpus of real screenshot pairs, and the
prototype of the rendering-tolerant level (docs/comparison.md).

Usage:
  scripts/bench/tolerant_corpus.py levels CORPUS [--snapdiff PATH] [--levels a,b,...]
  scripts/bench/tolerant_corpus.py prototype CORPUS [--cache DIR]
  scripts/bench/tolerant_corpus.py nudges CORPUS [--snapdiff PATH] [--cache DIR]
  scripts/bench/tolerant_corpus.py moves CORPUS [--snapdiff PATH] [--cache DIR]

CORPUS is a folder with a cases.json and the pairs it names, as ../shared/corpora/ios-snapshots/
(each case: id, kind noise|change|unknown, noise_class rendering|appearance, a, b, repo, note).
Its files are read where they are, never copied.

levels     runs `snapdiff compare A B --match LEVEL --json` on every rendering-noise and change
           pair and prints, per level, how many noise pairs fail and how many changes pass
           (are missed), per app (repo owner) and in all. Default levels: strict, perceptual,
           rendering-tolerant; default snapdiff: .build/release/snapdiff.
prototype  the numpy model the Swift level was chosen from: for every pixel beyond strict's YIQ
           threshold (0.1), whether each image has the other's colour within radius r; the
           re-blended edges (the pixel's colour in both images on the segment between the darkest
           and brightest colours found in both 3x3 windows) explained too; the
           unexplained pixels grouped into patches (pixels up to 3 px apart); a pair fails when a
           patch has N pixels or more. Prints each variant's table and a leave-one-app-out
           cross-validation of N (N chosen on the other apps, tested on the one held out).
           Features are cached as .npz under --cache (default .build-bench/tolerant-cache).
nudges     tests whether an element nudged by code (moved content a pixel-exact copy shifted by an
           integer offset, nothing else on the screen different) can be told from an OS re-render.
           Each patch of pixels beyond strict's threshold (joined within 3 px) is tried at every
           shift up to 3 px: the share of its differing pixels (any byte) whose colour the
           baseline has, byte for byte, at the shifted place. A pair is a nudge when a patch of
           16+ pixels is an exact copy moved (share >= 0.99) and the pixels that differ outside
           such patches are at most a fraction F of all that differ. Prints, per pair with an
           exact move, the shift and what differs elsewhere; then `rendering-tolerant` (the
           snapdiff binary's verdicts) with nudges failing too, F chosen with each app held out.
moves      the prototype of the level's rule for elements moved whole (MovedElements.swift): each
           patch of 16+ pixels beyond strict's threshold (joined within 3 px) is tried at every
           shift up to 2 px, nearest and vertical first; it moved when 90% of its pixels equal the
           baseline's at the shifted place. Vertical moves with the same shift that lie no further
           apart (across or along) than twice the taller one's height are one element. A move is a
           change when it is sideways, or its element is less than twice as wide as tall (an icon,
           a glyph). Prints every pair with a move (its lines: shift, size, verdict), then the
           table of the binary's `rendering-tolerant` verdicts with the rule added (the same as
           the level's own when the binary has it), and with the lone-move rule: a pair also fails
           when everything that differs (any byte) is one exact move, both ways (b at each
           differing pixel is a's colour one shift back, and a is b's one shift on).
Needs numpy, pillow and scipy for `prototype`, `nudges` and `moves`; nothing but Python for `levels`.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAX_YIQ = 35215.0
THRESHOLD = 0.1


def labelled(corpus):
    cases = json.load(open(os.path.join(corpus, "cases.json")))
    return [c for c in cases if c["kind"] == "change" or c.get("noise_class") == "rendering"]


def app(case):
    return case["repo"].split("/")[0]


def print_table(name, cases, failed):
    """failed: id -> bool. One line per app, then the total."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    for c in cases:
        row = rows[app(c)]
        if c["kind"] == "noise":
            row[1] += 1
            row[0] += failed[c["id"]]
        else:
            row[3] += 1
            row[2] += not failed[c["id"]]
    print(f"\n{name}\n\n| app | rendering noise failed | changes missed |\n|---|---|---|")
    for name_, r in sorted(rows.items()):
        print(f"| {name_} | {r[0]} / {r[1]} | {r[2]} / {r[3]} |")
    total = [sum(r[k] for r in rows.values()) for k in range(4)]
    print(f"| **all** | **{total[0]} / {total[1]}** | **{total[2]} / {total[3]}** |")
    return total


def levels(args):
    cases = labelled(args.corpus)
    missed_notes = collections.defaultdict(list)
    for level in args.levels.split(","):
        failed = {}
        for c in cases:
            run = subprocess.run(
                [args.snapdiff, "compare", os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"]),
                 "--match", level, "--json"], capture_output=True, text=True)
            if run.returncode not in (0, 1):
                sys.exit(f"snapdiff failed on {c['id']} ({level}): {run.stderr.strip()}")
            failed[c["id"]] = not json.loads(run.stdout)["passed"]
            if c["kind"] == "change" and not failed[c["id"]]:
                missed_notes[level].append(f"{c['id']} ({app(c)}): {c['note']}")
        print_table(f"`{level}`", cases, failed)
    for level, notes in missed_notes.items():
        print(f"\nchanges `{level}` misses:")
        for note in notes:
            print("  " + note)


# --- prototype -------------------------------------------------------------------------------


def features(a_path, b_path):
    import numpy as np
    from PIL import Image

    def load(path):
        im = np.asarray(Image.open(path).convert("RGBA")).astype(np.float32)
        return 255.0 + (im[..., :3] - 255.0) * (im[..., 3:4] / 255.0)

    def yiq(rgb):
        r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        return np.stack([r * 0.29889531 + g * 0.58662247 + b * 0.11448223,
                         r * 0.59597799 - g * 0.27417610 - b * 0.32180189,
                         r * 0.21147017 - g * 0.52261711 + b * 0.31114694], axis=-1)

    def dist(p, q):
        d = p - q
        return (0.5053 * d[..., 0] ** 2 + 0.299 * d[..., 1] ** 2 + 0.1957 * d[..., 2] ** 2) / MAX_YIQ

    def nearest(src, other, r):
        h, w = src.shape[:2]
        pad = np.pad(other, ((r, r), (r, r), (0, 0)), mode="edge")
        best = np.full((h, w), np.inf, dtype=np.float32)
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                np.minimum(best, dist(src, pad[r + dy:r + dy + h, r + dx:r + dx + w]), out=best)
        return best

    ya, yb = yiq(load(a_path)), yiq(load(b_path))
    ys, xs = np.nonzero(dist(ya, yb) > THRESHOLD * THRESHOLD)
    out = {"ys": ys, "xs": xs}
    if len(ys) == 0:
        return out
    y0, y1 = max(ys.min() - 3, 0), min(ys.max() + 4, ya.shape[0])
    x0, x1 = max(xs.min() - 3, 0), min(xs.max() + 4, ya.shape[1])
    ca, cb = ya[y0:y1, x0:x1], yb[y0:y1, x0:x1]
    for r in (1, 2, 3):
        out[f"ab{r}"] = nearest(ca, cb, r)[ys - y0, xs - x0]
        out[f"ba{r}"] = nearest(cb, ca, r)[ys - y0, xs - x0]
    out["blend"] = reblended(ya, yb, ys, xs, dist)
    return out


def reblended(ya, yb, ys, xs, dist, chunk=100_000):
    """Whether each pixel is an edge re-blended: the darkest and the brightest colour of the two
    images' 3x3 windows around it are each found (within the threshold) in both windows, and the
    pixel's colour in both images lies within the threshold of the segment between them."""
    import numpy as np

    h, w = ya.shape[:2]
    offsets = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    result = np.zeros(len(ys), bool)
    weights = np.array([0.5053, 0.299, 0.1957], np.float32)
    for start in range(0, len(ys), chunk):
        y, x = ys[start:start + chunk], xs[start:start + chunk]
        wa = np.stack([ya[np.clip(y + dy, 0, h - 1), np.clip(x + dx, 0, w - 1)] for dy, dx in offsets], 1)
        wb = np.stack([yb[np.clip(y + dy, 0, h - 1), np.clip(x + dx, 0, w - 1)] for dy, dx in offsets], 1)
        both = np.concatenate([wa, wb], 1)
        rows = np.arange(len(y))
        dark = both[rows, both[..., 0].argmin(1)]
        bright = both[rows, both[..., 0].argmax(1)]
        limit = THRESHOLD * THRESHOLD
        present = np.ones(len(y), bool)
        for end in (dark, bright):
            for window in (wa, wb):
                present &= dist(window, end[:, None, :]).min(1) <= limit
        on_segment = present
        seg = bright - dark
        for colour in (ya[y, x], yb[y, x]):
            t = np.clip(((colour - dark) * seg * weights).sum(1) / np.maximum((seg * seg * weights).sum(1), 1e-9), 0, 1)
            on_segment &= dist(colour, dark + t[:, None] * seg) <= limit
        result[start:start + chunk] = on_segment
    return result


def largest_patch(f, r, tolerance, link, blend):
    """The size of the largest patch of unexplained pixels (pixels up to `link` apart joined)."""
    import numpy as np
    from scipy import ndimage

    if len(f["ys"]) == 0:
        return 0
    keep = (f[f"ab{r}"] > tolerance ** 2) | (f[f"ba{r}"] > tolerance ** 2)
    if blend:
        keep &= ~f["blend"]
    ys, xs = f["ys"][keep], f["xs"][keep]
    if len(ys) == 0:
        return 0
    grow = (link - 1) // 2  # dilating by `grow` then 8-connecting joins pixels up to link apart
    m = np.zeros((ys.max() - ys.min() + 1 + 2 * grow, xs.max() - xs.min() + 1 + 2 * grow), bool)
    m[ys - ys.min() + grow, xs - xs.min() + grow] = True
    grown = ndimage.binary_dilation(m, np.ones((3, 3)), iterations=grow) if grow else m
    labels, _ = ndimage.label(grown, np.ones((3, 3)))
    return int(np.bincount(labels[ys - ys.min() + grow, xs - xs.min() + grow]).max())


def prototype(args):
    import numpy as np

    cases = labelled(args.corpus)
    os.makedirs(args.cache, exist_ok=True)
    feats = {}
    for c in cases:
        path = os.path.join(args.cache, c["id"] + ".npz")
        if not os.path.exists(path):
            np.savez_compressed(path, **features(os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"])))
        feats[c["id"]] = dict(np.load(path))
    sizes = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)
    apps = sorted({app(c) for c in cases})
    variants = ((1, 0.1, 3, False), (1, 0.1, 3, True), (2, 0.1, 1, False), (2, 0.1, 3, False), (2, 0.1, 3, True),
                (2, 0.15, 3, True), (3, 0.1, 3, True))
    for r, tolerance, link, blend in variants:
        patch = {c["id"]: largest_patch(feats[c["id"]], r, tolerance, link, blend) for c in cases}

        def errors(subset, n):
            return (sum(c["kind"] == "noise" and patch[c["id"]] >= n for c in subset)
                    + sum(c["kind"] == "change" and patch[c["id"]] < n for c in subset))

        held_out = {}
        for name in apps:
            train = [c for c in cases if app(c) != name]
            scores = [errors(train, n) for n in sizes]
            tied = [n for n, s in zip(sizes, scores) if s == min(scores)]
            n = tied[len(tied) // 2]  # the middle of the best range
            for c in cases:
                if app(c) == name:
                    held_out[c["id"]] = patch[c["id"]] >= n
        label = f"radius {r}, colour within {tolerance}, patches joined within {link} px" + (
            ", re-blended edges explained" if blend else "")
        print_table(f"{label}: N chosen with each app held out", cases, held_out)
        worst_noise = max(patch[c["id"]] for c in cases if c["kind"] == "noise")
        smallest = sorted(patch[c["id"]] for c in cases if c["kind"] == "change" and patch[c["id"]] > worst_noise)
        print(f"largest noise patch {worst_noise}; changes with a larger one: {len(smallest)}, the smallest {smallest[:1]}")


def translation_features(a_path, b_path, shift=3, limit=20):
    """Per patch of strict-differing pixels (the `limit` largest): strict pixels, the best share
    of its differing pixels that are a byte-exact copy of the baseline shifted by (dx, dy) != 0,
    the shift and the box; and the number of pixels whose bytes differ anywhere."""
    import numpy as np
    from PIL import Image
    from scipy import ndimage

    a = np.asarray(Image.open(a_path).convert("RGBA")).astype(np.int16)
    b = np.asarray(Image.open(b_path).convert("RGBA")).astype(np.int16)
    h, w = a.shape[:2]

    def yiq(im):
        rgb = 255.0 + (im[..., :3] - 255.0) * (im[..., 3:4] / 255.0)
        r, g, bl = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        return np.stack([r * 0.29889531 + g * 0.58662247 + bl * 0.11448223,
                         r * 0.59597799 - g * 0.27417610 - bl * 0.32180189,
                         r * 0.21147017 - g * 0.52261711 + bl * 0.31114694], axis=-1)

    d = yiq(a) - yiq(b)
    strict = (0.5053 * d[..., 0] ** 2 + 0.299 * d[..., 1] ** 2 + 0.1957 * d[..., 2] ** 2) / MAX_YIQ > THRESHOLD ** 2
    differs = (a != b).any(-1)
    labels, count = ndimage.label(ndimage.binary_dilation(strict, np.ones((3, 3))), np.ones((3, 3)))
    patches = []
    if count:
        sizes = np.bincount(labels[strict], minlength=count + 1)
        boxes = ndimage.find_objects(labels)
        for k in np.argsort(-sizes)[:limit]:
            if k == 0 or sizes[k] == 0:
                continue
            ys, xs = boxes[k - 1]
            y0, y1 = max(ys.start - shift - 1, 0), min(ys.stop + shift + 1, h)
            x0, x1 = max(xs.start - shift - 1, 0), min(xs.stop + shift + 1, w)
            best = (0.0, 0, 0)
            for dy in range(-shift, shift + 1):
                for dx in range(-shift, shift + 1):
                    if dx == 0 and dy == 0:
                        continue
                    t0, t1, l0, l1 = max(y0, dy), min(y1, h + dy), max(x0, dx), min(x1, w + dx)
                    inside = differs[t0:t1, l0:l1]
                    if not inside.any():
                        continue
                    same = (b[t0:t1, l0:l1] == a[t0 - dy:t1 - dy, l0 - dx:l1 - dx]).all(-1)[inside].mean()
                    if same > best[0]:
                        best = (float(same), dx, dy)
            patches.append({"strict": int(sizes[k]), "exact": best[0], "dx": best[1], "dy": best[2],
                            "box": (x0, y0, x1, y1)})
    moved = np.zeros((h, w), bool)
    for p in patches:
        if p["strict"] >= 16 and p["exact"] >= 0.99:
            x0, y0, x1, y1 = p["box"]
            moved[y0:y1, x0:x1] = True
    return {"differs": int(differs.sum()), "elsewhere": int((differs & ~moved).sum()), "patches": patches,
            "moved": bool(moved.any())}


def nudges(args):
    cases = labelled(args.corpus)
    os.makedirs(args.cache, exist_ok=True)
    feats, tolerant = {}, {}
    for c in cases:
        path = os.path.join(args.cache, c["id"] + ".nudge.json")
        if not os.path.exists(path):
            json.dump(translation_features(os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"])),
                      open(path, "w"))
        feats[c["id"]] = json.load(open(path))
        run = subprocess.run(
            [args.snapdiff, "compare", os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"]),
             "--match", "rendering-tolerant", "--json"], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"snapdiff failed on {c['id']}: {run.stderr.strip()}")
        tolerant[c["id"]] = not json.loads(run.stdout)["passed"]
    print("pairs with a patch of 16+ pixels that is an exact copy moved:\n")
    print("| pair | kind | app | shift | differing pixels | outside the moved patches | rendering-tolerant |")
    print("|---|---|---|---|---|---|---|")
    for c in cases:
        f = feats[c["id"]]
        if f["moved"]:
            shifts = sorted({(p["dx"], p["dy"]) for p in f["patches"] if p["strict"] >= 16 and p["exact"] >= 0.99})
            print(f"| {c['id']} | {c['kind']} | {app(c)} | {shifts} | {f['differs']} | {f['elsewhere']} | "
                  f"{'fails' if tolerant[c['id']] else 'passes'} |")
    fractions = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
    apps = sorted({app(c) for c in cases})

    def failed(c, fraction):
        f = feats[c["id"]]
        return tolerant[c["id"]] or (f["moved"] and f["elsewhere"] <= fraction * f["differs"])

    def errors(subset, fraction):
        return sum((c["kind"] == "noise") == failed(c, fraction) for c in subset)

    print_table("`rendering-tolerant`", cases, {c["id"]: tolerant[c["id"]] for c in cases})
    for fraction in (0.0, 0.05):
        print_table(f"with a nudge failing (at most {fraction:.0%} of the differing pixels elsewhere)", cases,
                    {c["id"]: failed(c, fraction) for c in cases})
    held_out = {}
    for name in apps:
        train = [c for c in cases if app(c) != name]
        scores = [errors(train, f) for f in fractions]
        tied = [f for f, s in zip(fractions, scores) if s == min(scores)]
        chosen = tied[len(tied) // 2]
        print(f"held out {name}: F = {chosen} (tied: {tied})")
        for c in cases:
            if app(c) == name:
                held_out[c["id"]] = failed(c, chosen)
    print_table("with a nudge failing, F chosen with each app held out", cases, held_out)


def move_features(a_path, b_path, reach=2, share=0.9):
    """The moved lines of a pair (shift, box) and whether everything that differs is one move."""
    import numpy as np
    from PIL import Image
    from scipy import ndimage

    a = np.asarray(Image.open(a_path).convert("RGBA")).astype(np.int16)
    b = np.asarray(Image.open(b_path).convert("RGBA")).astype(np.int16)
    h, w = a.shape[:2]

    def yiq(im):
        rgb = 255.0 + (im[..., :3] - 255.0) * (im[..., 3:4] / 255.0)
        r, g, bl = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        return np.stack([r * 0.29889531 + g * 0.58662247 + bl * 0.11448223,
                         r * 0.59597799 - g * 0.27417610 - bl * 0.32180189,
                         r * 0.21147017 - g * 0.52261711 + bl * 0.31114694], axis=-1)

    d = yiq(a) - yiq(b)
    strict = (0.5053 * d[..., 0] ** 2 + 0.299 * d[..., 1] ** 2 + 0.1957 * d[..., 2] ** 2) / MAX_YIQ > THRESHOLD ** 2
    shifts = sorted(((dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1) if dx or dy),
                    key=lambda s: (abs(s[0]) + abs(s[1]), abs(s[0])))
    labels, count = ndimage.label(ndimage.binary_dilation(strict, np.ones((3, 3))), np.ones((3, 3)))
    moves = []
    if count:
        sizes = np.bincount(labels[strict], minlength=count + 1)
        for k, (ys, xs) in enumerate(ndimage.find_objects(labels), 1):
            if sizes[k] < 16:
                continue
            py, px = np.nonzero((labels[ys, xs] == k) & strict[ys, xs])
            py, px = py + ys.start, px + xs.start
            best = None
            for dx, dy in shifts:
                sy, sx = py - dy, px - dx
                inside = (sy >= 0) & (sy < h) & (sx >= 0) & (sx < w)
                same = np.zeros(len(py), bool)
                same[inside] = (b[py[inside], px[inside]] == a[sy[inside], sx[inside]]).all(-1)
                if same.mean() >= share and (best is None or same.mean() > best[0]):
                    best = (same.mean(), dx, dy)
            if best:
                moves.append([best[1], best[2], int(px.min()), int(py.min()), int(px.max()), int(py.max())])
    parent = list(range(len(moves)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i, one in enumerate(moves):
        for j in range(i + 1, len(moves)):
            two = moves[j]
            if one[0] == 0 and two[0] == 0 and one[1] == two[1]:
                across = max(one[2], two[2]) - min(one[4], two[4]) - 1
                along = max(one[3], two[3]) - min(one[5], two[5]) - 1
                if max(across, along) <= 2 * (max(one[5] - one[3], two[5] - two[3]) + 1):
                    parent[root(j)] = root(i)
    lines = {}
    for i, m in enumerate(moves):
        key = root(i) if m[0] == 0 else ("sideways", i)
        old = lines.get(key, m)
        lines[key] = [m[0], m[1], min(old[2], m[2]), min(old[3], m[3]), max(old[4], m[4]), max(old[5], m[5])]
    differs = (a != b).any(-1)
    whole = False
    for dx, dy in shifts:
        back = a[np.clip(np.arange(h) - dy, 0, h - 1)][:, np.clip(np.arange(w) - dx, 0, w - 1)]
        on = b[np.clip(np.arange(h) + dy, 0, h - 1)][:, np.clip(np.arange(w) + dx, 0, w - 1)]
        if differs.any() and not (differs & ~((b == back).all(-1) & (a == on).all(-1))).any():
            whole = True
    return {"lines": list(lines.values()), "one_move": whole}


def moves(args):
    cases = labelled(args.corpus)
    os.makedirs(args.cache, exist_ok=True)
    feats, tolerant = {}, {}
    for c in cases:
        path = os.path.join(args.cache, c["id"] + ".lone-moves.json")
        if not os.path.exists(path):
            json.dump(move_features(os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"])),
                      open(path, "w"))
        feats[c["id"]] = json.load(open(path))
        run = subprocess.run(
            [args.snapdiff, "compare", os.path.join(args.corpus, c["a"]), os.path.join(args.corpus, c["b"]),
             "--match", "rendering-tolerant", "--json"], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"snapdiff failed on {c['id']}: {run.stderr.strip()}")
        tolerant[c["id"]] = not json.loads(run.stdout)["passed"]

    def is_change(line):
        dx, dy, x0, y0, x1, y1 = line
        return dx != 0 or (x1 - x0 + 1) < 2 * (y1 - y0 + 1)

    print("| pair | kind | app | moved elements: shift, width x height, change? | everything one move | rendering-tolerant |")
    print("|---|---|---|---|---|---|")
    for c in cases:
        f = feats[c["id"]]
        if f["lines"]:
            lines = ", ".join(f"({l[0]},{l[1]}) {l[4] - l[2] + 1}x{l[5] - l[3] + 1}{' change' if is_change(l) else ''}"
                              for l in f["lines"][:6])
            print(f"| {c['id']} | {c['kind']} | {app(c)} | {lines} | {f['one_move']} | "
                  f"{'fails' if tolerant[c['id']] else 'passes'} |")
    rule = {c["id"]: tolerant[c["id"]] or any(is_change(l) for l in feats[c["id"]]["lines"]) for c in cases}
    print_table("`rendering-tolerant` with the moves rule", cases, rule)
    print_table("and a pair whose every difference is one exact move failing too (the lone-move rule)", cases,
                {c["id"]: rule[c["id"]] or feats[c["id"]]["one_move"] for c in cases})
    print("\nrendering-noise pairs whose every difference is one exact move (they fail):")
    for c in cases:
        if c["kind"] == "noise" and feats[c["id"]]["one_move"]:
            print(f"  {c['id']} ({app(c)}): {c.get('note', '')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    lv = sub.add_parser("levels")
    lv.add_argument("corpus")
    lv.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    lv.add_argument("--levels", default="strict,perceptual,rendering-tolerant")
    pr = sub.add_parser("prototype")
    pr.add_argument("corpus")
    pr.add_argument("--cache", default=os.path.join(ROOT, ".build-bench", "tolerant-cache"))
    nu = sub.add_parser("nudges")
    nu.add_argument("corpus")
    nu.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    nu.add_argument("--cache", default=os.path.join(ROOT, ".build-bench", "tolerant-cache"))
    mv = sub.add_parser("moves")
    mv.add_argument("corpus")
    mv.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    mv.add_argument("--cache", default=os.path.join(ROOT, ".build-bench", "tolerant-cache"))
    args = parser.parse_args()
    {"levels": levels, "prototype": prototype, "nudges": nudges, "moves": moves}[args.command](args)


if __name__ == "__main__":
    main()
