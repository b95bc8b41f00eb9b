#!/usr/bin/env bash
# Times `snapdiff check` on a whole run: N iPhone-size snapshot pairs (default 500), mostly
# unchanged, a few changed, with 1 job and with 2. Two kinds of unchanged frames:
#   same-bytes  the current PNG is byte-identical to its baseline (same renderer, same encoder)
#   re-encoded  the same pixels written by another encoder (every pair must be decoded)
#
# Usage: scripts/bench_check.sh [N]       (needs the corpus of scripts/bench.sh, Pillow, hyperfine)
#   SNAPDIFF=path/to/snapdiff to time another build (default: .build/release/snapdiff).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-500}
changed=10
snapdiff=${SNAPDIFF:-$PWD/.build/release/snapdiff}
corpus=.build-bench/corpus
work=.build-bench/check-$count
[ -f "$corpus/iphone-a.png" ] || { echo "no corpus: run scripts/bench.sh first" >&2; exit 2; }
[ -x "$snapdiff" ] || swift build -c release --product snapdiff >&2

if [ ! -f "$work/.ready" ]; then
  rm -rf "$work" && mkdir -p "$work"
  python3 - "$corpus" "$work" "$count" "$changed" <<'PY'
import os, shutil, sys
from PIL import Image
corpus, work, count, changed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
a, b = os.path.join(corpus, "iphone-a.png"), os.path.join(corpus, "iphone-b.png")
reencoded = os.path.join(work, "iphone-a-reencoded.png")
Image.open(a).save(reencoded, compress_level=1)
for index in range(count):
    key = f"Screens - test_{index:04d}/Screen.png"
    for folder, source in (("baselines", a), ("same-bytes", a if index >= changed else b),
                           ("re-encoded", reencoded if index >= changed else b)):
        path = os.path.join(work, folder, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(source, path)
PY
  touch "$work/.ready"
fi

cd "$work"
echo "snapdiff check on $count iPhone-size pairs ($changed changed), $(nproc) cores"
for frames in same-bytes re-encoded; do
  hyperfine -N -i --warmup 1 --runs 3 \
    -n "$frames, 1 job" "$snapdiff check $frames --record never --quiet --jobs 1 --no-cache" \
    -n "$frames, 2 jobs" "$snapdiff check $frames --record never --quiet --jobs 2 --no-cache" \
    --export-json "hyperfine-$frames.json" | grep -E "Benchmark|Time|±|faster|^  [0-9]" || true
done
# The cache of decoded baselines: cold (emptied before each run) against warm.
hyperfine -i --warmup 1 --runs 3 \
  --prepare "rm -rf .snapdiff/cache" -n "re-encoded, 2 jobs, cold cache" \
  "$snapdiff check re-encoded --record never --quiet --jobs 2" \
  --export-json hyperfine-cache-cold.json | grep -E "Benchmark|Time" || true
hyperfine -i --warmup 1 --runs 3 -n "re-encoded, 2 jobs, warm cache" \
  "$snapdiff check re-encoded --record never --quiet --jobs 2" \
  --export-json hyperfine-cache-warm.json | grep -E "Benchmark|Time" || true
rm -rf .snapdiff
