#!/usr/bin/env bash
# A node paused past its lease writes nothing more (docs/multinode.md, section 2): the server on
# PostgreSQL with short leases, bots playing; the server stopped with SIGSTOP for longer than its
# lease, its rooms then claimed by another node (written in the database as a node would), the
# server continued with SIGCONT while the bots keep asking. None of its appends to the rooms it
# lost lands, no action index is written twice, it refuses the moves with room_moved and closes
# those rooms' connections, and it still answers. Bounded; the server and PostgreSQL are stopped on exit whatever happens.
# Usage: fence_test.sh SERVER LOAD WORK_DIR
set -u
SERVER=$1 LOAD=$2 WORK=$3

source "$(dirname "$0")/common.sh"
cleanup() {
  [ -n "${SERVER_PID:-}" ] && { kill -CONT "$SERVER_PID"; kill -9 "$SERVER_PID"; } 2>/dev/null
  [ -n "${LOAD_PID:-}" ] && kill -9 "$LOAD_PID" 2>/dev/null
  wait 2>/dev/null
  stop_postgres
}
trap cleanup EXIT

NOW_MS="(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
start_postgres "$WORK/pg"
start_server "$SERVER" --store "$PG_CONNINFO" --node-id a --lease-ms 1500
trap cleanup EXIT  # start_server set its own

# LIMIT: its games outlast the run, so every room keeps one game in play throughout.
timeout 60 "$LOAD" --port "$PORT" --game limit --seats 3 --rooms 10 --rate 100 \
  --duration-seconds 9 --warmup-seconds 1 >load.out 2>load.err &
LOAD_PID=$!
sleep 3
playing=$(pg_sql "SELECT count(*) FROM games WHERE status = 'playing'")
[ "$playing" -ge 5 ] || fail "only $playing games in play before the pause"
[ "$(pg_sql "SELECT count(DISTINCT node) FROM room_owners")" = 1 ] || fail "rooms owned by other than node a"

kill -STOP "$SERVER_PID"
stopped_at=$(date +%s.%N)
sleep 2.5  # past the lease (1.5 s)
# Another node, alive, takes every room whose node's lease ran out, as its claim does.
pg_sql "INSERT INTO nodes (node, address, expires_unix_ms) VALUES ('b', '', $NOW_MS + 3600000)" >/dev/null
taken=$(pg_sql "WITH t AS (UPDATE room_owners o SET node = 'b', epoch = epoch + 1
  WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.node = o.node AND n.expires_unix_ms > $NOW_MS)
  RETURNING room_id) SELECT count(*) FROM t")
[ "$taken" -ge 5 ] || fail "only $taken rooms had an expired lease after the pause"
IN_TAKEN="g.room_id IN (SELECT room_id FROM room_owners WHERE node = 'b')"
before=$(pg_sql "SELECT count(*) FROM game_actions a JOIN games g USING (game_no) WHERE $IN_TAKEN")
kill -CONT "$SERVER_PID"
echo "paused $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $stopped_at }") s; $taken rooms taken over with $before actions"

wait "$LOAD_PID"
LOAD_PID=
after=$(pg_sql "SELECT count(*) FROM game_actions a JOIN games g USING (game_no) WHERE $IN_TAKEN")
[ "$after" = "$before" ] || fail "$((after - before)) actions landed in rooms node a no longer ran"
# No index twice, none skipped: each game's log runs 0..n-1.
holes=$(pg_sql "SELECT count(*) FROM (SELECT game_no FROM game_actions GROUP BY game_no
  HAVING count(*) <> max(idx) + 1 OR count(DISTINCT idx) <> count(*)) x")
[ "$holes" = 0 ] || fail "$holes games with an index missing or twice"
moved=$(grep -Eo 'room_moved [0-9]+' load.out | cut -d' ' -f2)
[ -n "$moved" ] && [ "$moved" -ge 1 ] || fail "no move refused with room_moved after SIGCONT"
grep -q 'lease_lost' server.log || fail "the server did not log the lost leases"
# Each room that learnt it moved left the node and closed its members' connections, so their
# clients reconnect and find it where it runs.
closed=$(grep -c 'run by another node now' server.log)
[ "$closed" -ge 1 ] || fail "no room closed its connections on learning it moved"
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || fail "the server stopped answering"
echo "fenced: 0 of node a's appends landed in the $taken rooms taken over ($after actions, as before), $moved moves refused with room_moved, $closed rooms closed their connections, no index twice"
