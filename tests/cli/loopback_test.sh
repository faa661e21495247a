#!/usr/bin/env bash
# End-to-end over loopback: a real plateau-server on a free port with a fresh database, two
# plateau-cli script sessions that create/join a room and play a one-round game through a server
# restart (kill -9 mid-game: both clients reconnect by themselves and finish), the downloaded
# record re-simulated by plateau-engine, one player alone against a bot through a rematch, a
# leaver's seat handed to a bot and taken back, a private room joined by its pasted invitation
# link and watched by its watch link (which seats nobody) where a move is taken back, then a
# resumed session and the client's error paths.
# Every step is bounded by a timeout; the server is stopped on exit whatever happens.
# Usage: loopback_test.sh SERVER CLI ENGINE SCRIPTS_DIR WORK_DIR
set -u
SERVER=$1 CLI=$2 ENGINE=$3 SCRIPTS=$4 WORK=$5

HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

fail() {
  echo "FAIL: $*"
  for f in server.log server2.log host.out guest.out solo.out gf_solo.out ann.out ben.out taker.out uma.out \
      wes.out vic.out resume.out no_room.out; do
    [ -f "$f" ] && { echo "----- $f"; cat "$f"; }
  done
  exit 1
}
expect_in() {  # expect_in FILE REGEX
  grep -Eq -- "$2" "$1" || fail "$1 lacks /$2/"
}

source "$HERE/../support/start_server.sh"
start_server "$SERVER"

client() {  # client NAME TOKEN_FILE SCRIPT OUT
  timeout 90 "$CLI" --host 127.0.0.1 --port "$PORT" --name "$1" --token-file "$2" \
    --timeout 10000 --script "$3" >"$4" 2>&1
}

client Host host.token "$SCRIPTS/host.txt" host.out &
HOST_PID=$!
client Guest guest.token "$SCRIPTS/guest.txt" guest.out &
GUEST_PID=$!

# Once the host has seen its first turn (it then pauses), the server dies without warning and
# comes back on the same port and database.
for _ in $(seq 300); do
  grep -Eq '^\(v[0-9]+, your turn\)' host.out 2>/dev/null && break
  sleep 0.1
done
grep -Eq '^\(v[0-9]+, your turn\)' host.out || fail "the host never saw its first turn"
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null
"$SERVER" --bind 127.0.0.1 --port "$PORT" --db "$PWD/test.db" --static "$PWD" >server2.log 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
  grep -q 'listening on' server2.log && break
  sleep 0.1
done
grep -q 'listening on' server2.log || fail "the server did not come back on port $PORT"

wait "$GUEST_PID"
GUEST_STATUS=$?
wait "$HOST_PID"
HOST_STATUS=$?
[ "$HOST_STATUS" -eq 0 ] || fail "host session exited with $HOST_STATUS"
[ "$GUEST_STATUS" -eq 0 ] || fail "guest session exited with $GUEST_STATUS"

expect_in host.out '^Welcome, Host \(p[0-9a-f]+\)\.'
expect_in host.out '^globalissimo	Globalissimo	2-6 seats'
expect_in host.out "created r[0-9a-f]+ globalissimo 'Loopback table' waiting 1/2 seated code [A-Z0-9]{6}; you are seat 1"
expect_in host.out '\* the game has started; you are seat 1'
expect_in host.out '^\[Guest\] hello from the guest'
expect_in host.out '^accepted: place'
expect_in host.out '^\* game over \(game g[0-9a-f]+\):'
expect_in host.out 'seat 1 \(Host\): score [0-9]+, rank [12]'
expect_in host.out '^g[0-9a-f]+ globalissimo [0-9]+ steps: Host'
expect_in host.out '^game g[0-9a-f]+ \(globalissimo\), step 1 of [0-9]+, as a spectator sees it'
# A replay names the seat it is seen from, never "you" (whoever reads it may not have played),
# and gives the move that led to the step in words.
expect_in host.out '^game g[0-9a-f]+ \(globalissimo\), step 1 of [0-9]+, as Host saw it'
expect_in host.out '^last move: Host places tile [0-9] on '
sed -n '/as Host saw it/,/^1\. /p' host.out | grep -q '(you)' && fail "a replay calls a seat \"you\""
expect_in host.out '^set-up: Round 1 of 1: '
expect_in host.out '^1\. Host places tile [0-9] on '
expect_in host.out '^saved game g[0-9a-f]+ to game.record'
expect_in guest.out "^joined r[0-9a-f]+ globalissimo 'Loopback table' waiting 2/2 seated .*you are seat 2"
expect_in guest.out '\* the game has started; you are seat 2'
expect_in guest.out '^accepted: place'
# Moves listed by number, in words, and one played by its number.
expect_in guest.out '^  1\. place: slot [0-9], position [1-5]$'
expect_in guest.out "^Play one with 'play <n>'\."
expect_in guest.out '^Round 1/1 - game over'
expect_in guest.out '^phase: PHASE_GAME_OVER'
# The restart: each client saw the connection drop, came back to its seat and played on.
for f in host.out guest.out; do
  expect_in "$f" '^! Disconnected: .*; reconnecting\.\.\.'
  expect_in "$f" '^\* reconnected; back in room r[0-9a-f]+'
