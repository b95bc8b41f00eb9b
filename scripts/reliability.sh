#!/usr/bin/env bash
# Everything docs/reliability.md describes, in one go:
#
#   1. the bad-input matrix, the other bad-input tests and the fuzz regressions (swift test);
#   2. crash consistency: `approve` killed with SIGKILL at random moments SNAPDIFF_KILL_ITERATIONS
#      times (default 300), two approvers at once (swift test --filter ConcurrencyTests);
#   3. the five fuzzers for SECONDS_PER_TARGET each (scripts/fuzz/run.sh; default 60);
#   4. the whole suite under AddressSanitizer, the concurrent parts under ThreadSanitizer
#      (scripts/sanitize.sh).
#
#   scripts/reliability.sh [SECONDS_PER_TARGET]
#   RELIABILITY_SCRATCH_PATH=.build-x scripts/reliability.sh 600   # step 1's build folder
#
# Every step runs even when an earlier one fails; the exit status is 1 if any failed, and the
# last lines say which.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
SCRATCH=${RELIABILITY_SCRATCH_PATH:-.build}
failed=()

step() {
  local name=$1
  shift
  echo >&2
  echo "== $name" >&2
  local start=$SECONDS
  if "$@"; then
    echo "== $name: passed ($((SECONDS - start)) s)" >&2
  else
    echo "== $name: FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$name")
  fi
}

scripts/install-deps.sh
step "bad-input matrix and fuzz regressions" \
  swift test --scratch-path "$SCRATCH" --filter 'BadInputMatrixTests|BadInputTests|FuzzRegressionTests'
step "crash consistency: approve killed ${SNAPDIFF_KILL_ITERATIONS:=300} times, concurrent approvers and checks" \
  env SNAPDIFF_KILL_ITERATIONS="$SNAPDIFF_KILL_ITERATIONS" \
  swift test --scratch-path "$SCRATCH" --filter 'ConcurrencyTests'
step "fuzzers (${SECONDS_PER_TARGET} s per target)" scripts/fuzz/run.sh "$SECONDS_PER_TARGET"
step "AddressSanitizer (whole suite)" scripts/sanitize.sh address
step "ThreadSanitizer (concurrent parts)" scripts/sanitize.sh thread

echo >&2
if [ "${#failed[@]}" -eq 0 ]; then
  echo "reliability: everything passed" >&2
else
  printf 'reliability: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
