#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) in build-fuzz/
# and runs each for SECONDS seconds (default 60) on its seed corpus fuzz/corpus/<target>/.
# New corpus entries go to build-fuzz/corpus/<target>/ (not committed); crashes, leaks and
# timeouts to build-fuzz/artifacts/<target>/, and the run fails.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]      targets: eval link tree sweep requests (default all)
#   SPECCALC_JOBS=N        build jobs (default 2)
#   SECONDS=0              only build and replay the seed corpora and regression inputs
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(eval link tree sweep requests)
jobs=${SPECCALC_JOBS:-2}
build=build-fuzz

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (apt-get install clang)" >&2
  exit 1
fi

# The preset "fuzz" (CMakePresets.json): clang, SPECCALC_BUILD_FUZZ=ON, which instruments the
# core and builds one fuzz/fuzz_<target> executable per target (fuzz/CMakeLists.txt).
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake --preset fuzz >/dev/null
fi
cmake --build $build -j"$jobs" --target "${targets[@]/#/fuzz_}"
for t in "${targets[@]}"; do
  [[ -x $build/fuzz/fuzz_$t ]] || { echo "fuzz: no target '$t' (fuzz/fuzz_$t.cpp)" >&2; exit 1; }
done

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for t in "${targets[@]}"; do
  bin=$build/fuzz/fuzz_$t
  seeds=fuzz/corpus/$t
  work=$build/corpus/$t
  art=$build/artifacts/$t
  mkdir -p "$work" "$art"
  dict=()
  [[ -f fuzz/speccalc.dict ]] && dict=(-dict=fuzz/speccalc.dict)
  # Replay: every seed and every past crash (fuzz/regressions/<target>/) must pass.
  replay=("$seeds")
  [[ -d fuzz/regressions/$t ]] && replay+=(fuzz/regressions/$t)
  if ! "$bin" -runs=0 "${replay[@]}" >"$build/replay_$t.log" 2>&1; then
    echo "fuzz: $t: a seed or regression input fails (see $build/replay_$t.log)" >&2
    status=1
    continue
  fi
  [[ $seconds -gt 0 ]] || { echo "fuzz: $t: seeds and regressions replayed"; continue; }
  log=$build/fuzz_$t.log
  # -timeout: one input may take 10 s (a 100000-point sweep is refused above that);
  # -max_len 8192 keeps mutations near the size of real configs and links.
  if "$bin" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
       -artifact_prefix="$art/" -print_final_stats=1 "$work" "$seeds" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
    echo "fuzz: $t: ${seconds}s, $execs executions, coverage $cov edges, no findings"
  else
    echo "fuzz: $t: FINDING (log $log, input in $art/):" >&2
    grep -m5 -E 'ERROR|SUMMARY|fuzz oracle|runtime error|Test unit written' "$log" >&2 || tail -20 "$log" >&2
    status=1
  fi
done
exit $status
