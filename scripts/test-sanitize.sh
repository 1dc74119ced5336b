#!/usr/bin/env bash
# Builds core, CLI and GoogleTest with clang + AddressSanitizer + UndefinedBehaviorSanitizer
# in build-sanitize/ and runs the GoogleTest suite and the parity corpus (plus a few random
# configs) and the golden corpus through the sanitized CLI. Any sanitizer report aborts
# (-fno-sanitize-recover).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SPECCALC_JOBS:-2}

if [[ ! -f build-sanitize/CMakeCache.txt ]]; then
  cmake --preset sanitize
fi
cmake --build build-sanitize -j"$jobs"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-sanitize --output-on-failure --no-tests=error -j"$jobs"
# The parity runner compares against the WASM build in dist/, so run scripts/build.sh first.
node tests/parity/run.mjs --native build-sanitize/native/speccalc --random "${SPECCALC_SANITIZE_RANDOM:-200}"
# The golden corpus through the sanitized CLI: every registered command on 1000+ inputs, and the
# same answer bytes from a clang -O0 build as from the Release one.
node scripts/golden.mjs --native build-sanitize/native/speccalc
