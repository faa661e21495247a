#!/usr/bin/env bash
# Builds the web client if it is out of date, starts plateau-server on a free port with a
# temporary database and the built client, runs a browser test against it (Globalissimo by
# default), and stops the server. Each test has its own server, so tests may run side by side.
#   tests/browser/run.sh [path/to/plateau-server] [test file: <game>.e2e.test.mjs]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SERVER="${1:-$ROOT/build/bin/plateau-server}"
TEST="$ROOT/tests/browser/${2:-globalissimo.e2e.test.mjs}"
[ -x "$SERVER" ] || { echo "plateau-server not found at $SERVER" >&2; exit 2; }
bash "$ROOT/deploy/build-web.sh"
TMP="$(mktemp -d)"
cd "$TMP"
fail() { echo "FAIL: $*"; echo "--- server log"; tail -50 server.log; exit 1; }
source "$ROOT/tests/support/start_server.sh"
# PLATEAU_SERVER_FLAGS: more flags for this test's server (word-split), e.g. a short grace.
# shellcheck disable=SC2086
start_server "$SERVER" --static "$ROOT/clients/web/dist" --bot-delay-ms 150 --bot-think-ms 100 \
  ${PLATEAU_SERVER_FLAGS:-}
trap 'kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; cd /; rm -rf "$TMP"' EXIT
PLATEAU_URL="http://127.0.0.1:$PORT" node --test "$TEST" || fail "$(basename "$TEST") failed"
