#!/usr/bin/env bash
# Fails when a file is not formatted as .clang-format (C++) and .prettierrc.json (JS, HTML, CSS)
# say; scripts/format.sh rewrites them. Called by .ci/run. Only tracked and new (not ignored)
# files are checked, so build trees and node_modules never count.
set -euo pipefail
cd "$(dirname "$0")/.."

files() { git ls-files --cached --others --exclude-standard -- "$@"; }

mapfile -t cpp < <(files 'core/*.cpp' 'core/*.hpp' 'native/*.cpp' 'native/*.hpp' 'wasm/*.cpp' \
                         'tests/*.cpp' 'tests/*.hpp' 'bench/*.cpp' 'bench/*.hpp' 'fuzz/*.cpp' \
                         'fuzz/*.hpp')
mapfile -t js < <(files 'web/*' 'wasm/*.mjs' 'tests/*.mjs' 'scripts/*.mjs' 'bench/*.mjs' \
                        ':!web/vendor/*')

status=0
echo "lint: clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1) on ${#cpp[@]} C++ files"
for f in "${cpp[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "[warn] $f"
    status=1
  fi
done
echo "lint: prettier $(node_modules/.bin/prettier --version) on ${#js[@]} web and JS files"
node_modules/.bin/prettier --check --log-level warn "${js[@]}" || status=1
# The JS wrapper's types (JSDoc + wasm/speccalc.d.mts, strict): tsc -p wasm.
echo "lint: tsc $(node_modules/.bin/tsc --version | grep -o '[0-9][0-9.]*') on the JS wrapper (wasm/tsconfig.json)"
node_modules/.bin/tsc -p wasm || status=1
if ((status)); then
  echo "lint: formatting differs; run bash scripts/format.sh and commit the result" >&2
else
  echo "lint: all files formatted"
fi
exit "$status"
