#!/usr/bin/env bash
# A node's games go on elsewhere (docs/multinode.md, section 4): two servers on one PostgreSQL
# database, bots playing LIMIT on node a; then node a
#   kill: killed with SIGKILL (leases of 1.5 s): node b takes its rooms once their leases run out;
#   term: stopped with SIGTERM (leases of 6 s): node a answers what it took, hands its rooms over
#         and exits 0, and node b takes them without waiting a lease out.
# Node b must take every room of a's games in play, each restored from the whole log a had stored
# (nothing acknowledged lost), and run them on: here nobody reconnects, so b's own timers end them
# as abandoned games and b stores their results. The time from the signal to the last room taken
# over is reported. Bounded; everything is stopped on exit.
# Usage: takeover_test.sh SERVER LOAD WORK_DIR kill|term
set -u
SERVER=$1 LOAD=$2 WORK=$3 MODE=$4
case "$MODE" in
  kill) LEASE=1500 ;;
  term) LEASE=6000 ;;
  *) echo "FAIL: mode $MODE: kill or term"; exit 1 ;;
esac

source "$(dirname "$0")/common.sh"
cleanup() {
  for pid in ${A_PID:-} ${B_PID:-} ${LOAD_PID:-}; do kill -9 "$pid" 2>/dev/null; done
  wait 2>/dev/null
  stop_postgres
}
trap cleanup EXIT

start_postgres "$WORK/pg"
# Node b first, in a folder of its own (start_server writes server.log where it runs).
mkdir -p b && cd b
start_server "$SERVER" --store "$PG_CONNINFO" --node-id b --lease-ms $LEASE --abandoned-game-seconds 3
B_PID=$SERVER_PID
cd ..
start_server "$SERVER" --store "$PG_CONNINFO" --node-id a --lease-ms $LEASE
A_PID=$SERVER_PID
trap cleanup EXIT  # start_server set its own

timeout 60 "$LOAD" --port "$PORT" --game limit --seats 3 --rooms 10 --rate 100 \
  --duration-seconds 5 --warmup-seconds 1 >load.out 2>load.err &
LOAD_PID=$!
sleep 3
if [ "$MODE" = kill ]; then
  kill -9 "$A_PID"
  killed_at=$(date +%s%N)
  wait "$A_PID" 2>/dev/null
else
  kill -TERM "$A_PID"
  killed_at=$(date +%s%N)
  wait "$A_PID"
  status=$?
  [ "$status" = 0 ] || fail "node a exited with status $status on SIGTERM"
fi
A_PID=
# What a had stored when it died: the games in play and their logs' lengths.
pg_sql "SELECT g.game_id || ' ' || (SELECT count(*) FROM game_actions x WHERE x.game_no = g.game_no)
  FROM games g WHERE g.status = 'playing' ORDER BY 1" >at_kill.txt
playing=$(wc -l <at_kill.txt)
[ "$playing" -ge 5 ] || fail "only $playing games in play when node a was killed"
[ "$(pg_sql "SELECT count(*) FROM room_owners WHERE node = 'a'")" -ge "$playing" ] ||
  fail "node a did not own the rooms of its games"

# Node b takes them over.
taken_ms=
for _ in $(seq 150); do
  if [ "$(pg_sql "SELECT count(*) FROM games g JOIN room_owners o USING (room_id)
      WHERE g.game_id IN ($(awk '{ printf "%s'\''%s'\''", (NR > 1 ? "," : ""), $1 }' at_kill.txt))
      AND o.node = 'b'")" = "$playing" ] &&
     [ "$(grep -c 'restored room' b/server.log)" -ge "$playing" ]; then
    taken_ms=$(( ($(date +%s%N) - killed_at) / 1000000 ))
    break
  fi
  sleep 0.1
done
[ -n "$taken_ms" ] || fail "node b did not take the $playing games over within 15 s"
if [ "$MODE" = term ]; then
  [ "$taken_ms" -lt "$LEASE" ] || fail "the rooms handed over took $taken_ms ms, a lease is $LEASE"
fi
# Each restored from the whole log node a had stored.
grep -Eo 'restored room [^ ]+ \(game [^ ]+, [0-9]+ actions' b/server.log |
  awk '{ gsub(/,/, "", $5); print $5, $6 }' | sort >restored.txt
join at_kill.txt restored.txt | awk '$2 != $3 { bad++ } END { exit bad > 0 }' ||
  fail "a game was restored with another log than stored: $(join at_kill.txt restored.txt | awk '$2 != $3')"
[ "$(join at_kill.txt restored.txt | wc -l)" = "$playing" ] || fail "not every game in play was restored on b"

# Node b runs them on: nobody came back, so its timers end them and it stores their results.
wait "$LOAD_PID" 2>/dev/null
LOAD_PID=
for _ in $(seq 150); do
  left=$(pg_sql "SELECT count(*) FROM games WHERE status = 'playing'")
  [ "$left" = 0 ] && break
  sleep 0.1
done
[ "$left" = 0 ] || fail "$left games still in play 15 s after the takeover"
results=$(pg_sql "SELECT count(DISTINCT game_id) FROM game_results")
[ "$results" -ge "$playing" ] || fail "results stored for $results games, $playing were taken over"
holes=$(pg_sql "SELECT count(*) FROM (SELECT game_no FROM game_actions GROUP BY game_no
  HAVING count(*) <> max(idx) + 1) x")
[ "$holes" = 0 ] || fail "$holes games with a hole in their log"
accepted=$(awk -F': ' '$1 == "accepted actions" { print $2 }' load.out)
stored=$(pg_sql "SELECT count(*) FROM game_actions")
[ -z "$accepted" ] || [ "$stored" -ge "$accepted" ] || fail "$stored actions stored, $accepted acknowledged"
echo "takeover ($MODE): node a stopped with $playing games in play; node b took all of them over in $taken_ms ms (lease $LEASE ms), each from its whole log; all finished on b with their results; $stored actions stored${accepted:+, $accepted acknowledged}"
