#!/usr/bin/env python3
"""What `text-aware` costs against `perceptual` on a phone-sized pair (docs/comparison.md).

Usage: scripts/bench/text_aware_cost.py [--snapdiff PATH] [--runs N] [--keep DIR]

Makes 1170x2532 pairs at scale 3 with 60 lines of 13-pt text (DejaVu Sans, drawn at 3x and
reduced, so a line can be drawn a third of a pixel to the right: subpixel-positioning noise),
each with its element tree, then times `snapdiff compare --match text-aware` against
`--match perceptual` on each pair with scripts/bench/interleave.py (medians, spreads, ratios of
interleaved runs):

  all      every line drawn a third of a pixel aside (every text box differs)
  six      6 of the 60 lines aside
  untreed  6 lines aside that the tree does not have (compared as pixels outside text boxes:
           what EdgeNoise decides)

Each pair is noise; the script prints whether text-aware passes it, and how many pixels
perceptual counts. Needs Pillow.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WIDTH, HEIGHT, SCALE, LINES = 1170, 2532, 3, 60
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def page(shifted, path):
    """Draws the page at 3x, each line in `shifted` one 3x pixel (a third of a pixel) aside."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(FONT, 13 * SCALE * 3)
    big = Image.new("RGB", (WIDTH * 3, HEIGHT * 3), "white")
    draw = ImageDraw.Draw(big)
    for line in range(LINES):
        x = 30 * 3 + (1 if line in shifted else 0)
        draw.text((x, (12 + line * 42) * 3), f"Line {line + 1}: the quick brown fox jumps over 0{line}", font=font,
                  fill=(28, 28, 30))
    big.reduce(3).save(path, optimize=True)


def tree(lines, path):
    children = [{"elementType": "staticText", "label": f"Line {line + 1}: the quick brown fox jumps over 0{line}",
                 "frame": {"x": 10, "y": (12 + line * 42) / SCALE, "width": 360, "height": 16}} for line in lines]
    root = {"elementType": "application", "frame": {"x": 0, "y": 0, "width": WIDTH / SCALE, "height": HEIGHT / SCALE},
            "children": children}
    with open(path, "w") as f:
        json.dump({"scale": SCALE, "screen": {"width": WIDTH / SCALE, "height": HEIGHT / SCALE}, "root": root}, f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--snapdiff", default=os.path.join(ROOT, ".build", "release", "snapdiff"))
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--keep", help="write the pairs here and keep them")
    args = parser.parse_args()
    if not os.access(args.snapdiff, os.X_OK):
        sys.exit(f"text_aware_cost.py: no snapdiff at {args.snapdiff} (swift build -c release --product snapdiff)")
    folder = args.keep or tempfile.mkdtemp(prefix="text-aware-cost-")
    os.makedirs(folder, exist_ok=True)
    every = set(range(LINES))
    six = set(range(0, LINES, 10))
    cases = {"all": (every, every), "six": (six, every), "untreed": (six, every - six)}
    page(set(), os.path.join(folder, "base.png"))
    tree(every, os.path.join(folder, "base.tree.json"))
    for name, (shifted, in_tree) in cases.items():
        current = os.path.join(folder, f"{name}.png")
        page(shifted, current)
        tree(in_tree, os.path.join(folder, f"{name}.tree.json"))
        if name == "untreed":
            # The baseline's tree has the same lines as the current's.
            shutil.copy(os.path.join(folder, "base.png"), os.path.join(folder, "base-untreed.png"))
            tree(in_tree, os.path.join(folder, "base-untreed.tree.json"))
        base = os.path.join(folder, "base-untreed.png" if name == "untreed" else "base.png")
        result = json.loads(subprocess.run([args.snapdiff, "compare", base, current, "--match", "text-aware", "--json"],
                                           capture_output=True, text=True).stdout)
        perceptual = json.loads(subprocess.run([args.snapdiff, "compare", base, current, "--match", "perceptual",
                                                "--json"], capture_output=True, text=True).stdout)
        print(f"{name}: text-aware {'passes' if result['passed'] else 'FAILS'}; perceptual counts "
              f"{perceptual['differentPixels']} pixels", flush=True)
        commands = [f"{level}={args.snapdiff} compare {base} {current} --match {level}"
                    for level in ("text-aware", "perceptual")]
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench", "interleave.py"), "--runs",
                        str(args.runs), *commands], check=True)
    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
