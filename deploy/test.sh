#!/usr/bin/env bash
# Command 2: install what is missing, build everything with tests, and run every test: the C++
# suites, the web client's unit tests and the headless-Chromium end-to-end test, all through ctest.
# Before that, the engine, storage and server suites also run under AddressSanitizer and
# UndefinedBehaviorSanitizer (a separate build in build-asan/), and the server's threaded suites
# (network threads, the storage thread) under ThreadSanitizer (build-tsan/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
bash deploy/build.sh

jobs="${PLATEAU_JOBS:-2}"
# -O1 with line tables: what the sanitizers recommend, and far quicker to compile than -O2 -g.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Asan -DCMAKE_CXX_FLAGS_ASAN="-O1 -g1" \
  -DPLATEAU_SANITIZE=ON
# Every game's rule tests, and the conformance suite of a game still being built (its own binary).
game_tests=()
targets=$(ninja -C build-asan -t targets all)
for dir in tests/games/*/; do
  id=$(basename "$dir")
  for target in "${id}_test" "${id}_conformance_test"; do
    if grep -q "^${target}:" <<< "$targets"; then game_tests+=("$target"); fi
  done
done
echo "Game suites under the sanitizers: ${game_tests[*]}"
cmake --build build-asan -j "$jobs" --target core_test conformance_test "${game_tests[@]}" \
  storage_test handler_memory_test server_integration_test
# Fewer random playouts under the sanitizers: they find memory errors on the first occurrence.
(cd build-asan && PLATEAU_CONFORMANCE_PLAYOUTS=25 ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure --timeout 1500 -j "$jobs" \
    -E '^(console_|cli_|load_|web_unit|browser_)|_NOT_BUILT$')

# Only the suites where threads meet: the storage thread and the server over loopback.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Tsan -DCMAKE_CXX_FLAGS_TSAN="-O1 -g1" \
  -DPLATEAU_TSAN=ON
cmake --build build-tsan -j "$jobs" --target storage_executor_test handler_memory_test server_integration_test
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --output-on-failure --timeout 1500 -j 1 -R '^(StorageExecutor|HandlerMemoryTest|ServerTest|StaticFilesTest|ClientLimitsTest|BotsTest)\.')

cd build
ctest --output-on-failure --timeout 1500 -j "$jobs"
