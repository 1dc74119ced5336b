#!/usr/bin/env bash
# Builds everything: native (build/: CLI + GoogleTest binary), WASM (build-wasm/: the page's
# module) and assembles dist/ (scripts/assemble-dist.mjs), the folder `npm start` serves.
# Configures a build dir from its preset (CMakePresets.json) only when it has no cache yet;
# after that cmake re-runs itself when a CMakeLists changes. SPECCALC_JOBS overrides the
# parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SPECCALC_JOBS:-2}

step() { printf '\n== %s\n' "$*"; }

step "native build (build/)"
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake --preset native
fi
cmake --build build -j"$jobs"

step "wasm build (build-wasm/)"
# Debian's emcc needs Debian's acorn at -O2 links (NodeSource node does not search there);
# the wasm CMakeLists also sets it on the link line so plain `cmake --build` works.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [[ ! -f build-wasm/CMakeCache.txt ]]; then
  # The preset's toolchain finds Emscripten from emcc on PATH; the optimization levels are
  # per target in wasm/CMakeLists.txt (never -Oz: a different libm would break parity).
  cmake --preset wasm
fi
cmake --build build-wasm -j"$jobs"

step "dist/"
# web/ + the module + the tables it loads on demand, with content-hashed names, precompressed
# (.gz, .br) and a manifest.json; rebuilt from scratch so files deleted from web/ do not linger.
# The page's starter evaluated by the core (native: byte for byte the module's output), embedded
# in index.html so a first visit shows it with the first paint (assemble-dist.mjs says why).
build/native/speccalc list ui |
  node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0, "utf8")).starter))' \
    >build/starter.json
build/native/speccalc eval --config build/starter.json >build/starter-result.json
node scripts/assemble-dist.mjs dist.tmp --dir .=web --embed starter-result=build/starter-result.json \
  --file speccalc.mjs=build-wasm/wasm/speccalc.mjs --file speccalc.wasm=build-wasm/wasm/speccalc.wasm \
  --file speccalc-full.mjs=build-wasm/wasm/speccalc-full.mjs \
  --file speccalc-full.wasm=build-wasm/wasm/speccalc-full.wasm \
  --file speccalc-api.mjs=wasm/speccalc-api.mjs --file speccalc-error.mjs=wasm/speccalc-error.mjs \
  --file published.json=core/data/published.json >/dev/null
rm -rf dist
mv dist.tmp dist
ls -l dist | sed 1d | grep -v '\.\(gz\|br\)$'
