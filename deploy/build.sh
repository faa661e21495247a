#!/usr/bin/env bash
# Builds the C++ binaries (Release, into build/) and the web client (into clients/web/dist).
# Usage: deploy/build.sh [--no-tests]
# Work already done is not redone, so a second run is quick and needs no network; on a fresh
# checkout every step runs.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=ON
if [ "${1:-}" = "--no-tests" ]; then tests=OFF; fi

# build/ was configured from this checkout, completely, with the settings asked for now.
configured() {
  local cache=build/CMakeCache.txt
  [ -f "$cache" ] && [ -f build/build.ninja ] &&
    grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$(pwd -P)" "$cache" &&
    grep -qxF "CMAKE_GENERATOR:INTERNAL=Ninja" "$cache" &&
    grep -qE '^CMAKE_BUILD_TYPE:[A-Z]+=Release$' "$cache" &&
    grep -qE "^PLATEAU_BUILD_TESTS:[A-Z]+=$tests\$" "$cache"
}
# Without tests the configure step may be skipped: Ninja re-runs it by itself when a CMakeLists.txt
# (or a CONFIGURE_DEPENDS glob) changes. The test tree also finds suites by which files exist,
# which only a configure sees, so with tests it always runs.
if [ "$tests" = OFF ] && configured; then
  echo "build/ already configured."
else
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLATEAU_BUILD_TESTS=$tests
fi
# Two jobs: the machines this runs on have two cores and Beast translation units are heavy.
cmake --build build -j "${PLATEAU_JOBS:-2}"

# The web client. Both stamps live in node_modules/, which `npm ci` recreates: a new install
# always brings a new build.
cd clients/web
# The packages are installed again only when what pins them (or the Node running them) changed.
lock_hash="$({ cat package.json package-lock.json; node --version; } | sha256sum | cut -d' ' -f1)"
lock_stamp=node_modules/.plateau-lock.sha256
if [ -d node_modules ] && [ "$(cat "$lock_stamp" 2>/dev/null)" = "$lock_hash" ]; then
  echo "Web client packages up to date."
else
  npm ci --no-audit --no-fund
  echo "$lock_hash" >"$lock_stamp"
fi
# Rebuilt only when something `npm run build` reads changed, the .proto files it imports as text
# included. Hashed before the build, so an edit made while it runs shows up next time.
inputs=(src index.html package.json package-lock.json tsconfig.json vite.config.ts ../../proto)
if [ -d public ]; then inputs+=(public); fi
dist_hash="$(find "${inputs[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
  sha256sum | cut -d' ' -f1)"
dist_stamp=node_modules/.plateau-dist.sha256
if [ -f dist/index.html ] && [ "$(cat "$dist_stamp" 2>/dev/null)" = "$dist_hash" ]; then
  echo "Web client up to date (clients/web/dist)."
else
  npm run build
  echo "$dist_hash" >"$dist_stamp"
fi
