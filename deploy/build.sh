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

# The web client, into clients/web/dist (skipped when nothing it reads changed).
bash deploy/build-web.sh
