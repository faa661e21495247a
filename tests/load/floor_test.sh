#!/usr/bin/env bash
# plateau-load --floor against plateau-floor-server on loopback for a few seconds: the floor the
# benchmark reads Plateau's figures against must itself run cleanly (rooms seated, every action
# answered, the Diff carrying its payload, the server's CPU measured; paced at the rate asked), and
# both programs must refuse flags they do not take. Bounded: each step times out; the server is stopped on exit.
# Usage: floor_test.sh FLOOR_SERVER LOAD WORK_DIR
set -u
FLOOR=$1 LOAD=$2 WORK=$3
source "$(dirname "$0")/common.sh"
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null; }
trap cleanup EXIT
value() { awk -F': ' -v k="$1" '$1 == k { print $2 }' load.out; }

# A fresh floor server: its rooms are named by index and stay full once played.
start_floor() {
  [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null
  "$FLOOR" --port 0 >server.log 2>&1 &
  SERVER_PID=$!
  PORT=
  for _ in $(seq 100); do
    PORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' server.log)
    [ -n "$PORT" ] && break
    sleep 0.1
  done
  [ -n "$PORT" ] || fail "plateau-floor-server did not start"
}
start_floor

"$FLOOR" --port "$PORT" --threads 0 >bad.log 2>&1 && fail "--threads 0 was accepted"
grep -q "threads must be from 1 to 64" bad.log || fail "no reason given for --threads 0"

timeout 60 "$LOAD" --floor --port "$PORT" --server-pid "$SERVER_PID" --rooms 20 \
  --duration-seconds 2 --warmup-seconds 1 >load.out 2>load.err ||
  fail "plateau-load --floor exited with status $?"
accepted=$(value "accepted actions")
[ -n "$accepted" ] && [ "$accepted" -ge 500 ] || fail "$accepted actions accepted in 2 s"
[ "$(value refused)" = 0 ] || fail "actions refused: $(value refused)"
[ "$(value 'connection errors')" = 0 ] || fail "connection errors"
[ "$(value 'rooms failed')" = 0 ] || fail "rooms given up"
diff_bytes=$(value "bytes per diff")
[ -n "$diff_bytes" ] && [ "$diff_bytes" -ge 540 ] || fail "a Diff of $diff_bytes bytes"
grep -q 'server cpu us/action: [0-9]' load.out || fail "no server CPU figure"
grep -q 'server context switches/action: [0-9]' load.out || fail "no context switch figure"

# Paced: 20 rooms sharing 200 actions/s hold that rate, where the closed loop above went far
# past it.
start_floor
timeout 60 "$LOAD" --floor --port "$PORT" --server-pid "$SERVER_PID" --rooms 20 --rate 200 \
  --duration-seconds 2 --warmup-seconds 1 >load.out 2>load.err ||
  fail "plateau-load --floor --rate exited with status $?"
paced=$(value "accepted actions")
[ -n "$paced" ] && [ "$paced" -ge 300 ] && [ "$paced" -le 500 ] ||
  fail "$paced actions accepted in 2 s paced at 200/s"
[ "$(value 'rooms failed')" = 0 ] || fail "rooms given up when paced"

"$LOAD" --floor --port "$PORT" --game limit >bad.out 2>&1 && fail "--floor took --game"
grep -q "takes no" bad.out || fail "no reason given for --floor --game"
echo "ok: $accepted actions closed loop, $paced paced at 200/s, $diff_bytes bytes per Diff"
echo "PASS"
