#!/usr/bin/env python3
"""Print pixelmatch's different-pixel count for two PNGs (the reference for snapdiff).

Usage: pixelmatch_count.py A.png B.png

Loads both files with Pillow as RGBA and runs pixelmatch-py (PyPI `pixelmatch`, a port of
mapbox/pixelmatch) with its defaults: threshold 0.1, includeAA False, no diff image.
Exit code 0 on success, 2 on bad input (e.g. sizes differ: pixelmatch needs equal sizes).
"""
import sys

from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a = Image.open(sys.argv[1]).convert("RGBA")
    b = Image.open(sys.argv[2]).convert("RGBA")
    if a.size != b.size:
        print(f"sizes differ: {a.size} vs {b.size}", file=sys.stderr)
        return 2
    print(pixelmatch(a, b, None, threshold=0.1, includeAA=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
