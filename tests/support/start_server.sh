# Sourced by the shell tests that need a live server: start_server SERVER_BINARY [FLAG...] starts
# it on a free loopback port (the server picks it: no race with another test starting beside it)
# with a fresh database in the current directory and any further flags (its output in server.log),
# stops it on exit whatever happens, and sets SERVER_PID and PORT once it listens. The caller
# defines fail MESSAGE (report and exit). Safe under `set -euo pipefail` (tests/browser/run.sh).
start_server() {
  "$1" --bind 127.0.0.1 --port 0 --db "$PWD/test.db" --static "$PWD" "${@:2}" >server.log 2>&1 &
  SERVER_PID=$!
  trap 'kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null' EXIT
  PORT=
  for _ in $(seq 100); do
    PORT=$(grep -Eo 'listening on [0-9.]+:[0-9]+' server.log | head -n1 | sed 's/.*://' || true)
    [ -n "$PORT" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the server exited at start-up"
    sleep 0.1
  done
  fail "the server did not report its port within 10 s"
}
