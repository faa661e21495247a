#!/usr/bin/env bash
# The standard benchmark: plateau-server under plateau-load, one fresh server (new temporary
# database) per configuration, on this machine's loopback.
#
#   bench/run.sh [BUILD_DIR] [--out FILE] [--quick | --paced] [--duration S] [--warmup S]
#
# First the floor: plateau-floor-server (a bare Beast WebSocket server with a trivial two-seat
# turn game, no storage) under `plateau-load --floor`, what this machine's network path costs
# with no game in it, at 100 and 1000 rooms, closed loop and paced (--rate 2500). Then the games
# globalissimo (2 seats), limit and guerre_froide (3 seats) in the same rooms and modes, x
# durability machine and process, each row with its CPU per action and actions/s divided by the
# floor's at the same rooms and mode (× floor), and LIMIT's and Guerre Froide's CPU per action by
# Globalissimo's (× globalissimo); then the idle-connection probe (10,000 connections). --quick
# runs the floor and globalissimo at 100 rooms, closed loop, machine only (no probe); --paced the
# floor and the three games at 1000 rooms, paced and closed, machine only (no probe). Each run
# measures S seconds (default 20) after W seconds of warmup (default 2). The results table goes
# to stdout and to FILE (default bench/results.md), with the date, the CPU count and the load
# average at the start in its header.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

BUILD="$ROOT/build"
OUT="$ROOT/bench/results.md"
QUICK=0
DURATION=20
WARMUP=2
RATE=2500
IDLE_CONNECTIONS=10000

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --paced) QUICK=2; shift ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "bench/run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) BUILD="$(cd "$1" && pwd)"; shift ;;
  esac
done
SERVER="$BUILD/bin/plateau-server"
LOAD="$BUILD/bin/plateau-load"
FLOOR="$BUILD/bin/plateau-floor-server"
for bin in "$SERVER" "$LOAD" "$FLOOR"; do
  [ -x "$bin" ] || { echo "bench/run.sh: $bin not found; build first" >&2; exit 2; }
done

# The server and plateau-load inherit the slot's limit on open files.
server_slot
start_server() { start_plateau "$SERVER" "$1" || exit 1; }
start_floor_or_exit() { start_floor "$FLOOR" || exit 1; }

emit() { printf '%s\n' "$*" | tee -a "$OUT"; }
# The value of "LABEL: value" in plateau-load's output, or n/a.
value() {
  local v
  v="$(awk -F': ' -v k="$1" '$1 == k { print $2 }' "$WORK/load.out")"
  echo "${v:-n/a}"
}

NOTES=()
run_load() {  # run_load DESCRIPTION ARGS...: plateau-load against the running server
  local what=$1 status=0
  shift
  "$LOAD" --port "$PORT" --server-pid "$SERVER_PID" "$@" >"$WORK/load.out" 2>"$WORK/load.err" ||
    status=$?
  if [ "$status" -ne 0 ]; then
    NOTES+=("- $what: plateau-load exited with status $status: $(head -n 1 "$WORK/load.err")")
  fi
}

mkdir -p "$(dirname "$OUT")"
: >"$OUT"
emit "# Plateau benchmarks"
emit ""
emit "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
emit "- machine: $(nproc) CPUs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
emit "- commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
emit "- each run: a fresh server and database; ${WARMUP} s warmup, then ${DURATION} s measured;" \
  "paced runs ask for ${RATE} accepted actions/s in all"
emit ""
emit "| game | rooms | mode | durability | actions/s | actions/s × floor | p50 ms | p99 ms | CPU µs/action | × floor | × globalissimo | context switches/action | peak RSS MB |"
emit "|---|---|---|---|---|---|---|---|---|---|---|---|---|"

if [ "$QUICK" -eq 1 ]; then
  DURABILITIES=(machine); GAMES=(globalissimo); ROOMS=(100); MODES=(closed)
elif [ "$QUICK" -eq 2 ]; then
  DURABILITIES=(machine); GAMES=(globalissimo limit guerre_froide); ROOMS=(1000)
  MODES=(paced closed)
