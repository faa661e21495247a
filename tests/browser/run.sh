#!/usr/bin/env bash
# Builds the web client, starts plateau-server on a free port with a temporary database and the
# built client, runs a browser test against it (Globalissimo by default), and stops the
# server.
#   tests/browser/run.sh [path/to/plateau-server] [test file: <game>.e2e.test.mjs]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SERVER="${1:-$ROOT/build/bin/plateau-server}"
TEST="$ROOT/tests/browser/${2:-globalissimo.e2e.test.mjs}"
[ -x "$SERVER" ] || { echo "plateau-server not found at $SERVER" >&2; exit 2; }
cd "$ROOT/clients/web"
[ -d node_modules ] || npm ci
npm run build
TMP="$(mktemp -d)"
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
# PLATEAU_SERVER_FLAGS: more flags for this test's server (word-split), e.g. a short grace.
# shellcheck disable=SC2086
"$SERVER" --port "$PORT" --bind 127.0.0.1 --db "$TMP/plateau.db" --static "$ROOT/clients/web/dist" --bot-delay-ms 150 --bot-think-ms 100 ${PLATEAU_SERVER_FLAGS:-} >"$TMP/server.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/" >/dev/null 2>&1 && break
  sleep 0.1
done
PLATEAU_URL="http://127.0.0.1:$PORT" node --test "$TEST" || { echo "--- server log"; tail -50 "$TMP/server.log"; exit 1; }
