#!/usr/bin/env bash
# The confusion table of every match level and setting on a folder of labelled pairs (PNGs and
# a cases.json: id, kind noise/change/unknown, a, b, noise_class, repo), by `snapdiff calibrate`
# in a release build, with the wall time of the whole run. The pairs are read where they are:
# never copy a corpus into the repository.
#
# Usage: scripts/bench/calibrate.sh PAIRS [calibrate options…]
#   e.g. scripts/bench/calibrate.sh ../shared/corpora/ios-snapshots --by-group
#   SNAPDIFF=path/to/snapdiff uses that build instead of building .build/release/snapdiff.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: scripts/bench/calibrate.sh PAIRS [calibrate options…]" >&2; exit 64; }
pairs=$(cd "$1" && pwd) || { echo "calibrate.sh: $1: not a folder" >&2; exit 2; }
shift
cd "$(dirname "$0")/../.."
snapdiff=${SNAPDIFF:-.build/release/snapdiff}
if [[ -z "${SNAPDIFF:-}" ]]; then
  nice -n 10 swift build -c release --product snapdiff >&2
fi
start=$(date +%s.%N)
"$snapdiff" calibrate "$pairs" "$@"
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
printf '\n%s: %s pairs in %s s on %s cores (%s)\n' "$(basename "$pairs")" \
  "$(grep -o '"id"' "$pairs/cases.json" | wc -l)" "$seconds" "$(nproc)" "$(git rev-parse --short HEAD)" >&2