done
# Seats are named by the players' names in the game's own lines, as in the web client.
expect_in guest.out '^  Host: [0-9]+ squares'
expect_in guest.out '^  Guest \(you\): [0-9]+ squares'
[ -s game.record ] || fail "the downloaded record is missing or empty"

# The downloaded record replays with the engine alone, and its stored results agree.
timeout 60 "$ENGINE" replay game.record >replay.out 2>&1 || { cat replay.out; fail "replay failed"; }
expect_in replay.out '^game: globalissimo \(Globalissimo\), 2 seats'
expect_in replay.out '^steps: [0-9]+'
expect_in replay.out '^step 1: seat 0: place'
expect_in replay.out 'The stored results match the re-simulation.'

# One player alone: a bot seated (added, removed, added again), a game played to the end against
# it, the whole log read, a rematch asked (the bot accepts at once) and the second game resigned.
client Solo solo.token "$SCRIPTS/solo.txt" solo.out || fail "solo session failed"
expect_in solo.out '^seats: seat 1 Solo, seat 2 Bot 1 \(bot, easy\)$'
expect_in solo.out '^seats: seat 1 Solo, seat 2 free$'
expect_in solo.out '^\* the game has started; you are seat 1'
# Moves in words, never in the game's text format, and seats counted from 1.
expect_in solo.out '^  1\. place: slot [0-9], position [1-5]$'
grep -E '^  [0-9]+\. ' solo.out | grep -q '[{}_]' && fail "a move is listed in text format"
expect_in solo.out '^accepted: place: slot [0-9], position [1-5] \(action 1\)'
# The view after the game prints every entry not seen yet: the round's start as well as the end
# (more than the four latest).
sed -n '/^> view$/,/^(v[0-9]/p' solo.out >solo_view.out
expect_in solo_view.out '^  Round 1 of 1: '
expect_in solo_view.out '^  Game over\.'
[ "$(sed -n '/^Log:$/,$p' solo_view.out | grep -c '^  ')" -gt 4 ] || fail "view printed four log entries or fewer"
expect_in solo.out '^Log, entries 1-[0-9]+ of [0-9]+ \(page 1 of 1\):$'
expect_in solo.out '^\* a new game starts in this room \(game g[0-9a-f]+\)'
expect_in solo.out '^rematch asked: a new game starts once every player accepts$'
expect_in solo.out '^accepted: resign'
[ "$(grep -c '^\* game over' solo.out)" -eq 2 ] || fail "the solo player did not finish two games"

# A game that publishes its moves in steps: each move is its steps' words joined, numbered.
client Spy spy.token "$SCRIPTS/gf_solo.txt" gf_solo.out || fail "the Guerre Froide session failed"
expect_in gf_solo.out '^  1\. Choose your Agent X, the [A-Z][a-z]+'
grep -E '^  [0-9]+\. ' gf_solo.out | grep -q '[{}_]' && fail "a move is listed in text format"
expect_in gf_solo.out '^accepted: Choose your Agent X, the [A-Z][A-Za-z ]+ \(action [0-9]+\)'
expect_in gf_solo.out '^accepted: resign'

# A leaver's seat handed to a bot by the other player, then taken back by its player.
client Ann ann.token "$SCRIPTS/replacer.txt" ann.out &
ANN_PID=$!
client Ben ben.token "$SCRIPTS/leaver.txt" ben.out || fail "the leaver's session failed"
wait "$ANN_PID" || fail "the replacer's session failed"
expect_in ann.out '^away: seat 1 Ann, seat 2 Ben \(left\)'
expect_in ann.out '^a bot plays seat 2 now$'
expect_in ann.out '^  seat 1 Ann, seat 2 Ben \(left\) \(a bot plays for them\)$'
ROOM=$(grep -Eo "^created r[0-9a-f]+" ann.out | cut -d' ' -f2)
printf 'join %s\ntake-back\nroom\n' "$ROOM" >taker.txt
client Ben ben.token taker.txt taker.out || fail "the taker's session failed"
expect_in taker.out '^joined .*you are seat 2'
expect_in taker.out '^your seat is yours again$'
grep -A1 '^> room$' taker.out | grep -q 'a bot plays' && fail "the bot still plays the seat taken back"

