#!/usr/bin/env bash
# Runs the tests under a sanitizer, in its own build folder (SwiftPM's --sanitize instruments
# the Swift targets and the C targets, CPNGCodec included, and links the runtime):
#
#   scripts/sanitize.sh address   # the whole suite under AddressSanitizer       (.build-asan)
#   scripts/sanitize.sh thread    # the concurrent parts under ThreadSanitizer   (.build-tsan):
#                                 # parallel approvers, killed approvers, the review loop,
#                                 # check --jobs, run sessions, the server's shared state
#   scripts/sanitize.sh address --filter BadInputMatrix   # extra arguments go to `swift test`
#
# The `snapdiff` processes the CLI tests start are built with the same sanitizer; a report in
# one of them ends it with status 86 (address) or 66 (thread), which no test expects, so the
# test fails. The HTML report test skips itself unless chromium is installed (scripts/test.sh
# installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-address}
shift || true

# The Swift backtracer reads other threads' memory after a crash, which ASan reports as an
# error of its own; without it, a crash ends in the sanitizer's report.
export SWIFT_BACKTRACE=enable=no
# The sanitizers check memory, not start-up: snapdiff links its Swift runtime dynamically here
# (the static runtime is not built with the sanitizer runtimes in mind).
export SNAPDIFF_LINK=${SNAPDIFF_LINK:-dynamic}

case "$MODE" in
  address)
    # Leak checking is off: the Swift runtime and Foundation keep caches alive until exit.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:exitcode=86:strict_string_checks=1:detect_stack_use_after_return=1}
    scripts/install-deps.sh
    # The PostgreSQL tests' cluster, as scripts/test.sh starts it (not `exec`: its trap stops it).
    . scripts/test_postgres.sh
    # One test at a time, as scripts/test.sh runs them (it says why).
    swift test --no-parallel --scratch-path .build-asan --sanitize address "$@"
    ;;
  thread)
    export TSAN_OPTIONS=${TSAN_OPTIONS:-exitcode=66:halt_on_error=0:second_deadlock_stack=1}
    scripts/install-deps.sh
    FILTER='ConcurrencyTests|ReviewLoopTests|RunSessionTests|SharedStateTests|BadInputMatrixTests/png'
    if [ "$#" -gt 0 ]; then
      exec swift test --scratch-path .build-tsan --sanitize thread "$@"
    fi
    exec swift test --scratch-path .build-tsan --sanitize thread --filter "$FILTER"
    ;;
  *)
    echo "usage: scripts/sanitize.sh [address|thread] [swift test arguments…]" >&2
    exit 64
    ;;
esac
