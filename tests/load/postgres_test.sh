#!/usr/bin/env bash
# plateau-server on PostgreSQL (--store), end to end on loopback: a PostgreSQL cluster started by
# the test, bots playing Globalissimo and LIMIT over WebSockets for a few seconds each (as
# load_smoke does on SQLite), what they were told was accepted found in the database, then the
# server killed with SIGKILL and started again on the same database: every game left in play
# comes back. Bounded; the server and PostgreSQL are stopped on exit whatever happens.
# Usage: postgres_test.sh SERVER LOAD WORK_DIR
set -u
SERVER=$1 LOAD=$2 WORK=$3

source "$(dirname "$0")/common.sh"
cleanup() {
  [ -n "${SERVER_PID:-}" ] && kill -9 "$SERVER_PID" 2>/dev/null
  wait 2>/dev/null
  stop_postgres
}
trap cleanup EXIT

start_postgres "$WORK/pg"
start_server "$SERVER" --store "$PG_CONNINFO"
trap cleanup EXIT  # start_server set its own

value() { awk -F': ' -v k="$1" '$1 == k { print $2 }' load.out; }

total_accepted=0
for spec in "globalissimo 2" "limit 3"; do
  set -- $spec
  timeout 120 "$LOAD" --port "$PORT" --server-pid "$SERVER_PID" --game "$1" --seats "$2" \
    --store-pid "$(head -n1 "$WORK/pg/data/postmaster.pid")" --rooms 20 --rate 150 --duration-seconds 4 --warmup-seconds 1 >load.out 2>load.err ||
    fail "$1: plateau-load exited with status $?"
  accepted=$(value "accepted actions")
  [ -n "$accepted" ] && [ "$accepted" -ge 150 ] || fail "$1: $accepted actions accepted, expected about 600"
  # A Globalissimo game lasts a few seconds here; LIMIT's are left in play for the restart below.
  if [ "$1" = globalissimo ]; then
    [ "$(value 'games finished')" -ge 1 ] 2>/dev/null || fail "$1: no game finished"
  fi
  [ "$(value resyncs)" = 0 ] || fail "$1: bots resynced"
  [ "$(value 'connection errors')" = 0 ] || fail "$1: connection errors"
  [ "$(value 'rooms failed')" = 0 ] || fail "$1: rooms given up"
  # The cluster's backends did the writing: their CPU shows over the window.
  awk -v v="$(value 'store cpu us/action')" 'BEGIN { exit !(v + 0 > 0) }' ||
    fail "$1: the cluster's CPU per action is '$(value 'store cpu us/action')'"
  total_accepted=$((total_accepted + accepted))
  echo "$1 on PostgreSQL: $accepted actions accepted, $(value 'games finished') games finished, p99 $(value 'latency p99 ms') ms, the cluster $(value 'store cpu us/action') µs of CPU per action"
done

# Accepted means stored: the database holds at least what the bots were told (they count the
# measured window; the warm-up's and the games' starts add to the rows).
stored=$(pg_sql "SELECT count(*) FROM game_actions") || fail "cannot read the database"
[ "$stored" -ge "$total_accepted" ] || fail "$stored actions stored, $total_accepted accepted"
finished=$(pg_sql "SELECT count(*) FROM games WHERE status = 'finished'")
[ "$finished" -ge 1 ] || fail "$finished games finished in the database"

# Killed without a word, then started again: the games the load left in play come back.
playing=$(pg_sql "SELECT count(*) FROM games WHERE status = 'playing'")
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null
start_server "$SERVER" --store "$PG_CONNINFO"
trap cleanup EXIT
restored=$(grep -c 'restored room' server.log || true)
[ "$playing" -ge 20 ] || fail "only $playing games left in play to restore"
[ "$restored" = "$playing" ] || fail "$playing games in play in the database, $restored rooms restored"
echo "PostgreSQL: $stored actions stored (>= $total_accepted accepted), $finished games finished, $restored of $playing games in play restored after kill -9"
