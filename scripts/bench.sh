#!/usr/bin/env bash
# scripts/bench.sh: benchmark snapdiff against the floor and its peers.
#
# Usage: scripts/bench.sh [--help]          (run from anywhere; works on the repo it lives in)
#
# What it does, in order:
#   1. installs what is missing: hyperfine, imagemagick, GNU time, libpng-dev, libdeflate-dev (Debian, via
#      apt-get), pillow, numpy and pixelmatch 0.4.x (PyPI, via pip);
#   2. builds snapdiff as the README tells a user to (swift build -c release --product snapdiff:
#      Package.swift links the Swift runtime statically on Linux; the report says which build it
#      timed and how many shared libraries it loads) and the two
#      floors in scripts/bench/floors/: pngfloor (read + libpng decode + exact compare) and
#      inflatefloor (read + inflate the image data only, no CRC, no unfiltering: a lower bound
#      no PNG decoder beats), built with libdeflate and run a second time with zlib;
#   3. makes the screenshot corpus with scripts/bench/make_corpus.py (cached);
#   4. per pair, times these interleaved, round by round in random order
#      (scripts/bench/interleave.py: on this noisy shared machine back-to-back runs drift, so the
#      ratios are medians of each round's ratio to the libdeflate inflate floor):
#        snapdiff            snapdiff compare A B
#        snapdiff --diff     snapdiff compare A B --diff OUT.png
#        pngfloor            pngfloor --once A B
#        inflate (libdeflate) inflatefloor A B
#        inflate (zlib)      inflatefloor --zlib A B
#        imagemagick         compare -metric AE -fuzz 0 A B null:
#        odiff               $ODIFF A B OUT.png   (only when ODIFF names an odiff binary, or
#                            `odiff` is on PATH and is odiff's image diff)
#        pixelmatch-py       scripts/bench/pixelmatch_count.py A B   (own, shorter hyperfine run)
#      measures each command's peak RSS once with /usr/bin/time, and collects each tool's
#      different-pixel count;
#   5. start-up: `snapdiff compare` of two 1×1 PNGs and `snapdiff --version`, interleaved with
#      /bin/true (5 × BENCH_RUNS rounds);
#   6. whole runs (unless BENCH_SKIP_RUNS=1): scripts/bench/check_cache.sh (check --jobs 2 on 200
#      distinct iPhone-size re-encoded pairs: warm cache, filling, no cache, and where each
#      run's time went, from `check --timings`) and
#      scripts/bench/bench_trees.sh (check --jobs 2 on 1,000 unchanged tree-only frames);
#   7. prints Markdown tables (median wall time, peak RSS, count, x floors, x snapdiff) and
#      writes them to .build-bench/results.md.
#
# Environment:
#   BENCH_RUNS         timed runs per command (default 10)
#   BENCH_WARMUP       warm-up runs per command (default 2)
#   BENCH_PAIRS        pairs to run (default "iphone fhd 4k fhd-same")
#   BENCH_SKIP_PYTHON  1 = skip pixelmatch-py (it is slow); then no parity check is done
#   BENCH_SKIP_RUNS    1 = skip the whole-run benchmarks of step 5 (they take several minutes)
#   BENCH_CHECK_ROUNDS interleaved rounds of check_cache.sh (default 5)
#   ODIFF              an odiff binary to time beside the others (odiff is not packaged for
#                      Debian; npm's odiff-bin ships it)
#   BENCH_PY_RUNS      timed runs for pixelmatch-py (default 3, no warm-up)
#   SNAPDIFF_SCRATCH   SwiftPM scratch (build) folder for snapdiff (default: the package's .build)
#   SNAPDIFF_LINK      how Package.swift links snapdiff on Linux (read by the manifest itself, so
#                      a user's `swift build` gets the same): unset or static-stdlib, the default
#                      (the Swift runtime, Dispatch and FoundationEssentials inside the
#                      executable), or dynamic (as shared libraries: a slower start)
#
# Also here: scripts/bench/interleave.py, which times commands round by round in random order
# (for A/B comparisons on a noisy shared machine, where back-to-back runs drift).
#
# Exit status: 0 when done and snapdiff's counts equal pixelmatch-py's; 1 when some count
# differs (the tables show MISMATCH); 2 on a setup or tool error.
#
# Everything it makes goes to .build-bench/ (git-ignored): corpus/, pngfloor, raw/ (hyperfine
# JSON exports, per-pair counts), diff images, results.md.

set -euo pipefail

usage() { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  "") ;;
  *) echo "bench.sh: unknown argument: $1 (try --help)" >&2; exit 2 ;;
esac

