#!/usr/bin/env bash
# Times the deflate encoders a diff image can be written with (snapdiff's run-and-row encoder,
# zlib level 1, libdeflate levels 1 and 2) on the diff images of bench.sh's pairs: each diff image
# is written by snapdiff, its palette scanlines read back with Pillow, and
# scripts/bench/encoders/diff_encoders.c deflates them as the writer would (two halves), ROUNDS
# times each, one thread, and checks that zlib inflates every output back to the scanlines.
#
# Usage: scripts/bench/diff_encoders.sh [SNAPDIFF] [ROUNDS]   (default .build/release/snapdiff, 21)
#   BENCH_PAIRS  the pairs (default "iphone fhd 4k"); run scripts/bench.sh once first: it makes
#                the corpus in .build-bench/corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."
snapdiff=${1:-.build/release/snapdiff} rounds=${2:-21}
corpus=.build-bench/corpus work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -x "$snapdiff" ]] || { echo "diff_encoders.sh: no snapdiff at $snapdiff (swift build -c release)" >&2; exit 2; }
[[ -d "$corpus" ]] || { echo "diff_encoders.sh: run scripts/bench.sh first (it makes the corpus)" >&2; exit 2; }
cc -O2 -I Sources/CDeflate/include scripts/bench/encoders/diff_encoders.c Sources/CDeflate/CRunDeflate.c \
  -lz -ldeflate -o "$work/diff_encoders"
for pair in ${BENCH_PAIRS:-iphone fhd 4k}; do
  "$snapdiff" compare "$corpus/$pair-a.png" "$corpus/$pair-b.png" --diff "$work/diff.png" >/dev/null || true
  width=$(python3 - "$work/diff.png" "$work/lines" <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1])
if image.mode != "P":
    sys.exit(f"{sys.argv[1]}: not a palette image ({image.mode})")
width, height = image.size
pixels = image.tobytes()
with open(sys.argv[2], "wb") as out:
    for y in range(height):
        out.write(b"\0" + pixels[y * width:(y + 1) * width])
print(width)
PY
)
  echo "== $pair diff image ($width wide; CPU of both halves, one thread, $rounds rounds)"
  "$work/diff_encoders" "$work/lines" "$width" "$rounds"
done
