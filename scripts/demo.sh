#!/usr/bin/env bash
# Builds snapdiff and compares the example login screen against its baseline:
# a real verdict and a diff image, no server needed.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
echo "Building snapdiff..." >&2
swift build --product snapdiff 2>&1 | grep -E "error|warning: |Compiling|Build complete" | tail -n 3 >&2

mkdir -p .snapdiff/example
diff_image=.snapdiff/example/login-diff.png
echo "\$ snapdiff compare examples/login-baseline.png examples/login-current.png --diff $diff_image"
status=0
.build/debug/snapdiff compare examples/login-baseline.png examples/login-current.png \
  --diff "$diff_image" || status=$?

if [ "$status" -eq 1 ]; then
  echo
  echo "Exit status 1: the screens differ (the button changed colour, a label moved, a badge count"
  echo "changed). Open $diff_image to see where. Compare a file with itself to see a pass:"
  echo "  .build/debug/snapdiff compare examples/login-baseline.png examples/login-baseline.png"
  exit 0
fi
echo "unexpected exit status $status from the example comparison" >&2
exit 1
