#!/usr/bin/env bash
# Installs the system libraries snapdiff builds against (libpng, zlib, LittleCMS, libdeflate, LZ4, SQLite, pkg-config)
# when they are missing. Debian/Ubuntu through apt-get; on macOS, `brew install libpng little-cms2 libdeflate lz4 pkg-config`.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { pkg-config --exists libpng 2>/dev/null || [ -f /usr/include/png.h ]; }; then missing+=(libpng-dev); fi
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
# Colour profiles (iCCP, sRGB, gAMA/cHRM) are converted with LittleCMS.
if ! { pkg-config --exists lcms2 2>/dev/null || [ -f /usr/include/lcms2.h ]; }; then missing+=(liblcms2-dev); fi
# libdeflate inflates screenshots several times faster than zlib (optional: without it the build
# uses zlib, and `snapdiff --version` says so).
[ -f /usr/include/libdeflate.h ] || missing+=(libdeflate-dev)
# The cache of decoded baselines is LZ4-compressed.
if ! { pkg-config --exists liblz4 2>/dev/null || [ -f /usr/include/lz4.h ]; }; then missing+=(liblz4-dev); fi
# snapdiff serve keeps its run index in SQLite (GRDB links the system library).
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "snapdiff needs: ${missing[*]} (install them with your package manager)" >&2
  exit 1
fi
echo "Installing ${missing[*]}..." >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
