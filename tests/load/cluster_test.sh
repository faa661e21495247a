#!/usr/bin/env bash
# deploy/cluster.sh as an operator runs it (docs/multinode.md, section 5): PostgreSQL, three nodes
# and HAProxy in front, started in a folder; bots play Globalissimo through the front only, so
# most guests reach another node than their room's and are carried there over a link. Every room
# must play with nothing refused, and each node run games; the nodes together carried guests.
# Then `stop` stops everything (each node handing its rooms over on SIGTERM). Bounded; stopped on exit.
# Usage: cluster_test.sh SERVER LOAD WORK_DIR
set -u
SERVER=$1 LOAD=$2 WORK=$3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/common.sh"
CLUSTER=$WORK/cluster
cleanup() {
  [ -n "${LOAD_PID:-}" ] && kill -9 "$LOAD_PID" 2>/dev/null
  PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" stop "$CLUSTER" >/dev/null 2>&1
}
trap cleanup EXIT

# The front's port and the three nodes' after it.
base=$(free_ports 4) || fail "no four free ports in a row"
PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" start "$CLUSTER" --port "$base" \
  -- --lease-ms 3000 >cluster.out 2>&1 || { cat cluster.out; fail "cluster.sh start failed"; }
PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" status "$CLUSTER" >status.out ||
  fail "not everything runs: $(cat status.out)"

timeout 60 "$LOAD" --port "$base" --rooms 60 --rate 300 --duration-seconds 5 --warmup-seconds 1 \
  >load.out 2>load.err || fail "the load generator failed"
value() { grep -E "^$1:" load.out | head -n1 | sed 's/^[^:]*: *//; s/ .*//'; }
[ "$(value 'rooms failed')" = 0 ] || fail "rooms failed through the front"
[ "$(value 'lobby errors')" = 0 ] || fail "requests refused through the front"
accepted=$(value 'accepted actions')
[ "${accepted:-0}" -ge 1000 ] || fail "only ${accepted:-0} actions accepted"

metric() { curl -fsS "http://127.0.0.1:$1/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }
total=0
for i in 1 2 3; do
  port=$((base + i))
  runs=$(metric "$port" plateau_actions_accepted_total)
  carried=$(metric "$port" plateau_links_opened_total)
  echo "node-$i: ${runs:-0} actions accepted, ${carried:-0} clients carried to other nodes"
  [ "${runs:-0}" -gt 0 ] || fail "node-$i ran no game"
  total=$((total + ${carried:-0}))
done
[ "$total" -gt 0 ] || fail "no client was carried over a link"

[ "$(grep -c 'listening on' "$CLUSTER"/node-*.log | awk -F: '{ s += $2 } END { print s }')" -ge 3 ] ||
  fail "not every node listened"

PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" stop "$CLUSTER" >stop.out 2>&1 ||
  fail "cluster.sh stop failed: $(cat stop.out)"
for f in "$CLUSTER"/node-*.log; do
  grep -q "stopped" "$f" || fail "$(basename "$f" .log) did not stop cleanly"
done
if PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" status "$CLUSTER" >/dev/null; then
  fail "something still runs after stop"
fi
echo "PASS: $accepted actions through the front, $total clients carried between nodes"
