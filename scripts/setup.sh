#!/usr/bin/env bash
# Installs whatever SpecCalc needs that is missing: Debian packages via apt, JS dev
# dependencies via `npm ci`. Idempotent: when everything is present it only runs
# dpkg-query and a checksum, well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(cmake make g++ emscripten nlohmann-json3-dev libgtest-dev googletest
              libbenchmark-dev clang clang-format libclang-rt-14-dev chromium)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  # --no-install-recommends: chromium alone would pull ~90 extra packages otherwise.
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# npm ci only when node_modules is absent or was installed from a different lockfile.
stamp=node_modules/.speccalc-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
fi
