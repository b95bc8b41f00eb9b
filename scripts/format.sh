#!/bin/sh
# Checks (default) or applies the code's format (.swift-format: 2 spaces, 120 columns) with the
# swift-format that ships with the toolchain (`swift format --version`).
#
#   scripts/format.sh            lint Sources and Tests; exit 1 on any finding
#   scripts/format.sh --in-place rewrite the files in place
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
  --in-place) exec swift format format --in-place --parallel -r Sources Tests ;;
  "") exec swift format lint --strict --parallel -r Sources Tests ;;
  *) echo "usage: scripts/format.sh [--in-place]" >&2; exit 64 ;;
esac