# ---------------------------------------------------------------------------------------------
# Settings and paths
# ---------------------------------------------------------------------------------------------
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HELPERS="$REPO/scripts/bench"
FLOORS="$HELPERS/floors"
OUT="$REPO/.build-bench"
CORPUS="$OUT/corpus"
RAW="$OUT/raw"

RUNS="${BENCH_RUNS:-10}"
SKIP_RUNS="${BENCH_SKIP_RUNS:-0}"
CHECK_ROUNDS="${BENCH_CHECK_ROUNDS:-5}"
WARMUP="${BENCH_WARMUP:-2}"
PY_RUNS="${BENCH_PY_RUNS:-3}"
ALL_PAIRS="iphone fhd 4k fhd-same" # what make_corpus.py makes
PAIRS="${BENCH_PAIRS:-$ALL_PAIRS}"
SKIP_PYTHON="${BENCH_SKIP_PYTHON:-0}"
if [[ "$SKIP_PYTHON" == 1 || "$SKIP_PYTHON" == true ]]; then SKIP_PYTHON=1; else SKIP_PYTHON=0; fi

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'bench.sh: error: %s\n' "$*" >&2; exit 2; }

for n in "$RUNS" "$WARMUP" "$PY_RUNS"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "BENCH_RUNS, BENCH_WARMUP and BENCH_PY_RUNS must be whole numbers (got '$n')"
done
((RUNS >= 1 && PY_RUNS >= 1)) || die "BENCH_RUNS and BENCH_PY_RUNS must be at least 1"
for pair in $PAIRS; do
  [[ " $ALL_PAIRS " == *" $pair "* ]] || die "unknown pair '$pair' in BENCH_PAIRS (known: $ALL_PAIRS)"
done
[[ -n "${PAIRS// /}" ]] || die "BENCH_PAIRS is empty"

cd "$REPO"
mkdir -p "$OUT" "$CORPUS" "$RAW"

# ---------------------------------------------------------------------------------------------
# 1. Dependencies (install only what is missing)
# ---------------------------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
  command -v apt-get >/dev/null || die "missing $*, and apt-get is not available to install it"
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  if ((APT_UPDATED == 0)); then
    log "apt-get update"
    "${sudo[@]}" apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The real ImageMagick `compare` (a stand-in `convert` may shadow ImageMagick on PATH).
is_imagemagick() { "$1" -version 2>/dev/null | grep -q ImageMagick; }

