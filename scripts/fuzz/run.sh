#!/usr/bin/env bash
# Builds the fuzzers (scripts/fuzz/build.sh) and runs each for SECONDS_PER_TARGET (default 60),
# two at a time (FUZZ_JOBS, default 2), then prints one line per target: executions, coverage
# (libFuzzer's `cov:`, edges of snapdiff's own code: libpng, zlib and Foundation are not
# instrumented), corpus size and crashes. fuzz-request runs the service's request decoding
# (multipart bodies, settings, open-run and approve JSON, key paths, uploads); fuzz-store the store's
# confinement and the frames listing on random folder layouts with links and non-UTF-8 names;
# fuzz-cache the baseline cache's entry files; fuzz-levels the perceptual and text-aware levels on frames
# with element trees made from the input; fuzz-encode the PNG writers (diff images and baselines)
# on images made from the input, read back by libpng and the fast path; fuzz-merge a merged part's
# run.json (its paths, hashes, verdicts and shards); fuzz-log the approval log (torn and forged
# lines, then undo and an append).
#
#   scripts/fuzz/run.sh [SECONDS_PER_TARGET]
#   FUZZ_TARGETS="fuzz-png fuzz-diff" scripts/fuzz/run.sh 600     # some targets only
#   FUZZ_NO_BUILD=1 scripts/fuzz/run.sh 30                        # reuse the last build
#
# Corpora grow in .build-fuzz/libfuzzer/corpus/<target> from run to run, seeded from the test
# fixtures (PNG files, element trees, XCUITest dumps), scripts/fuzz/make_seeds.py (PNGs, diff
# inputs, requests) and past crashes. A crash, timeout or out-of-memory input is written to
# .build-fuzz/libfuzzer/artifacts/<target>/ and the script exits 1: reproduce it with
# `.build-fuzz/libfuzzer/bin/<target> FILE`, fix it, and add the file to
# Tests/SnapdiffCoreTests/Fixtures/fuzz-regressions/ named after its target (`png-…`, `diff-…`,
# `tree-…`, `xcui-…`, `request-…`): FuzzRegressionTests.swift replays it (`request-…` inputs:
# Tests/SnapdiffServerTests/RequestFuzzRegressionTests.swift).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SECONDS_PER_TARGET=${1:-60}
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz/libfuzzer}
JOBS=${FUZZ_JOBS:-2}
# A Swift trap then ends in libFuzzer's own report (the Swift backtracer, reading other threads'
# memory, trips AddressSanitizer).
export SWIFT_BACKTRACE=enable=no
TARGETS=(${FUZZ_TARGETS:-fuzz-png fuzz-diff fuzz-levels fuzz-tree fuzz-xcui fuzz-request fuzz-store fuzz-cache fuzz-encode fuzz-merge fuzz-log})
FIXTURES=Tests/SnapdiffCoreTests/Fixtures

[ -n "${FUZZ_NO_BUILD:-}" ] || FUZZ_OUT=$OUT FUZZ_TARGETS="${TARGETS[*]}" scripts/fuzz/build.sh

