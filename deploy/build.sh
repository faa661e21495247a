#!/usr/bin/env bash
# Builds the C++ binaries (Release, into build/) and the web client (into clients/web/dist).
# Usage: deploy/build.sh [--no-tests]
# Work already done is not redone, so a second run is quick and needs no network; on a fresh
# checkout every step runs.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=ON
if [ "${1:-}" = "--no-tests" ]; then tests=OFF; fi

# build/ was configured from this checkout, completely, for Release; with tests when $1 says so.
configured() {
  local cache=build/CMakeCache.txt
  [ -f "$cache" ] && [ -f build/build.ninja ] &&
    grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$(pwd -P)" "$cache" &&
    grep -qxF "CMAKE_GENERATOR:INTERNAL=Ninja" "$cache" &&
    grep -qE '^CMAKE_BUILD_TYPE:[A-Z]+=Release$' "$cache" &&
    grep -qE "^PLATEAU_BUILD_TESTS:[A-Z]+=$1\$" "$cache"
}
# Two jobs: the machines this runs on have two cores and Beast translation units are heavy.
jobs="${PLATEAU_JOBS:-2}"
if [ "$tests" = OFF ]; then
  # Without tests the configure step may be skipped: Ninja re-runs it by itself when a
  # CMakeLists.txt (or a CONFIGURE_DEPENDS glob) changes. A build/ made by the test command (tests
  # on) serves as it is: only the programs are brought up to date, so a start after the tests
  # neither reconfigures nor rebuilds.
  if configured OFF || configured ON; then
    echo "build/ already configured."
  else
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLATEAU_BUILD_TESTS=OFF
  fi
  cmake --build build -j "$jobs" --target plateau-server plateau-cli plateau-engine plateau-load
else
  # The test tree finds suites by which files exist, which only a configure sees: always run it.
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLATEAU_BUILD_TESTS=ON
  cmake --build build -j "$jobs"
fi

# The web client, into clients/web/dist (skipped when nothing it reads changed).
bash deploy/build-web.sh
