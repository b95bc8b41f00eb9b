#!/usr/bin/env bash
# Times the writers `PNGEncoder(speed: .compact)` (baselines, rendered element trees) can use:
# libpng's simplified writer against snapdiff's own (libpng's filter heuristic, libdeflate level
# 6), on the pixels of bench.sh's screenshots and of a rendered element tree; every file is read
# back with libpng and compared. One thread, ROUNDS rounds, medians.
#
# Usage: scripts/bench/compact_writer.sh [ROUNDS]   (default 11)
#   Needs .build-bench/corpus (scripts/bench.sh makes it) and a release snapdiff (for the tree).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-11} work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -d .build-bench/corpus ]] || { echo "compact_writer.sh: run scripts/bench.sh first (it makes the corpus)" >&2; exit 2; }
src=Sources/CPNGCodec
cc -O2 -DCPNG_HAVE_LIBDEFLATE -I "$src" -I "$src/include" -I Sources/CDeflate/include -I Sources/CCPUFeatures/include \
  scripts/bench/encoders/compact_writer.c "$src/CPNGWriter.c" "$src/CPNGFilters.c" "$src/CPNGFastDecode.c" \
  "$src/CPNGReader.c" Sources/CDeflate/CRunDeflate.c Sources/CCPUFeatures/CCPUFeatures.c \
  -lpng -lz -ldeflate -lpthread -o "$work/compact_writer"
snapdiff=.build/release/snapdiff
images=(.build-bench/corpus/iphone-a.png .build-bench/corpus/fhd-a.png .build-bench/corpus/4k-a.png)
if [[ -x "$snapdiff" ]]; then
  "$snapdiff" render examples/trees/login.tree.json -o "$work/login-tree.png" >/dev/null
  images+=("$work/login-tree.png")
fi
for image in "${images[@]}"; do
  echo "== $(basename "$image") ($rounds rounds, one thread)"
  "$work/compact_writer" "$image" "$rounds"
done
