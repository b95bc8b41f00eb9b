#!/usr/bin/env bash
# Times `snapdiff check --jobs 2` on N distinct iPhone-size pairs (default 200; 20 changed), whose
# frames are the baselines' pixels re-encoded (every pair is decoded), three ways, interleaved
# round by round (scripts/bench/interleave.py): no cache (`--no-cache`: both PNGs decoded), the
# baseline cache warm (baselines read back from .snapdiff/cache), and the run that fills the
# cache (emptied before each round). Prints medians, CPU and ratios to the no-cache run, and the
# cache's size on disk against the baselines' PNGs, and one run's peak RSS each (GNU time); then
# where the time of one run without the cache and one warm run went (`check --timings`: reading,
# decoding, comparing, diff images, keeping images, run record, reports; the share of the
# process's CPU outside decoding and comparing).
#
# Usage: scripts/bench/check_cache.sh [N] [ROUNDS]   (needs Pillow and numpy for the corpus)
#   SNAPDIFF=path/to/snapdiff to time another build (default: .build/release/snapdiff).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-200}
rounds=${2:-7}
snapdiff=${SNAPDIFF:-$PWD/.build/release/snapdiff}
work=$PWD/.build-bench/check-corpus-$count
[ -x "$snapdiff" ] || swift build -c release --product snapdiff >&2
[ -f "$work/.ready" ] || python3 scripts/bench/make_check_corpus.py "$work" "$count" 20 >&2

cd "$work"
rm -rf .snapdiff
check="$snapdiff check frames --record never --quiet --jobs 2"
$check >/dev/null || true # fills the cache for the warm runs
cache_bytes=$(du -sb .snapdiff/cache | cut -f1)
png_bytes=$(du -sb baselines | cut -f1)
echo "snapdiff check --jobs 2 on $count iPhone-size pairs ($(nproc) cores): $("$snapdiff" --version | tail -1)"
python3 "$OLDPWD/scripts/bench/interleave.py" --runs "$rounds" --warmup 1 --ref no-cache \
  "warm=$check" \
  "filling=sh -c 'rm -rf .snapdiff/cache.fill && mv .snapdiff/cache .snapdiff/cache.fill && $check; s=\$?; rm -rf .snapdiff/cache && mv .snapdiff/cache.fill .snapdiff/cache; exit \$s'" \
  "no-cache=$check --no-cache" || true
if [ -x /usr/bin/time ]; then
  # shellcheck disable=SC2086 # $check is a word list on purpose
  /usr/bin/time -o .time -f "warm: peak RSS %M KiB, %e s" $check >/dev/null || true
  tail -n 1 .time
  # shellcheck disable=SC2086
  /usr/bin/time -o .time -f "no cache: peak RSS %M KiB, %e s" $check --no-cache >/dev/null || true
  tail -n 1 .time
  rm -f .time
fi
for run in "no cache:--no-cache" "warm:"; do
  echo
  echo "${run%%:*}, one run:"
  # shellcheck disable=SC2086 # $check is a word list on purpose
  $check ${run#*:} --timings 2>&1 >/dev/null | sed -n '/^check --timings/,$p' || true
done
echo
python3 - "$cache_bytes" "$png_bytes" "$count" <<'PY'
import sys
cache, png, count = (int(x) for x in sys.argv[1:])
print(f"cache on disk: {cache / 1e6:.1f} MB for {png / 1e6:.1f} MB of baseline PNGs ({cache / png:.2f}x); "
      f"raw RGBA would be {count * 1170 * 2532 * 4 / 1e6:.0f} MB")
PY
