#!/usr/bin/env bash
# plateau-load against a real plateau-server on loopback, a few seconds per game: every
# registered game (as plateau-engine lists them) is played by bots over WebSockets at its fewest
# seats and at two more, paced well under the server's per-connection limits, and each run must
# end cleanly: actions accepted at a good part of the asked rate,
# games finished, no resync (a bot whose view went wrong applying a Diff asks for one), no
# connection error, no room given up. Bounded: each run stops by itself; the server is stopped on
# exit whatever happens.
# Usage: smoke_test.sh SERVER LOAD ENGINE WORK_DIR
set -u
SERVER=$1 LOAD=$2 ENGINE=$3 WORK=$4

source "$(dirname "$0")/common.sh"
start_server "$SERVER"

value() { awk -F': ' -v k="$1" '$1 == k { print $2 }' load.out; }

run() {  # run GAME SEATS ROOMS RATE SECONDS
  local game=$1 seats=$2 rooms=$3 rate=$4 seconds=$5
  timeout 120 "$LOAD" --port "$PORT" --server-pid "$SERVER_PID" --game "$game" --seats "$seats" \
    --rooms "$rooms" --rate "$rate" --duration-seconds "$seconds" --warmup-seconds 1 \
    >load.out 2>load.err || fail "$game: plateau-load exited with status $?"
  local accepted finished
  accepted=$(value "accepted actions")
  finished=$(value "games finished")
  # A quarter of the asked rate at least: the tests around it share the machine.
  [ -n "$accepted" ] && [ "$accepted" -ge $((rate * seconds / 4)) ] ||
    fail "$game: $accepted actions accepted, expected about $((rate * seconds))"
  [ -n "$finished" ] && [ "$finished" -ge 1 ] || fail "$game: no game finished"
  [ "$(value resyncs)" = 0 ] || fail "$game: bots resynced (a Diff did not apply to a view)"
  [ "$(value 'connection errors')" = 0 ] || fail "$game: connection errors"
  [ "$(value 'rooms failed')" = 0 ] || fail "$game: rooms given up"
  grep -q 'server cpu us/action: [0-9]' load.out || fail "$game: no server CPU figure"
  echo "ok: $game: $accepted actions, $finished games"
}

games=$("$ENGINE" games) || fail "plateau-engine games failed"
[ -n "$games" ] || fail "no registered game"
while IFS=$'\t' read -r id _title seats; do
  lo=${seats%%-*}
  hi=${seats#*-}
  hi=${hi%% *}
  # Few rooms, so that each plays several hundred actions: enough for a long game (a Guerre
  # Froide game takes 200 to 500) to reach its end within the run.
  run "$id" "$lo" 4 400 4
  more=$((lo + 2 < hi ? lo + 2 : hi))
  [ "$more" -gt "$lo" ] && run "$id" "$more" 2 300 5
done <<<"$games"
echo "PASS"
