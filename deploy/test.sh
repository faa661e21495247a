#!/usr/bin/env bash
# Command 2: install what is missing, build everything with tests, and run every test, in stages
# whose durations are printed as each ends and in a table at the end (deploy/stages.sh):
# - the engine, storage and server suites under AddressSanitizer and UndefinedBehaviorSanitizer
#   (build-asan/), and the server's threaded suites under ThreadSanitizer (build-tsan/), each
#   build making only the suites it runs;
# - every test of the Release build (build/) through ctest: the C++ suites, the rules console,
#   the clients, the load generator and the web client's unit tests two at a time, then the
#   headless-Chromium tests side by side (each with its own server).
# Compiles go through ccache (see CMakeLists.txt): a checkout built before, in any folder, makes
# the three builds quick.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/stages.sh
jobs="${PLATEAU_JOBS:-2}"
browser_jobs="${PLATEAU_BROWSER_JOBS:-2}"

# Every ctest run's counts, added up for the last line ("ctest: N passed, N failed").
passed=0
failed=0
run_ctest() {  # run_ctest BUILD_DIR CTEST_ARGS...
  local dir=$1 out rc=0 line total bad
  shift
  out=$(mktemp)
  (cd "$dir" && ctest --output-on-failure --no-tests=error "$@") 2>&1 | tee "$out" || rc=$?
  line=$(grep -Eo '[0-9]+ tests? failed out of [0-9]+' "$out" | tail -n1 || true)
  rm -f "$out"
  if [ -n "$line" ]; then
    bad=${line%% *}
    total=${line##* }
    passed=$((passed + total - bad))
    failed=$((failed + bad))
  fi
  return "$rc"
}
trap 'stage_report; echo "ctest: $passed passed, $failed failed"' EXIT

stage "install: Debian packages, Node"
bash deploy/install-deps.sh
if command -v ccache >/dev/null; then ccache --zero-stats >/dev/null; fi

stage "build: Release, with tests, and the web client"
bash deploy/build.sh

stage "build: AddressSanitizer + UndefinedBehaviorSanitizer"
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
# The proof game (tests/proof) is the core's own test of pieces, sight and the decision queue.
cmake --build build-asan -j "$jobs" --target core_test conformance_test "${game_tests[@]}" \
  proof_test proof_conformance_test storage_test handler_memory_test server_integration_test

stage "tests: AddressSanitizer + UndefinedBehaviorSanitizer"
# Fewer random playouts under the sanitizers: they find memory errors on the first occurrence.
# The games' simulations (statistics over hundreds of seeded games, `*Simulation.*`) run in the
# Release stage only: the sanitizers meet the same rules in the conformance suite's playouts, ten
# times slower here.
PLATEAU_CONFORMANCE_PLAYOUTS=25 ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_ctest build-asan --timeout 1500 -j "$jobs" \
    -E '^(console_|cli_|load_|web_unit|browser_|docs_|deploy_)|_NOT_BUILT$|^[A-Za-z]+Simulation\.'

stage "build: ThreadSanitizer"
# Only the suites where threads meet: the storage thread and the server over loopback.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Tsan -DCMAKE_CXX_FLAGS_TSAN="-O1 -g1" \
  -DPLATEAU_TSAN=ON
cmake --build build-tsan -j "$jobs" --target storage_executor_test handler_memory_test server_integration_test

stage "tests: ThreadSanitizer"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 run_ctest build-tsan --timeout 1500 -j 1 \
  -R '^(StorageExecutor|HandlerMemoryTest|ServerTest|StaticFilesTest|ClientLimitsTest|BotsTest|SessionsTest)\.'

stage "tests: Release, all but the browser"
run_ctest build --timeout 1500 -j "$jobs" -LE '^browser$'

stage "tests: Release, the browser (Chromium), $browser_jobs side by side"
run_ctest build --timeout 1500 -j "$browser_jobs" -L '^browser$'

if command -v ccache >/dev/null; then
  stage "compiler cache"
  ccache --show-stats | grep -E 'Hits|Misses|Cache size' || true
fi
