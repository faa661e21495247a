#!/usr/bin/env bash
# deploy/build.sh decides what to configure and build; cmake and the web client's build are
# stand-ins here that only log their arguments, so the test takes no time. Checked: the start
# command's build (--no-tests) after the test command's reuses build/ as it is and builds only the
# programs (it used to reconfigure with tests off and rebuild); a build/ of another checkout, or
# none, is configured; the test command's build always configures with tests on.
# Usage: build_script_test.sh REPO_ROOT WORK_DIR
set -u
ROOT=$1 WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK/repo/deploy" "$WORK/bin" || exit 1
REPO=$(cd "$WORK/repo" && pwd -P)
cp "$ROOT/deploy/build.sh" "$REPO/deploy/"
export LOG="$WORK/calls.log"
printf '#!/bin/sh\necho "cmake $*" >>"$LOG"\n' >"$WORK/bin/cmake"
printf '#!/bin/sh\necho "build-web" >>"$LOG"\n' >"$REPO/deploy/build-web.sh"
chmod +x "$WORK/bin/cmake"
export PATH="$WORK/bin:$PATH"

failures=0
check() {  # check DESCRIPTION PATTERN [!] : the log of the last run has (or, with !, has not) PATTERN
  local what=$1 pattern=$2 negate=${3:-}
  if grep -qE -- "$pattern" "$LOG"; then found=1; else found=0; fi
  if { [ -z "$negate" ] && [ $found = 0 ]; } || { [ -n "$negate" ] && [ $found = 1 ]; }; then
    echo "FAIL: $what"
    echo "--- calls:"
    cat "$LOG"
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
configured_build() {  # configured_build HOME_DIR TESTS
  rm -rf "$REPO/build" && mkdir -p "$REPO/build"
  : >"$REPO/build/build.ninja"
  printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\nCMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_BUILD_TYPE:STRING=Release\nPLATEAU_BUILD_TESTS:BOOL=%s\n' \
    "$1" "$2" >"$REPO/build/CMakeCache.txt"
}
run() { : >"$LOG"; (cd "$REPO" && bash deploy/build.sh "$@") >/dev/null 2>&1 || echo "FAIL: build.sh $* exited $?"; }

configured_build "$REPO" ON
run --no-tests
check "a start after the tests does not configure again" 'cmake -S' !
check "a start after the tests builds the programs only" 'cmake --build build .*--target plateau-server plateau-cli plateau-engine plateau-load'
check "a start builds the web client" 'build-web'

configured_build "$REPO" OFF
run --no-tests
check "a second start does not configure again" 'cmake -S' !

rm -rf "$REPO/build"
run --no-tests
check "a first start configures without tests" 'cmake -S \. -B build .*-DPLATEAU_BUILD_TESTS=OFF'

configured_build /somewhere/else ON
run --no-tests
check "a build/ copied from another checkout is configured again" 'cmake -S \. -B build .*-DPLATEAU_BUILD_TESTS=OFF'

configured_build "$REPO" OFF
run
check "the test command's build configures with tests" 'cmake -S \. -B build .*-DPLATEAU_BUILD_TESTS=ON'
check "the test command's build builds everything" 'cmake --build build -j [0-9]+$'

[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
