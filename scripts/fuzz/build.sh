#!/usr/bin/env bash
# Builds the libFuzzer targets in .build-fuzz/libfuzzer/ (or $FUZZ_OUT): SnapdiffCore's Swift
# sources and the C targets' sources (CPNGCodec, CDeflate, CHashing, CCPUFeatures) instrumented for libFuzzer and AddressSanitizer, then one
# executable per harness in scripts/fuzz/harness/ (fuzz-png, fuzz-tree, fuzz-xcui, fuzz-diff, fuzz-levels,
# fuzz-store, fuzz-request, fuzz-cache, fuzz-encode, fuzz-merge, fuzz-log).
#
# SwiftPM's own build of a fuzzing executable fights libFuzzer over `main`, so this compiles by
# hand: the library once (`-parse-as-library`, its C sources with clang), then each harness
# against it. fuzz-request links SnapdiffWire, the service's wire contract (request bodies, API
# paths, the multipart parser), compiled whole as its own module: the server's own dependencies
# (Hummingbird, GRDB) are not built here, and the harness feeds the same code the server runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz/libfuzzer}
mkdir -p "$OUT/obj" "$OUT/modules/CPNGCodec" "$OUT/modules/CHashing" "$OUT/bin"

PNG_CFLAGS=$(pkg-config --cflags libpng 2>/dev/null || echo "-I/usr/include/libpng16")
SAN="-fsanitize=fuzzer-no-link,address"
# The decoder's whole-stream inflater, as Package.swift builds it when libdeflate is installed.
DEFLATE_CFLAGS="" DEFLATE_LIBS=""
if [ -f /usr/include/libdeflate.h ] && [ -z "${SNAPDIFF_NO_LIBDEFLATE:-}" ]; then
  DEFLATE_CFLAGS="-DCPNG_HAVE_LIBDEFLATE" DEFLATE_LIBS="-ldeflate"
fi

# The module maps of the C targets SnapdiffCore imports (SwiftPM makes one for each include/;
# here they are written by hand).
C_TARGETS=(CPNGCodec CDeflate CHashing CCPUFeatures)
for module in CPNGCodec CHashing; do
  cat >"$OUT/modules/$module/module.modulemap" <<MAP
module $module {
  umbrella "$ROOT/Sources/$module/include"
  export *
}
MAP
done
C_INCLUDES=()
for target in "${C_TARGETS[@]}"; do C_INCLUDES+=(-I "Sources/$target/include"); done

echo "fuzz: compiling ${C_TARGETS[*]} (C, $SAN)" >&2
C_OBJECTS=()
for target in "${C_TARGETS[@]}"; do
  for source in Sources/"$target"/*.c; do
    object="$OUT/obj/$(basename "$source" .c).o"
    clang -c -O1 -g $SAN $PNG_CFLAGS $DEFLATE_CFLAGS "${C_INCLUDES[@]}" -I "Sources/$target" \
      "$source" -o "$object"
    C_OBJECTS+=("$object")
  done
done

SWIFT_FLAGS=(-sanitize=fuzzer,address -O -g -parse-as-library -package-name snapdiff
  -I "$ROOT/Sources/CLibPNG" -I "$ROOT/Sources/CLCMS2" -I "$ROOT/Sources/CZlib" -I "$ROOT/Sources/CLZ4"
  -I "$OUT/modules/CPNGCodec" -I "$OUT/modules/CHashing" -I "$OUT/modules"
  -Xcc "-I$ROOT/Sources/CPNGCodec/include" -Xcc "-I$ROOT/Sources/CHashing/include" -Xcc "${PNG_CFLAGS}")

echo "fuzz: compiling SnapdiffCore (Swift, -sanitize=fuzzer,address)" >&2
# SnapdiffModel's sources join SnapdiffCore's in one module here (its re-export, Exports.swift,
# is then not needed), so harnesses keep importing SnapdiffCore alone.
mapfile -t CORE_SOURCES < <(find Sources/SnapdiffModel Sources/SnapdiffCore -name '*.swift' ! -name Exports.swift | sort)
swiftc "${SWIFT_FLAGS[@]}" -module-name SnapdiffCore -wmo -num-threads 0 \
  -emit-module -emit-module-path "$OUT/modules/SnapdiffCore.swiftmodule" \
  -c "${CORE_SOURCES[@]}" -o "$OUT/obj/SnapdiffCore.o"

echo "fuzz: compiling SnapdiffWire (Swift, -sanitize=fuzzer,address)" >&2
# SnapdiffWire imports SnapdiffModel, whose sources are inside SnapdiffCore's module here: a
# one-line SnapdiffModel module re-exports SnapdiffCore so that the import resolves.
echo '@_exported import SnapdiffCore' >"$OUT/obj/SnapdiffModelShim.swift"
swiftc "${SWIFT_FLAGS[@]}" -module-name SnapdiffModel \
  -emit-module -emit-module-path "$OUT/modules/SnapdiffModel.swiftmodule" \
  -c "$OUT/obj/SnapdiffModelShim.swift" -o "$OUT/obj/SnapdiffModel.o"
mapfile -t WIRE_SOURCES < <(find Sources/SnapdiffWire -name '*.swift' | sort)
swiftc "${SWIFT_FLAGS[@]}" -module-name SnapdiffWire -wmo -num-threads 0 \
  -emit-module -emit-module-path "$OUT/modules/SnapdiffWire.swiftmodule" \
  -c "${WIRE_SOURCES[@]}" -o "$OUT/obj/SnapdiffWire.o"

# What a harness compiles or links with it besides SnapdiffCore (files must import nothing but
# SnapdiffCore, SnapdiffWire, Foundation and the C library): for fuzz-request the wire contract,
# and the two server files between it and the engine that need no Hummingbird (UploadFile, how
# the server keeps a body it receives; ReviewRequest+Selection, a request as the engine's review
# reads it); for fuzz-diff the diff input the regression tests share.
extra_sources() {
  case $1 in
    fuzz-diff) echo Tests/SnapdiffCoreTests/Support/DiffFuzzInput.swift ;;
    fuzz-request)
      echo Sources/SnapdiffServer/Uploads/UploadFile.swift Sources/SnapdiffServer/DTOs/ReviewRequest+Selection.swift \
        "$OUT/obj/SnapdiffWire.o" "$OUT/obj/SnapdiffModel.o"
      ;;
  esac
}

for harness in scripts/fuzz/harness/*.swift; do
  name=$(basename "$harness" .swift)
  [ -n "${FUZZ_TARGETS:-}" ] && [[ " $FUZZ_TARGETS " != *" $name "* ]] && continue
  echo "fuzz: linking $name" >&2
  read -r -a extra <<<"$(extra_sources "$name")"
  swiftc "${SWIFT_FLAGS[@]}" -module-name "${name//-/_}" "$harness" "${extra[@]}" \
    "$OUT/obj/SnapdiffCore.o" "${C_OBJECTS[@]}" -lpng16 -lz -llcms2 -llz4 $DEFLATE_LIBS -use-ld=lld -o "$OUT/bin/$name"
done
echo "fuzz: built $(ls "$OUT/bin" | tr '\n' ' ')" >&2
