#!/usr/bin/env bash
# The store's races, many rounds: merge vs approve and undo vs approve, each through `snapdiff`
# processes, one `snapdiff serve` on SQLite and two `snapdiff serve` instances on one PostgreSQL
# database (Tests/SnapdiffServerTests/StoreRaceTests.swift; the ordinary suite runs 3 rounds).
# Prints one line per scenario and front door ("… N approvals answered (…), 0 lost") and fails
# when an approval was lost.
#
#   scripts/stress/store_races.sh [ROUNDS] [CONFIGURATION] [SCENARIO]   # default 1000 release, all six
#   STRESS_SCRATCH_PATH=.build-x scripts/stress/store_races.sh 200 debug
#   scripts/stress/store_races.sh 1000 debug undoCLI   # one: mergeCLI, mergeSQLite, mergePostgres,
#                                                      # undoCLI, undoSQLite or undoPostgres
#
# The six take about 48 s for 10 rounds in a debug build on a quiet machine; on the shared 2-core
# machine, loaded by builds, 1,000 rounds of them one after the other would take hours. To run them
# side by side, build once and start the test binary per scenario (`swift test` holds the build
# folder's lock while it runs), e.g. `SNAPDIFF_RACE_ROUNDS=1000 .build/debug/snapdiffPackageTests.xctest
# --testing-library swift-testing --filter StoreRaceTests/undoCLI` (after `source
# scripts/test_postgres.sh` for the PostgreSQL ones); each uses a fixture and a database of its
# own, and prints its tally every 25 rounds.
#
# PostgreSQL: a throwaway cluster (scripts/postgres.sh, through scripts/test_postgres.sh), or the
# one SNAPDIFF_TEST_POSTGRES_URL names; SNAPDIFF_SKIP_POSTGRES=1 leaves those rows out.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-1000}
CONFIGURATION=${2:-release}
SCENARIO=${3:-}
SCRATCH=${STRESS_SCRATCH_PATH:-.build}
# shellcheck source=../test_postgres.sh
source scripts/test_postgres.sh
log=$(mktemp "${TMPDIR:-/tmp}/store-races.XXXXXX")
status=0
SNAPDIFF_RACE_ROUNDS=$ROUNDS nice -n 10 swift test -c "$CONFIGURATION" --scratch-path "$SCRATCH" \
  --filter "StoreRaceTests${SCENARIO:+/$SCENARIO}" >"$log" 2>&1 || status=$?
grep -E '^store race ' "$log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log" >&2
  echo "store races: FAILED (full output in $log)" >&2
  exit 1
fi
rm -f "$log"
echo "store races: $ROUNDS rounds each, nothing lost" >&2
