#!/usr/bin/env bash
# Issue 7 benchmarks: the core natively (Google Benchmark, build-bench/), the same cases through
# the WASM module in Node (dist/), and the page in headless Chromium; prints ONE table.
# Expects dist/ from scripts/build.sh (npm run bench builds it first). Raw results are kept in
# build-bench/results/ (native.json, wasm.json, browser.json, table.md).
# SPECCALC_JOBS overrides the build parallelism (default 2); BENCH_REPS the native repetitions;
# BENCH_DIST another folder laid out like dist/ (e.g. a WASM build with other flags).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SPECCALC_JOBS:-2}
out=build-bench/results
dist=${BENCH_DIST:-dist}

if [[ ! -f build-bench/CMakeCache.txt ]]; then
  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSPECCALC_BUILD_BENCH=ON \
    -DSPECCALC_BUILD_TESTS=OFF >/dev/null
fi
cmake --build build-bench -j"$jobs" --target speccalc_bench >/dev/null
# The optimizer alone in WASM (no JSON): a few-KB module straight from tree_optimize.cpp.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
mkdir -p build-bench/algo-wasm
em++ -std=c++17 -O3 -DNDEBUG -ffp-contract=off -Icore/include bench/algo_wasm.cpp \
  core/src/tree_optimize.cpp -o build-bench/algo-wasm/algo.cjs -sSINGLE_FILE=1 \
  -sENVIRONMENT=node -sMODULARIZE=1 -sALLOW_MEMORY_GROWTH=1 \
  -sEXPORTED_FUNCTIONS=_bench_tree_optimize
[[ -f "$dist/manifest.json" ]] || { echo "bench: $dist/ is missing; run scripts/build.sh first" >&2; exit 1; }
mkdir -p "$out"

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
build-bench/bench/speccalc_bench --benchmark_repetitions="${BENCH_REPS:-5}" \
  --benchmark_min_time=0.1 --benchmark_out="$out/native.json" --benchmark_out_format=json \
  >"$out/native.log" 2>&1
node bench/wasm_bench.mjs "$dist" --out "$out/wasm.json" >/dev/null 2>&1
node bench/browser_bench.mjs "$dist" --out "$out/browser.json" >/dev/null
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

node bench/report.mjs "$out/native.json" "$out/wasm.json" "$out/browser.json" --markdown >"$out/table.md"
node bench/report.mjs "$out/native.json" "$out/wasm.json" "$out/browser.json"
