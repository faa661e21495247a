#!/usr/bin/env bash
# Nodes stopping under load (docs/multinode.md, section 4), on deploy/cluster.sh's three nodes
# behind HAProxy, with bots that reconnect as the web client does (plateau-load --reconnect):
#   term: a rolling restart, each node in turn stopped with SIGTERM (it hands its rooms over and
#         closes its clients with 1001) and started again;
#   kill: one node killed with SIGKILL in the middle (leases of 3 s) and left dead.
# No room may give up, the bots must have come back (the longest wait is reported), at least as
# many actions must be stored as were acknowledged, and at the end every game in play must be run
# by a live node. Bounded; everything is stopped on exit.
# Usage: rolling_test.sh SERVER LOAD WORK_DIR term|kill
set -u
SERVER=$1 LOAD=$2 WORK=$3 MODE=$4
case "$MODE" in term|kill) ;; *) echo "FAIL: mode $MODE: term or kill"; exit 1 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/common.sh"
CLUSTER=$WORK/cluster
cluster() { PLATEAU_SERVER=$SERVER bash "$ROOT/deploy/cluster.sh" "$1" "$CLUSTER" "${@:2}"; }
cleanup() {
  [ -n "${LOAD_PID:-}" ] && kill -9 "$LOAD_PID" 2>/dev/null
  cluster stop >/dev/null 2>&1
}
trap cleanup EXIT

base=$(free_ports 4) || fail "no four free ports in a row"
cluster start --port "$base" -- --lease-ms 3000 >cluster.out 2>&1 ||
  { cat cluster.out; fail "cluster.sh start failed"; }

timeout 90 "$LOAD" --port "$base" --rooms 40 --rate 200 --duration-seconds 20 \
  --warmup-seconds 1 --reconnect >load.out 2>load.err &
LOAD_PID=$!
sleep 4
if [ "$MODE" = term ]; then
  for i in 1 2 3; do
    cluster restart "$i" >>cluster.out 2>&1 || fail "node-$i did not restart"
    grep -q "stopped" "$CLUSTER/node-$i.log" || fail "node-$i did not stop cleanly"
    sleep 4
  done
else
  kill -9 "$(cat "$CLUSTER/node-2.pid")"
fi
wait "$LOAD_PID"
status=$?
LOAD_PID=
value() { grep -E "^$1:" load.out | head -n1 | sed 's/^[^:]*: *//; s/ .*//'; }
[ "$status" = 0 ] || fail "the load generator failed (status $status)"
[ "$(value 'rooms failed')" = 0 ] || fail "rooms gave up"
reconnects=$(value reconnects)
longest=$(value 'longest reconnect ms')
[ "${reconnects:-0}" -gt 0 ] || fail "no bot had to reconnect"
[ "${longest:-99999}" -lt 15000 ] || fail "a bot took ${longest} ms to get its seat back"
accepted=$(value 'accepted actions')

sql() {
  psql -X -A -t -h "$CLUSTER/pg" -p 5432 -U plateau -d plateau -c "$1"
}
stored=$(sql "SELECT count(*) FROM game_actions")
[ "$stored" -ge "${accepted:-0}" ] || fail "$stored actions stored, $accepted acknowledged"
now="(extract(epoch from clock_timestamp()) * 1000)::bigint"
# Leases are renewed every second: a game whose room was being taken over gets its new owner.
orphans=
for _ in $(seq 100); do
  orphans=$(sql "SELECT count(*) FROM games g WHERE g.status = 'playing' AND NOT EXISTS (
    SELECT 1 FROM room_owners o JOIN nodes n USING (node)
    WHERE o.room_id = g.room_id AND n.expires_unix_ms > $now)")
  [ "$orphans" = 0 ] && break
  sleep 0.1
done
[ "$orphans" = 0 ] || fail "$orphans games in play run by no live node"
echo "PASS ($MODE): $accepted actions acknowledged, $stored stored; $reconnects reconnections, the longest $longest ms"
