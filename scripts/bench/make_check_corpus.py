#!/usr/bin/env python3
"""A corpus for timing `snapdiff check` on a whole run of distinct screens.

N iPhone-size (1170x2532 RGBA) screens, each drawn by make_corpus.py's renderer from its own seed
(so no two baselines are alike, as in a real suite), saved as baselines with Pillow's defaults
(zlib level 6). The frames are the baselines' pixels re-encoded at zlib level 1 (other bytes, same
pixels: every pair is decoded), except the first CHANGED, which are the renderer's "b" variant
(a few glyphs, a 1 px shift, a colour tweak).

Usage: make_check_corpus.py OUT [N=200] [CHANGED=20]
Writes OUT/baselines/Screens - test_NNNN/Screen.png and OUT/frames/... and OUT/.ready last.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_corpus  # noqa: E402


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    changed = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    for index in range(count):
        key = f"Screens - test_{index:04d}/Screen.png"
        baseline = os.path.join(out, "baselines", key)
        frame = os.path.join(out, "frames", key)
        if os.path.exists(frame):
            continue  # resumable
        os.makedirs(os.path.dirname(baseline), exist_ok=True)
        os.makedirs(os.path.dirname(frame), exist_ok=True)
        seed = 7000 + index
        a = make_corpus.render(1170, 2532, "a", seed).convert("RGBA")
        a.save(baseline, format="PNG")
        current = make_corpus.render(1170, 2532, "b", seed).convert("RGBA") if index < changed else a
        current.save(frame + ".tmp", format="PNG", compress_level=1)
        os.replace(frame + ".tmp", frame)
    open(os.path.join(out, ".ready"), "w").close()


if __name__ == "__main__":
    main()
