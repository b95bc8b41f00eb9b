# Sourced by scripts/test.sh and scripts/sanitize.sh (not run on its own): a throwaway PostgreSQL
# cluster for the tests of `serve --database postgres://…` (two instances on one database),
# started with scripts/postgres.sh (which installs Debian's postgresql when missing), its URL
# exported as SNAPDIFF_TEST_POSTGRES_URL (and its folder as SNAPDIFF_TEST_POSTGRES_DIR), stopped
# and removed when the sourcing script exits. Every test makes its own database on it; the tests
# that stop PostgreSQL start a cluster of their own the same way, so the shared one never goes
# away under a test running beside them. When it cannot start, those tests skip, or fail
# under CI=true. SNAPDIFF_SKIP_POSTGRES=1 leaves it out; a SNAPDIFF_TEST_POSTGRES_URL already set
# is used as it is.
if [ -z "${SNAPDIFF_SKIP_POSTGRES:-}" ] && [ -z "${SNAPDIFF_TEST_POSTGRES_URL:-}" ]; then
  if postgres_env=$(scripts/postgres.sh start); then
    eval "export ${postgres_env//$'\n'/ }"
    trap 'scripts/postgres.sh stop "$SNAPDIFF_TEST_POSTGRES_DIR"' EXIT
    echo "PostgreSQL for the tests: $SNAPDIFF_TEST_POSTGRES_URL" >&2
  else
    echo "PostgreSQL could not be started: the PostgreSQL tests will skip (or fail under CI=true)" >&2
  fi
fi
