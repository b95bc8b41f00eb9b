#!/usr/bin/env bash
# The store's races, many rounds: merge vs approve and undo vs approve, each through `snapdiff`
# processes, one `snapdiff serve` on SQLite and two `snapdiff serve` instances on one PostgreSQL
# database (Tests/SnapdiffServerTests/StoreRaceTests.swift; the ordinary suite runs 3 rounds).
# Prints one line per scenario and front door ("… N approvals answered (…), 0 lost") and fails
# when an approval was lost.
#
#   scripts/stress/store_races.sh [ROUNDS] [CONFIGURATION]   # default 1000 release
#   STRESS_SCRATCH_PATH=.build-x scripts/stress/store_races.sh 200 debug
#
# PostgreSQL: a throwaway cluster (scripts/postgres.sh, through scripts/test_postgres.sh), or the
# one SNAPDIFF_TEST_POSTGRES_URL names; SNAPDIFF_SKIP_POSTGRES=1 leaves those rows out.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-1000}
CONFIGURATION=${2:-release}
SCRATCH=${STRESS_SCRATCH_PATH:-.build}
# shellcheck source=../test_postgres.sh
source scripts/test_postgres.sh
log=$(mktemp "${TMPDIR:-/tmp}/store-races.XXXXXX")
status=0
SNAPDIFF_RACE_ROUNDS=$ROUNDS nice -n 10 swift test -c "$CONFIGURATION" --scratch-path "$SCRATCH" \
  --filter StoreRaceTests >"$log" 2>&1 || status=$?
grep -E '^store race ' "$log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log" >&2
  echo "store races: FAILED (full output in $log)" >&2
  exit 1
fi
rm -f "$log"
echo "store races: $ROUNDS rounds each, nothing lost" >&2
