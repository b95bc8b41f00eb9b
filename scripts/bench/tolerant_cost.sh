#!/usr/bin/env bash
# scripts/bench/tolerant_cost.sh: what `--match rendering-tolerant` costs against `strict`
# (docs/comparison.md).
#
# Usage: scripts/bench/tolerant_cost.sh [CORPUS]
#
# Times `snapdiff compare A B` at strict and at rendering-tolerant, interleaved round by round
# (scripts/bench/interleave.py; the ratio is the median of each round's ratio), on:
#   iphone        the benchmark's 1170x2532 pair (scripts/bench/make_corpus.py: text edits, a
#                 card moved 1 px, a recoloured button; made once under .build-bench/corpus)
#   CORPUS pairs  when CORPUS (a folder like ../shared/corpora/ios-snapshots) is given, four of
#                 its pairs: rios-d049 (Adyen, 1179x2556, 116,935 pixels differ by 1-3 levels),
#                 rios-d041 (Adyen, 22,343 differ, anti-aliasing re-blended), rios-d004 (a title
#                 re-laid 2 px lower, 760x1136) and rios-d127 (Adyen, 1640x2360, 2 million pixels
#                 differ: the worst case, where every differing pixel is searched around)
# with the release build (swift build -c release --product snapdiff; built if missing).
#
# Environment: BENCH_RUNS (interleaved rounds, default 15), SNAPDIFF (the binary).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
RUNS="${BENCH_RUNS:-15}"
SNAPDIFF="${SNAPDIFF:-$ROOT/.build/release/snapdiff}"
CORPUS_OUT="$ROOT/.build-bench/corpus"

if [ ! -x "$SNAPDIFF" ]; then
  (cd "$ROOT" && swift build -c release --product snapdiff >&2)
fi
if [ ! -f "$CORPUS_OUT/iphone-a.png" ]; then
  python3 "$ROOT/scripts/bench/make_corpus.py" "$CORPUS_OUT" >&2
fi

pairs=("iphone:$CORPUS_OUT/iphone-a.png:$CORPUS_OUT/iphone-b.png")
if [ $# -ge 1 ]; then
  for id in rios-d049 rios-d041 rios-d004 rios-d127; do
    pairs+=("$id:$1/pairs/$id-a.png:$1/pairs/$id-b.png")
  done
fi

for pair in "${pairs[@]}"; do
  IFS=: read -r name a b <<<"$pair"
  echo "== $name: $("$SNAPDIFF" compare "$a" "$b" --match rendering-tolerant | head -1)"
  python3 "$ROOT/scripts/bench/interleave.py" --runs "$RUNS" --ref strict \
    "rendering-tolerant=$SNAPDIFF compare $a $b --match rendering-tolerant" \
    "strict=$SNAPDIFF compare $a $b"
done
