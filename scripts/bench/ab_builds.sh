#!/usr/bin/env bash
# Times two snapdiff builds against each other on bench.sh's pairs, with the libdeflate inflate
# floor beside them: `compare A B` and `compare A B --diff OUT` of each build, and the floor,
# interleaved round by round (scripts/bench/interleave.py), so the before → after of a change is
# read from one run on this noisy shared machine. Prints, per pair, medians, CPU and each
# command's ratio to the inflate floor (the median of the per-round ratios).
#
# Usage: scripts/bench/ab_builds.sh OLD_SNAPDIFF NEW_SNAPDIFF [ROUNDS]   (default 20 rounds)
#   BENCH_PAIRS  the pairs (default "iphone fhd 4k fhd-same"); run scripts/bench.sh once first:
#                it makes the corpus and the floor in .build-bench/.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 2 ]] || { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; exit 2; }
old=$1 new=$2 rounds=${3:-20}
corpus=.build-bench/corpus floor=.build-bench/inflatefloor scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[[ -x "$floor" && -d "$corpus" ]] || { echo "ab_builds.sh: run scripts/bench.sh first (corpus, floor)" >&2; exit 2; }
for pair in ${BENCH_PAIRS:-iphone fhd 4k fhd-same}; do
  a=$corpus/$pair-a.png b=$corpus/$pair-b.png
  echo "== $pair ($rounds rounds; x floor: the libdeflate inflate floor)"
  python3 scripts/bench/interleave.py --runs "$rounds" --warmup 2 --ref floor \
    "old=$old compare $a $b" "new=$new compare $a $b" \
    "old--diff=$old compare $a $b --diff $scratch/old.png" "new--diff=$new compare $a $b --diff $scratch/new.png" \
    "floor=$floor $a $b"
done
