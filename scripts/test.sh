#!/usr/bin/env bash
# Runs every test against what scripts/build.sh built: the native GoogleTest suite (ctest),
# the golden corpus (native and WASM against committed answers), the native<->WASM parity
# corpus, the JS wrapper, the static server, the page's transfer budget, and the browser test
# when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "GoogleTest (ctest, build/)"
ctest --test-dir build --output-on-failure --no-tests=error -j"${SPECCALC_JOBS:-2}"

step "golden corpus (tests/golden: native and WASM against the committed answers)"
node scripts/golden.mjs

step "held-out published setups (tests/heldout: every expressible one evaluates and fits)"
node scripts/heldout_check.mjs --quiet

step "engine profiles vs forward passes timed on an H200 (docs/calibration)"
node scripts/gpu/compare_profiles.mjs --check

step "native <-> WASM parity"
node tests/parity/run.mjs

step "parity property test (tree commands, sweep, links)"
node tests/parity/property.mjs

step "JS wrapper (dist/speccalc-api.mjs)"
node tests/wasm/wrapper.mjs

step "static server (encoding, caching, revalidation)"
node tests/server/run.mjs

step "first-load transfer budget (250 KB gzip) and second visit"
node tests/browser/transfer.mjs

if [[ -f tests/browser/run.mjs ]]; then
  step "browser"
  # Screenshots go to a scratch folder so a test run leaves the tree clean; regenerate the
  # committed ones with `npm run screenshots` (each is written only when the charts, tables
  # and trees in it draw their marks, rows and nodes: tests/browser/lib.mjs).
  SPECCALC_SCREENSHOTS="${SPECCALC_SCREENSHOTS-$(mktemp -d)}" node tests/browser/run.mjs
else
  echo "(tests/browser/run.mjs not present: browser test skipped)"
fi