apt_missing=()
command -v hyperfine >/dev/null || apt_missing+=(hyperfine)
is_imagemagick compare || apt_missing+=(imagemagick)
[[ -x /usr/bin/time ]] || apt_missing+=(time)
[[ -f /usr/include/png.h ]] || apt_missing+=(libpng-dev)
[[ -f /usr/include/libdeflate.h ]] || apt_missing+=(libdeflate-dev)
command -v cc >/dev/null || apt_missing+=(gcc libc6-dev)
command -v python3 >/dev/null || apt_missing+=(python3)
((${#apt_missing[@]} == 0)) || apt_install "${apt_missing[@]}"
python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip

# The interpreter itself (not a pyenv shim) so that hyperfine times Python, not a wrapper.
PY="$(python3 -c 'import sys; print(sys.executable)')"

pip_missing=()
"$PY" -c 'import PIL' 2>/dev/null || pip_missing+=(pillow)
"$PY" -c 'import numpy' 2>/dev/null || pip_missing+=(numpy)
if ((SKIP_PYTHON == 0)); then
  "$PY" -c 'import pixelmatch' 2>/dev/null || pip_missing+=('pixelmatch>=0.4,<0.5')
fi
if ((${#pip_missing[@]} > 0)); then
  pip_flags=(--quiet --disable-pip-version-check --root-user-action=ignore)
  # Debian's own python3 refuses pip installs (PEP 668) unless told otherwise.
  if [[ -f "$("$PY" -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')/EXTERNALLY-MANAGED" ]]; then
    pip_flags+=(--break-system-packages)
  fi
  log "pip install ${pip_missing[*]}"
  "$PY" -m pip install "${pip_flags[@]}" "${pip_missing[@]}"
fi

COMPARE="$(command -v compare)"
is_imagemagick "$COMPARE" || die "'compare' on PATH ($COMPARE) is not ImageMagick's"

# odiff (the image diff, dmtrKovalenko/odiff) when there is one: npm's odiff-bin ships it, Debian
# does not, and PyPI's `odiff` is an unrelated JSON/YAML diff.
ODIFF="${ODIFF:-$(command -v odiff || true)}"
if [[ -n "$ODIFF" ]] && ! "$ODIFF" --help 2>&1 | grep -qi "diff"; then ODIFF=""; fi
if [[ -z "$ODIFF" ]]; then log "odiff: not found (set ODIFF=path/to/odiff to include it)"; fi

# ---------------------------------------------------------------------------------------------
# 2. Builds
# ---------------------------------------------------------------------------------------------
LINK="${SNAPDIFF_LINK:-static-stdlib}"
case "$LINK" in
  static-stdlib | dynamic) ;;
  *) die "SNAPDIFF_LINK must be static-stdlib or dynamic (got '$LINK')" ;;
esac
build_flags=(-c release)
[[ -z "${SNAPDIFF_SCRATCH:-}" ]] || build_flags+=(--scratch-path "$SNAPDIFF_SCRATCH")
log "SNAPDIFF_LINK=$LINK swift build ${build_flags[*]} --product snapdiff"
SNAPDIFF_LINK="$LINK" swift build "${build_flags[@]}" --product snapdiff >&2 || die "swift build failed" # stdout: the report
SNAPDIFF="$(SNAPDIFF_LINK="$LINK" swift build "${build_flags[@]}" --show-bin-path)/snapdiff"
[[ -x "$SNAPDIFF" ]] || die "snapdiff binary not found at $SNAPDIFF"
# What the binary loads at start: the build described in the report.
if command -v ldd >/dev/null; then
  shared="$(ldd "$SNAPDIFF" | grep -c '=>' || true)"
  swift_shared="$(ldd "$SNAPDIFF" | grep -c 'libswiftCore\|libFoundation' || true)"
  if ((swift_shared == 0)); then
    BUILD_NOTE="the Swift runtime inside the executable; $shared shared libraries (libpng, LittleCMS, …)"
  else
    BUILD_NOTE="the Swift runtime as shared libraries; $shared shared libraries"
  fi
else
  BUILD_NOTE="SNAPDIFF_LINK=$LINK"
fi
BUILD_COMMAND="swift build ${build_flags[*]} --product snapdiff (the README's build)"
[[ "$LINK" != dynamic ]] || BUILD_COMMAND="SNAPDIFF_LINK=dynamic swift build ${build_flags[*]} --product snapdiff"

PNGFLOOR="$OUT/pngfloor"
if [[ ! -x "$PNGFLOOR" || "$FLOORS/pngfloor.c" -nt "$PNGFLOOR" ]]; then
  log "cc -O2 pngfloor.c"
  cc -O2 -o "$PNGFLOOR" "$FLOORS/pngfloor.c" -lpng -lz -pthread
fi
INFLATEFLOOR="$OUT/inflatefloor"
if [[ ! -x "$INFLATEFLOOR" || "$FLOORS/inflatefloor.c" -nt "$INFLATEFLOOR" ]]; then
  log "cc -O2 inflatefloor.c"
  cc -O2 -o "$INFLATEFLOOR" "$FLOORS/inflatefloor.c" -ldeflate -lz -pthread
fi

# ---------------------------------------------------------------------------------------------
# 3. Corpus (cached; remade when make_corpus.py or Pillow changes, since both shape the pixels)
# ---------------------------------------------------------------------------------------------
stamp="$(sha256sum "$HELPERS/make_corpus.py" | cut -c1-16) pillow-$("$PY" -c 'import PIL; print(PIL.__version__)')"
have_all=1
for pair in $PAIRS; do
  [[ -f "$CORPUS/$pair-a.png" && -f "$CORPUS/$pair-b.png" ]] || have_all=0
done
if ((have_all == 0)) || [[ "$(cat "$CORPUS/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  log "making the corpus in $CORPUS"
  "$PY" "$HELPERS/make_corpus.py" "$CORPUS" >&2
  echo "$stamp" >"$CORPUS/.stamp"
fi
for pair in $PAIRS; do
  [[ -f "$CORPUS/$pair-a.png" && -f "$CORPUS/$pair-b.png" ]] || die "make_corpus.py made no pair '$pair'"
done

# ---------------------------------------------------------------------------------------------
# 4. Measurements
# ---------------------------------------------------------------------------------------------

# run_measured EXPECTED_CODES CMD...: run CMD once, keep its stdout/stderr in $RUN_OUT/$RUN_ERR,
# its peak RSS (KiB) in $RUN_RSS; die unless its exit code is one of EXPECTED_CODES ("0 1").
RUN_OUT="$OUT/.run.out"
RUN_ERR="$OUT/.run.err"
RUN_RSS=""
run_measured() {
  local expected="$1" rc=0
  shift
  /usr/bin/time -f '%M' -o "$OUT/.run.rss" "$@" >"$RUN_OUT" 2>"$RUN_ERR" || rc=$?
  [[ " $expected " == *" $rc "* ]] ||
    die "'$*' exited $rc (expected $expected): $(head -c 400 "$RUN_ERR")"
  RUN_RSS="$(tail -n 1 "$OUT/.run.rss")" # GNU time may put a "Command exited..." line first
}

# Machine description, printed at the top of the report.
{
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "- swift: $(swift --version 2>&1 | head -n 1)"
  echo "- build: $BUILD_COMMAND: $BUILD_NOTE"
  echo "- snapdiff: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$([[ -z "$(git -C "$REPO" status --porcelain -- Sources Package.swift 2>/dev/null)" ]] || echo ' + uncommitted changes')"
  echo "- peers: $(hyperfine --version), $("$COMPARE" -version | head -n 1 | sed 's/^Version: //; s/ https.*//'), $(
    if ((SKIP_PYTHON == 0)); then
      echo "pixelmatch-py $("$PY" -c 'import importlib.metadata as m; print(m.version("pixelmatch"))') on Python $("$PY" -c 'import platform; print(platform.python_version())')"
    else echo "pixelmatch-py skipped"; fi)"
  py_runs="; pixelmatch-py: --runs $PY_RUNS, no warm-up"
  ((SKIP_PYTHON == 0)) || py_runs=""
  echo "- runs: interleave.py, $RUNS rounds after $WARMUP warm-up, commands in random order each round$py_runs; peak RSS from one /usr/bin/time run"
} >"$OUT/machine.md"

for pair in $PAIRS; do
  A="$CORPUS/$pair-a.png"
  B="$CORPUS/$pair-b.png"
  DIFF="$OUT/diff-$pair.png"
  counts="$RAW/$pair.tsv" # name <TAB> peak RSS KiB <TAB> count
  : >"$counts"
  rm -f "$RAW/$pair.python.json"

  log "$pair: counts and peak memory"
  # snapdiff, count only: the count comes from a --json run (same work, one JSON line more).
  run_measured "0 1" "$SNAPDIFF" compare "$A" "$B"
  rss="$RUN_RSS"
  run_measured "0 1" "$SNAPDIFF" compare "$A" "$B" --json
  count="$("$PY" -c 'import json,sys; print(json.load(sys.stdin)["differentPixels"])' <"$RUN_OUT")"
  printf 'snapdiff\t%s\t%s\n' "$rss" "$count" >>"$counts"

  run_measured "0 1" "$SNAPDIFF" compare "$A" "$B" --diff "$DIFF" --json
  count="$("$PY" -c 'import json,sys; print(json.load(sys.stdin)["differentPixels"])' <"$RUN_OUT")"
  printf 'snapdiff --diff\t%s\t%s\n' "$RUN_RSS" "$count" >>"$counts"

  run_measured "0 1" "$PNGFLOOR" --once "$A" "$B"
  count="$(sed -n 's/^mismatched=\([0-9]*\).*/\1/p' "$RUN_OUT")"
  printf 'pngfloor\t%s\t%s\n' "$RUN_RSS" "${count:-?}" >>"$counts"

  run_measured "0 1" "$INFLATEFLOOR" "$A" "$B"
  printf 'inflate (libdeflate)\t%s\t—\n' "$RUN_RSS" >>"$counts"
  run_measured "0 1" "$INFLATEFLOOR" --zlib "$A" "$B"
  printf 'inflate (zlib)\t%s\t—\n' "$RUN_RSS" >>"$counts"

  # ImageMagick prints the AE metric on stderr (IM6 may use %g notation: 1.2e+06).
  run_measured "0 1" "$COMPARE" -metric AE -fuzz 0 "$A" "$B" null:
  count="$(awk 'NR == 1 { printf "%d", $1 }' "$RUN_ERR")"
  printf 'imagemagick\t%s\t%s\n' "$RUN_RSS" "${count:-?}" >>"$counts"

  if ((SKIP_PYTHON == 0)); then
    run_measured "0" "$PY" "$HELPERS/pixelmatch_count.py" "$A" "$B"
    printf 'pixelmatch-py\t%s\t%s\n' "$RUN_RSS" "$(tr -d '[:space:]' <"$RUN_OUT")" >>"$counts"
  fi

  if [[ -n "$ODIFF" ]]; then
    run_measured "0 21 22" "$ODIFF" "$A" "$B" "$OUT/odiff-$pair.png"
    printf 'odiff\t%s\t%s\n' "$RUN_RSS" "$(grep -o '[0-9]* pixels' "$RUN_OUT" | head -n 1 | cut -d' ' -f1)" >>"$counts"
  fi

  # Timing, interleaved: each round runs every command once in a new random order (a diff
  # exits 1, and so does ImageMagick's compare; interleave.py records exit codes, never fails
  # on them). The paired ratios are to the libdeflate inflate floor.
  log "$pair: timing (interleave.py, $RUNS rounds)"
  odiff_command=()
  [[ -z "$ODIFF" ]] || odiff_command=("odiff=$ODIFF $A $B $OUT/odiff-$pair.png")
  "$PY" "$HELPERS/interleave.py" --runs "$RUNS" --warmup "$WARMUP" --ref "inflate (libdeflate)" \
    --json "$RAW/$pair.json" \
    "snapdiff=$SNAPDIFF compare $A $B" \
    "snapdiff --diff=$SNAPDIFF compare $A $B --diff $DIFF" \
    "pngfloor=$PNGFLOOR --once $A $B" \
    "inflate (libdeflate)=$INFLATEFLOOR $A $B" \
    "inflate (zlib)=$INFLATEFLOOR --zlib $A $B" \
    "imagemagick=$COMPARE -metric AE -fuzz 0 $A $B null:" \
    ${odiff_command[@]+"${odiff_command[@]}"} >&2
  if ((SKIP_PYTHON == 0)); then
    hyperfine -N -i --style basic --time-unit millisecond \
      --warmup 0 --runs "$PY_RUNS" --export-json "$RAW/$pair.python.json" \
      --command-name "pixelmatch-py" "$PY $HELPERS/pixelmatch_count.py $A $B" >&2
  fi
done
rm -f "$RUN_OUT" "$RUN_ERR" "$OUT/.run.rss"

# ---------------------------------------------------------------------------------------------
# 5. Start-up: a comparison with nothing to decode, against a process that does nothing
# ---------------------------------------------------------------------------------------------
startup_md="$OUT/startup.md"
TINY_A="$CORPUS/tiny-a.png"
TINY_B="$CORPUS/tiny-b.png"
"$PY" - "$TINY_A" "$TINY_B" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
for path in sys.argv[1:]:
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # 1x1 RGBA
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                  + chunk(b"IDAT", zlib.compress(b"\x00\x20\x40\x60\xff")) + chunk(b"IEND", b""))
PY
log "start-up: compare of two 1x1 PNGs (interleave.py, $((RUNS * 5)) rounds)"
{
  echo "\`snapdiff compare\` of two 1×1 PNGs, \`snapdiff --version\` and \`/bin/true\`, interleaved, $((RUNS * 5)) rounds:"
  echo
  echo '```'
  "$PY" "$HELPERS/interleave.py" --runs $((RUNS * 5)) --warmup 5 --ref "/bin/true" \
    "compare 1x1=$SNAPDIFF compare $TINY_A $TINY_B" "snapdiff --version=$SNAPDIFF --version" "/bin/true=/bin/true"
  echo '```'
} >"$startup_md"

# ---------------------------------------------------------------------------------------------
# 6. Whole runs
# ---------------------------------------------------------------------------------------------
runs_md="$OUT/runs.md"
: >"$runs_md"
if [[ "$SKIP_RUNS" != 1 ]]; then
  log "check on 200 re-encoded pairs (scripts/bench/check_cache.sh)"
  { echo '```'; SNAPDIFF="$SNAPDIFF" ODIFF="${ODIFF:-}" "$HELPERS/check_cache.sh" 200 "$CHECK_ROUNDS"; echo '```'; } >>"$runs_md"
  log "check on 1,000 unchanged tree-only frames (scripts/bench/bench_trees.sh)"
  { echo '```'; SNAPDIFF="$SNAPDIFF" "$HELPERS/bench_trees.sh" 1000 3; echo '```'; } >>"$runs_md"
fi

# ---------------------------------------------------------------------------------------------
# 7. Report
# ---------------------------------------------------------------------------------------------
log "report"
report_rc=0
# shellcheck disable=SC2086 # PAIRS is a word list on purpose
"$PY" "$HELPERS/report.py" --raw "$RAW" --corpus "$CORPUS" --machine "$OUT/machine.md" \
  --odiff "${ODIFF:-}" --startup "$startup_md" --runs "$runs_md" $PAIRS >"$OUT/results.md" || report_rc=$?
((report_rc <= 1)) || die "report.py failed (exit $report_rc)"
cat "$OUT/results.md"
echo >&2
echo "written: $OUT/results.md" >&2
if ((report_rc == 1)); then
  echo "bench.sh: MISMATCH: snapdiff's count differs from pixelmatch-py's on some pair (see above)" >&2
  exit 1
fi
