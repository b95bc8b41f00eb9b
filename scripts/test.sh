#!/usr/bin/env bash
# Runs the whole test suite (installing libpng and zlib first when they are missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift test "$@"
