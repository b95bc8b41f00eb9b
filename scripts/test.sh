#!/usr/bin/env bash
# Runs the whole test suite (installing libpng and zlib first when they are missing, and
# Chromium for the test that opens the HTML report; SNAPDIFF_SKIP_CHROMIUM=1 skips that install,
# and the test then skips itself).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ -z "${SNAPDIFF_SKIP_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 \
  && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  echo "Installing chromium (for the HTML report test)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
    || echo "chromium could not be installed: the HTML report test will be skipped" >&2
fi
swift test "$@"