else
  DURABILITIES=(machine process); GAMES=(globalissimo limit guerre_froide); ROOMS=(100 1000)
  MODES=(closed paced)
fi
mode_args() {  # mode_args MODE: plateau-load's pacing flags
  [ "$1" = paced ] && echo "--rate $RATE"
  return 0
}
# The row's figures from plateau-load's report. × floor divides its CPU per action by the floor's
# at the same rooms and mode (measured first, below), actions/s × floor its actions per second by
# the floor's; × globalissimo divides a game's CPU per action by Globalissimo's in the same rooms,
# mode and durability (measured before the other games).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "n/a" && b != "" && b != "n/a" && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
declare -A GAME_CPU
row() {  # row LABEL ROOMS MODE DURABILITY FLOOR_CPU FLOOR_RATE [GLOBALISSIMO_CPU]
  local cpu rate
  cpu="$(value 'server cpu us/action')"
  rate="$(value 'actions/s')"
  emit "| $1 | $2 | $3 | $4 | $rate | $(ratio "$rate" "$6") | $(value 'latency p50 ms') |" \
    "$(value 'latency p99 ms') | $cpu | $(ratio "$cpu" "$5") | $(ratio "$cpu" "${7:-}") |" \
    "$(value 'server context switches/action') | $(value 'server peak rss MB') |"
}

# The floor first, in every rooms and mode the games run, so each game row reads against it.
declare -A FLOOR_CPU FLOOR_RATE
for rooms in "${ROOMS[@]}"; do
  for mode in "${MODES[@]}"; do
    start_floor_or_exit
    # shellcheck disable=SC2046
    run_load "floor $rooms rooms $mode" --floor --rooms "$rooms" --duration-seconds "$DURATION" \
      --warmup-seconds "$WARMUP" $(mode_args "$mode")
    stop_server
    FLOOR_CPU["$rooms $mode"]="$(value 'server cpu us/action')"
    FLOOR_RATE["$rooms $mode"]="$(value 'actions/s')"
    row "floor: bare Beast, no game, no storage (2 seats)" "$rooms" "$mode" none \
      "${FLOOR_CPU["$rooms $mode"]}" "${FLOOR_RATE["$rooms $mode"]}"
  done
done

for durability in "${DURABILITIES[@]}"; do
  for game in "${GAMES[@]}"; do
    seats=3
    [ "$game" = globalissimo ] && seats=2
    for rooms in "${ROOMS[@]}"; do
      for mode in "${MODES[@]}"; do
        start_server "$durability"
        # shellcheck disable=SC2046
        run_load "$game $rooms rooms $mode $durability" --game "$game" --seats "$seats" \
          --rooms "$rooms" --duration-seconds "$DURATION" --warmup-seconds "$WARMUP" \
          $(mode_args "$mode")
        stop_server
        key="$rooms $mode $durability"
        [ "$game" = globalissimo ] && GAME_CPU["$key"]="$(value 'server cpu us/action')"
        glob=
        [ "$game" != globalissimo ] && glob="${GAME_CPU["$key"]:-}"
        row "$game ($seats seats)" "$rooms" "$mode" "$durability" "${FLOOR_CPU["$rooms $mode"]}" \
          "${FLOOR_RATE["$rooms $mode"]}" "$glob"
      done
    done
  done
done

if [ "$QUICK" -eq 0 ]; then
  start_server machine
  run_load "idle probe" --idle-connections "$IDLE_CONNECTIONS"
  stop_server
  emit ""
  emit "Idle connections: $IDLE_CONNECTIONS said Hello and stayed silent ($(value welcomed)" \
    "welcomed): $(value 'memory per connection KB') KB of server memory each (RSS" \
    "$(value 'server rss before MB') MB before, $(value 'server rss after MB') MB after)."
fi

if [ "${#NOTES[@]}" -gt 0 ]; then
  emit ""
  emit "Runs that did not end cleanly:"
  for note in "${NOTES[@]}"; do emit "$note"; done
fi
