#!/usr/bin/env bash
# Runs the whole test suite, installing first what is missing: libpng and zlib, and for the
# browser tests Chromium and its driver (apt) and Selenium (pip): the HTML report test opens
# index.html in headless Chromium, the review page test drives `snapdiff serve`'s page through
# Selenium (scripts/review_page_check.py). SNAPDIFF_SKIP_CHROMIUM=1 skips those installs; the
# browser tests then skip themselves, except the review page test under CI=true, which fails
# without them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ -z "${SNAPDIFF_SKIP_CHROMIUM:-}" ]; then
  browser_packages=()
  command -v chromium >/dev/null 2>&1 || browser_packages+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || browser_packages+=(chromium-driver)
  if [ "${#browser_packages[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "Installing ${browser_packages[*]} (for the browser tests)..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${browser_packages[@]}" >/dev/null; } \
      || echo "${browser_packages[*]} could not be installed: the browser tests will skip (or fail under CI=true)" >&2
  fi
  if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import selenium' >/dev/null 2>&1; then
    echo "Installing selenium (pip, for the review page test)..." >&2
    # A Debian-managed Python refuses plain pip installs (PEP 668): then once more, overriding it.
    python3 -m pip install --quiet --disable-pip-version-check selenium 2>/dev/null \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages selenium \
      || { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-selenium >/dev/null \
        && python3 -c 'import selenium' >/dev/null 2>&1; } \
      || echo "selenium could not be installed: the review page test will skip (or fail under CI=true)" >&2
  fi
fi
# The review page test's screenshots (run list, a run, a change group, the viewer): a folder CI
# keeps as an artifact.
export SNAPDIFF_SCREENSHOTS="${SNAPDIFF_SCREENSHOTS:-$PWD/.snapdiff/review-screenshots}"
mkdir -p "$SNAPDIFF_SCREENSHOTS"
echo "review page screenshots (CI artifact): $SNAPDIFF_SCREENSHOTS" >&2
# A throwaway PostgreSQL cluster for the tests of `serve --database postgres://…`, stopped on exit.
. scripts/test_postgres.sh
# One test at a time (--no-parallel): Swift Testing otherwise starts every test at once, and on
# a 2-core machine the blocking ones (child processes, sockets) hold the two threads Swift
# concurrency has while the in-process servers of others wait for them to answer; on a busy CI
# machine that turned into minutes of waiting and timeouts. Serially the suite takes about 70 s
# of test time on a quiet machine, against 50 s in parallel.
swift test --no-parallel "$@"
