#!/usr/bin/env bash
# Times `snapdiff check --jobs 2` on N tree-only frames (default 1000; make_tree_corpus.py: each
# a 14 KB iPhone-size tree, 1170x2532 pixels at 3x) whose trees are unchanged, interleaved round
# by round (scripts/bench/interleave.py) two ways:
#   reused    the baselines were recorded by `check` (render-stamped): nothing is rendered,
#             decoded or compared
#   rendered  the same baselines without their stamps: every tree rendered, its baseline decoded,
#             both compared (what check did for every tree-only frame before the stamp)
# Prints medians, CPU and the ratio to `rendered`, and one run's peak RSS (GNU time).
#
# Usage: scripts/bench/bench_trees.sh [N] [ROUNDS]
#   SNAPDIFF=path/to/snapdiff to time another build (default: .build/release/snapdiff).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-1000}
rounds=${2:-3}
snapdiff=${SNAPDIFF:-$PWD/.build/release/snapdiff}
here=$PWD
work=$PWD/.build-bench/tree-corpus-$count
[ -x "$snapdiff" ] || swift build -c release --product snapdiff >&2
if [ ! -f "$work/.ready" ]; then
  rm -rf "$work"
  python3 scripts/bench/make_tree_corpus.py "$work" "$count"
  (cd "$work" && "$snapdiff" check frames --record missing --quiet --jobs 2 >/dev/null)
  python3 scripts/bench/make_tree_corpus.py unstamped "$work/baselines" "$work/baselines-unstamped"
  touch "$work/.ready"
fi

cd "$work"
check="$snapdiff check frames --record never --quiet --jobs 2"
$check >/dev/null || { echo "bench_trees.sh: the unchanged run did not pass" >&2; exit 1; }
echo "snapdiff check --jobs 2 on $count unchanged tree-only frames ($(nproc) cores): $("$snapdiff" --version | tail -1)"
python3 "$here/scripts/bench/interleave.py" --runs "$rounds" --warmup 1 --ref rendered \
  "reused=$check" "rendered=$check --baselines baselines-unstamped"
if [ -x /usr/bin/time ]; then
  for variant in reused rendered; do
    extra=""
    [ "$variant" = reused ] || extra="--baselines baselines-unstamped"
    # shellcheck disable=SC2086 # $check and $extra are word lists on purpose
    /usr/bin/time -o .time -f "$variant: peak RSS %M KiB, %e s" $check $extra >/dev/null
    tail -n 1 .time
  done
  rm -f .time
fi
