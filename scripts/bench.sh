#!/usr/bin/env bash
# Issue 7 benchmarks: the core natively (Google Benchmark, build-bench/), the same cases through
# the WASM module in Node (dist/), and the page in headless Chromium; prints ONE table.
# Expects dist/ from scripts/build.sh (npm run bench builds it first). Raw results are kept in
# build-bench/results/ (native.json, wasm.json, browser.json, table.md).
# SPECCALC_JOBS overrides the build parallelism (default 2); BENCH_REPS the native repetitions;
# BENCH_ROUNDS the rounds of native-then-WASM (default 3: this shared VM's speed changes from
# minute to minute, and alternating rounds keep a slow spell from landing on one side of a
# ratio; bench/merge_rounds.mjs keeps each case's least disturbed time);
# BENCH_DIST another folder laid out like dist/ (e.g. a WASM build with other flags).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SPECCALC_JOBS:-2}
out=build-bench/results
dist=${BENCH_DIST:-dist}

# Presets "bench" (Google Benchmark, native) and "bench-wasm" (the optimizer alone in WASM,
# bench/algo_wasm.cpp): SPECCALC_BUILD_BENCH=ON, see bench/CMakeLists.txt.
[[ -f build-bench/CMakeCache.txt ]] || cmake --preset bench >/dev/null
cmake --build build-bench -j"$jobs" --target speccalc_bench >/dev/null
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
[[ -f build-bench/wasm/CMakeCache.txt ]] || cmake --preset bench-wasm >/dev/null
cmake --build build-bench/wasm -j"$jobs" --target speccalc_algo_bench >/dev/null
[[ -f "$dist/manifest.json" ]] || { echo "bench: $dist/ is missing; run scripts/build.sh first" >&2; exit 1; }
mkdir -p "$out"

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
rounds=${BENCH_ROUNDS:-3}
for ((r = 1; r <= rounds; ++r)); do
  build-bench/bench/speccalc_bench --benchmark_repetitions="${BENCH_REPS:-5}" \
    --benchmark_min_time=0.1 --benchmark_out="$out/native.$r.json" --benchmark_out_format=json \
    >"$out/native.log" 2>&1
  node bench/wasm_bench.mjs "$dist" --out "$out/wasm.$r.json" >/dev/null 2>&1
done
node bench/merge_rounds.mjs "$out" "$rounds"
node bench/browser_bench.mjs "$dist" --out "$out/browser.json" >/dev/null
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

node bench/report.mjs "$out/native.json" "$out/wasm.json" "$out/browser.json" --markdown >"$out/table.md"
node bench/report.mjs "$out/native.json" "$out/wasm.json" "$out/browser.json"