# Seeds, rebuilt every run (cheap); corpora are kept.
rm -rf "$OUT/seeds"
mkdir -p "$OUT/seeds"/{fuzz-png,fuzz-diff,fuzz-levels,fuzz-tree,fuzz-xcui,fuzz-request,fuzz-store,fuzz-cache,fuzz-encode,fuzz-merge,fuzz-log}
# fuzz-store: a few layouts (a link out of the store with probes through it; a linked root).
printf '\x00\x02\x00\x02\x00\x00\x03\x01\x02\x03\x03\x01\x02\x03' >"$OUT/seeds/fuzz-store/escape"
printf '\x01\x00\x00\x00\x01\x01\x00\x04\x03\x01\x00\x04' >"$OUT/seeds/fuzz-store/linked-root-invalid-name"
python3 scripts/fuzz/make_seeds.py png "$OUT/seeds/fuzz-png"
python3 scripts/fuzz/make_seeds.py diff "$OUT/seeds/fuzz-diff"
python3 scripts/fuzz/make_seeds.py levels "$OUT/seeds/fuzz-levels"
python3 scripts/fuzz/make_seeds.py request "$OUT/seeds/fuzz-request"
# fuzz-cache: a valid entry, whole and as fields (the harness writes them).
if [ -x "$OUT/bin/fuzz-cache" ]; then FUZZ_CACHE_SEEDS="$OUT/seeds/fuzz-cache" "$OUT/bin/fuzz-cache"; fi
# fuzz-merge: a valid part's run.json (the harness writes them); fuzz-log: a whole log and a torn one.
if [ -x "$OUT/bin/fuzz-merge" ]; then FUZZ_MERGE_SEEDS="$OUT/seeds/fuzz-merge" "$OUT/bin/fuzz-merge"; fi
LOG_LINE='{"action":"approve","baselines":"../baselines","id":"1","key":"K","new":"'$(printf 'a%.0s' {1..64})'","previousStatus":"failed","run":"20260101-000000-000","time":"t","user":"u"}'
printf '%s\n%s\n' "$LOG_LINE" "${LOG_LINE/approve/undo}" >"$OUT/seeds/fuzz-log/whole"
printf '%s\n%s' "$LOG_LINE" "${LOG_LINE:0:70}" >"$OUT/seeds/fuzz-log/torn"
find "$FIXTURES" examples -name '*.png' -size -64k -exec cp {} "$OUT/seeds/fuzz-png/" \;
cp "$FIXTURES"/trees/*.json examples/trees/*.json "$OUT/seeds/fuzz-tree/" 2>/dev/null || true
cp "$FIXTURES"/xcuitest/*.txt "$OUT/seeds/fuzz-xcui/"
if [ -d "$FIXTURES/fuzz-regressions" ]; then
  # Past crashes stay in the seeds, so a regression is found again at once.
  for target in "${TARGETS[@]}"; do
    find "$FIXTURES/fuzz-regressions" -name "${target#fuzz-}-*" -exec cp {} "$OUT/seeds/$target/" \;
  done
fi
# Inputs that only a harness reads (folder layouts for fuzz-store) stay beside the harnesses.
for target in "${TARGETS[@]}"; do
  [ -d "scripts/fuzz/regressions/$target" ] && cp scripts/fuzz/regressions/"$target"/* "$OUT/seeds/$target/"
done

max_len() {
  case $1 in
    fuzz-png) echo 16384 ;;
    fuzz-diff | fuzz-levels) echo 4096 ;;
    # Room for a dump past the depth limit (xcui-deep-201-levels.txt: 25 KB; each level costs
    # its indentation).
    fuzz-xcui) echo 32768 ;;
    *) echo 16384 ;;
  esac
}

run_target() {
  local target=$1
  local dict=scripts/fuzz/dict/${target#fuzz-}.dict
  mkdir -p "$OUT/corpus/$target" "$OUT/artifacts/$target" "$OUT/logs"
  local options=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048
    -max_len="$(max_len "$target")" -print_final_stats=1
    -artifact_prefix="$OUT/artifacts/$target/")
  [ -f "$dict" ] && options+=(-dict="$dict")
  "$OUT/bin/$target" "${options[@]}" "$OUT/corpus/$target" "$OUT/seeds/$target" \
    >"$OUT/logs/$target.log" 2>&1 || true
}

echo "fuzz: ${TARGETS[*]}, ${SECONDS_PER_TARGET}s each, $JOBS at a time; logs in $OUT/logs" >&2
running=0
for target in "${TARGETS[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

status=0
total=0
for target in "${TARGETS[@]}"; do
  log=$OUT/logs/$target.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  corpus=$(grep -oE 'corp: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  crash=$(grep -m1 -oE "Test unit written to [^ ]+" "$log" | sed 's/Test unit written to //' || true)
  if [ -n "$crash" ] || ! grep -q '^Done [0-9]* runs' "$log"; then
    status=1
    reason=$(grep -m1 -E '^==[0-9]+==ERROR|Fatal error|Precondition failed|deadly signal|ALARM|out-of-memory' "$log" || true)
    printf '%-12s executions: %10s  cov: %5s  ft: %6s  corpus: %5s  crashes: 1  %s  %s\n' \
      "$target" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "${crash:-(no artifact)}" "$reason"
  else
    printf '%-12s executions: %10s  cov: %5s  ft: %6s  corpus: %5s  exec/s: %6s  crashes: 0\n' \
      "$target" "$runs" "$cov" "$ft" "$corpus" "$speed"
  fi
  total=$((total + ${runs:-0}))
done
echo "total executions: $total"
exit $status