# A private three-seat room: Uma hosts it (a bot in seat 3); Wes watches it by its watch link and
# may not sit with it; Vic sits by the invitation link. Uma takes her first tile back (everyone is
# told, in words) and places another; once Vic has moved, her take-back is refused. Uma reads
# her commands from stdin, so that refusal is printed and her session plays on.
timeout 180 "$CLI" --host 127.0.0.1 --port "$PORT" --name Uma --token-file uma.token \
  --timeout 10000 <"$SCRIPTS/undo_host.txt" >uma.out 2>&1 &
UMA_PID=$!
for _ in $(seq 300); do
  grep -q '^  watch link: ' uma.out 2>/dev/null && break
  sleep 0.1
done
INVITE=$(grep -Eo '^  invitation: \S+' uma.out | cut -d' ' -f4)
WATCH=$(grep -Eo '^  watch link: \S+' uma.out | cut -d' ' -f5)
UNDO_ROOM=$(grep -Eo "^created r[0-9a-f]+" uma.out | cut -d' ' -f2)
[ -n "$INVITE" ] && [ -n "$WATCH" ] && [ -n "$UNDO_ROOM" ] || fail "the host's room gave no links"
expect_in uma.out "^created $UNDO_ROOM globalissimo 'Undo table' waiting 1/3 seated private code [A-Z2-9]{6} watch code [A-Z2-9]{12}; you are seat 1"
[ "$INVITE" = "http://127.0.0.1:$PORT/#/join/$UNDO_ROOM/$(grep -Eo ' private code [A-Z2-9]{6}' uma.out | head -n1 | cut -d' ' -f4)" ] ||
  fail "the invitation link is $INVITE"
printf 'watch %s\nroom\njoin %s\n' "$WATCH" "$UNDO_ROOM" >wes.txt
client Wes wes.token wes.txt wes.out && fail "a spectator by the watch code took a seat"
expect_in wes.out "^watching $UNDO_ROOM globalissimo 'Undo table' waiting [12]/3 seated private watch code [A-Z2-9]{12}$"
expect_in wes.out "^  watch link: $WATCH$"
grep -Eq ' code [A-Z2-9]{6}( |$)|invitation' wes.out && fail "the spectator by the watch code was given the join code"
expect_in wes.out '^wes.txt:3: refused: code_required: '
printf 'join %s\nready\nwait-start 30000\n# Uma moves, takes it back and moves again.\nwait-version 4 30000\nplay-until-over %s\n' \
  "$INVITE" "place { slot: 0 position: 1 } || place { slot: 1 position: 2 } || place { slot: 2 position: 3 } || place { slot: 3 position: 4 } || place { slot: 4 position: 5 } || place { slot: 5 position: 1 } || answer Atlantis || answer 48.9N 2.3E || answer 004" >vic.txt
client Vic vic.token vic.txt vic.out || fail "the invited player's session failed"
wait "$UMA_PID" || fail "the host's session failed"
expect_in vic.out "^joined $UNDO_ROOM globalissimo 'Undo table' waiting [23]/3 seated private code [A-Z2-9]{6} watch code .*; you are seat 2$"
expect_in uma.out "^accepted: place: slot [0-9], position [1-5] \(action 1\); 'undo' takes it back$"
expect_in uma.out "^\(v2, waiting for Vic; your last move: 'undo' takes it back\)$"
expect_in uma.out '^\* Uma \(you\) took back a move: Uma( \(you\))? places tile [0-9] on '
expect_in uma.out '^your move is taken back: your turn$'
expect_in uma.out '^\(v3, your turn\)$'
expect_in vic.out '^\* Uma took back a move: Uma places tile [0-9] on '
expect_in uma.out '^refused: undo_too_late: Another move was made after yours'
expect_in uma.out '^\* game over'
expect_in vic.out '^\* game over'

# The saved token brings the same player back.
HOST_ID=$(grep -Eo '^Welcome, Host \(p[0-9a-f]+\)' host.out | grep -Eo 'p[0-9a-f]+')
client Someone host.token "$SCRIPTS/resume.txt" resume.out || fail "resumed session failed"
expect_in resume.out "^Welcome, Host \\($HOST_ID\\)"
expect_in resume.out '^g[0-9a-f]+ globalissimo [0-9]+ steps: Host'

# A failing command ends a script with its line number and status 1.
client Third third.token "$SCRIPTS/no_room.txt" no_room.out && fail "no_room.txt should fail"
expect_in no_room.out 'no_room.txt:3: error: You are in no room'

# Network errors are messages, not crashes.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null
timeout 30 "$CLI" --port "$PORT" --token-file none.token --script "$SCRIPTS/resume.txt" >down.out 2>&1
[ $? -eq 1 ] || { cat down.out; fail "a client without server should exit with 1"; }
grep -q "cannot connect to 127.0.0.1:$PORT" down.out || { cat down.out; fail "no clear connect error"; }
echo "loopback test passed"
