#!/usr/bin/env bash
# Command 2: install what is missing, build everything with tests, and run every test: the C++
# suites, the web client's unit tests and the headless-Chromium end-to-end test, all through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
bash deploy/build.sh
cd build
ctest --output-on-failure --timeout 1500 -j "${PLATEAU_TEST_JOBS:-2}"
