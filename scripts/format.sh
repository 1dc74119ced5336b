#!/usr/bin/env bash
# Formats every C++ file (clang-format, .clang-format) and every web and JS file (prettier,
# .prettierrc.json) in place: the files scripts/lint.sh checks.
set -euo pipefail
cd "$(dirname "$0")/.."

files() { git ls-files --cached --others --exclude-standard -- "$@"; }

mapfile -t cpp < <(files 'core/*.cpp' 'core/*.hpp' 'native/*.cpp' 'native/*.hpp' 'wasm/*.cpp' \
                         'tests/*.cpp' 'tests/*.hpp' 'bench/*.cpp' 'bench/*.hpp' 'fuzz/*.cpp' \
                         'fuzz/*.hpp')
mapfile -t js < <(files 'web/*' 'wasm/*.mjs' 'tests/*.mjs' 'scripts/*.mjs' 'bench/*.mjs' \
                        ':!web/vendor/*')
clang-format -i "${cpp[@]}"
node_modules/.bin/prettier --write --log-level warn "${js[@]}"
echo "format: ${#cpp[@]} C++ and ${#js[@]} web/JS files formatted"
