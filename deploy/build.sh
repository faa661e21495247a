#!/usr/bin/env bash
# Builds the C++ binaries (Release, into build/) and the web client (into clients/web/dist).
# Usage: deploy/build.sh [--no-tests]
set -euo pipefail
cd "$(dirname "$0")/.."

tests=ON
if [ "${1:-}" = "--no-tests" ]; then tests=OFF; fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLATEAU_BUILD_TESTS=$tests
# Two jobs: the machines this runs on have two cores and Beast translation units are heavy.
cmake --build build -j "${PLATEAU_JOBS:-2}"

(cd clients/web && npm ci --no-audit --no-fund && npm run build)
