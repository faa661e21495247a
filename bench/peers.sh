#!/usr/bin/env bash
# Plateau against its floor and against other servers, measured by one independent Node client
# (bench/peers/client.js): server CPU per accepted action, actions/s and latency, each server
# started fresh for each run on a free loopback port.
#
#   bench/peers.sh [--build DIR] [--duration S] [--warmup S] [--runs N]
#                  [--only floor,plateau,colyseus,nodews] [--rate R] [--procs K]
#                  [--durability D] [--configs ROOMS:MODE,...] [--colyseus-patch-ms N]
#                  [--out FILE]
#
# Servers: floor (plateau-floor-server, bench/floor_server.cc: bare Beast, a trivial two-seat turn
# game in Plateau's frames), plateau (plateau-server playing Globalissimo with 2 seats, a fresh
# temporary SQLite database, durability D, default machine), colyseus (a trivial two-seat turn
# game room on Colyseus's server SDK, played through its client SDK, bench/peers/servers/
# colyseus_server.js: its state patch goes out at each move, or every N ms with
# --colyseus-patch-ms N, as a default Colyseus room's does at 50) and nodews (the floor's game on
# Node's ws package and protobufjs, bench/peers/servers/ws_server.js). Configurations: 100 rooms
# closed loop, 1000 rooms closed loop, 1000 rooms paced at R accepted actions/s in all (default
# 2500); --configs replaces them (e.g. 20:closed,20:paced). Each run measures S seconds (default
# 15) after W seconds of warmup (default 3); N runs (default 3) of every server and configuration,
# interleaved, and the table gives their medians (CPU per action also run by run) and the CPU per
# action divided by the floor's in the same configuration. The client is one Node process unless
# --procs K says more. The table goes to stdout and to FILE (default bench/peers/results.md, the
# runs' raw reports beside it as results.jsonl); `npm ci` runs first in bench/peers when its
# node_modules is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"
PEERS="$ROOT/bench/peers"

BUILD="$ROOT/build"
DURATION=15
WARMUP=3
RUNS=3
ONLY="floor,plateau,colyseus,nodews"
RATE=2500
PROCS=1
DURABILITY=machine
OUT="$PEERS/results.md"
PATCH_MS=0
CONFIGS=("100 closed" "1000 closed" "1000 paced")

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$(cd "$2" && pwd)"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --procs) PROCS="$2"; shift 2 ;;
    --durability) DURABILITY="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --colyseus-patch-ms) PATCH_MS="$2"; shift 2 ;;
    --configs) IFS=, read -r -a CONFIGS <<<"$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench/peers.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
IFS=, read -r -a SERVERS <<<"$ONLY"
for i in "${!CONFIGS[@]}"; do
  CONFIGS[i]="${CONFIGS[i]/:/ }"
  if ! [[ "${CONFIGS[i]}" =~ ^[1-9][0-9]*\ (closed|paced)$ ]]; then
    echo "bench/peers.sh: bad configuration '${CONFIGS[i]}' (ROOMS:closed or ROOMS:paced)" >&2
    exit 2
  fi
done
for s in "${SERVERS[@]}"; do
  case "$s" in
    floor|plateau|colyseus|nodews) ;;
    *) echo "bench/peers.sh: --only takes floor, plateau, colyseus, nodews (not $s)" >&2; exit 2 ;;
  esac
done

# A binary of the build, wherever this build tree puts it.
find_bin() {
  local name=$1 dir
  for dir in bin server bench; do
    if [ -x "$BUILD/$dir/$name" ]; then echo "$BUILD/$dir/$name"; return; fi
  done
  echo "bench/peers.sh: $name not found under $BUILD (bin/, server/, bench/); build first" >&2
  exit 2
}
for s in "${SERVERS[@]}"; do
  # (An if, not &&: a failed find_bin must stop the script, which an && list would not.)
  if [ "$s" = floor ]; then FLOOR="$(find_bin plateau-floor-server)"; fi
  if [ "$s" = plateau ]; then
    SERVER="$(find_bin plateau-server)"
    FIXTURES="$(find_bin plateau-diff-fixtures)"
  fi
done
command -v node >/dev/null || { echo "bench/peers.sh: node not found" >&2; exit 2; }
if [ ! -d "$PEERS/node_modules" ]; then
  (cd "$PEERS" && npm ci --no-audit --no-fund)
fi

# The client's Diff applier is its own: before it plays Plateau, it is held to the engine's Diffs
# (every game's, from plateau-diff-fixtures), and the sitting stops if one is applied wrongly.
if [ -n "${FIXTURES:-}" ]; then
  fixtures="$(mktemp)"
  if ! "$FIXTURES" "$fixtures" 2 >/dev/null || ! node "$PEERS/test/diff_fixtures.js" "$fixtures" >&2; then
    rm -f "$fixtures"
    echo "bench/peers.sh: the client's Diff applier disagrees with the engine; nothing measured" >&2
    exit 1
  fi
  rm -f "$fixtures"
fi

server_slot

launch_colyseus() {
  node "$PEERS/servers/colyseus_server.js" --port "$1" --patch-ms "$PATCH_MS" >"$WORK/server.log" 2>&1 &
}
launch_nodews() { node "$PEERS/servers/ws_server.js" --port "$1" >"$WORK/server.log" 2>&1 & }
# start SERVER: starts it on a free port; returns once it answers (0), or 1 with its log shown.
start() {
  case "$1" in
    plateau) start_plateau "$SERVER" "$DURABILITY" ;;
    floor) start_floor "$FLOOR" ;;
    *) start_on_free_port listening "launch_$1" "$1" ;;
  esac
}

version_of() { node -p "require('$PEERS/node_modules/$1/package.json').version" 2>/dev/null || echo '?'; }
label() {
  case "$1" in
    floor) echo "floor: bare Beast, no game, no storage" ;;
    plateau) echo "plateau: globalissimo, 2 seats, $DURABILITY" ;;
    colyseus)
      if [ "$PATCH_MS" = 0 ]; then
        echo "colyseus $(version_of @colyseus/core): turn game, a state patch per move"
      else
        echo "colyseus $(version_of @colyseus/core): turn game, state patches every $PATCH_MS ms"
      fi ;;
    nodews) echo "node ws $(version_of ws) + protobufjs: turn game" ;;
  esac
}

RESULTS="$WORK/runs.jsonl"
: >"$RESULTS"
START_DATE="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
START_LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | head -c1)"

total=$((RUNS * ${#CONFIGS[@]} * ${#SERVERS[@]}))
done_runs=0
for run in $(seq "$RUNS"); do
  for config in "${CONFIGS[@]}"; do
    read -r rooms mode <<<"$config"
    for s in "${SERVERS[@]}"; do
      done_runs=$((done_runs + 1))
      echo "bench/peers.sh: [$done_runs/$total] $s, $rooms rooms $mode, run $run" >&2
      lbl="$(label "$s")"
      if ! start "$s"; then
        node "$PEERS/record.js" "$s" "$lbl" "$rooms" "$mode" "$run" --not-started >>"$RESULTS"
        continue
      fi
      rate_args=()
      [ "$mode" = paced ] && rate_args=(--rate "$RATE")
      status=0
      node "$PEERS/client.js" --target "$s" --port "$PORT" --server-pid "$SERVER_PID" \
        --rooms "$rooms" "${rate_args[@]}" --duration "$DURATION" --warmup "$WARMUP" \
        --procs "$PROCS" --json >"$WORK/client.out" 2>"$WORK/client.err" || status=$?
      alive=1
      kill -0 "$SERVER_PID" 2>/dev/null || alive=0
      stop_server
      node "$PEERS/record.js" "$s" "$lbl" "$rooms" "$mode" "$run" "$status" "$alive" \
        "$WORK/client.out" "$WORK/client.err" >>"$RESULTS"
      if [ "$status" -ne 0 ]; then
        echo "bench/peers.sh: $s, $rooms rooms $mode, run $run: client.js exited with status $status" >&2
        sed -n '1,5p' "$WORK/client.err" >&2
      fi
    done
  done
done

mkdir -p "$(dirname "$OUT")"
{
  echo "# Plateau and its peers, measured by one Node client"
  echo ""
  echo "- date: $START_DATE"
  echo "- commit: $COMMIT${DIRTY:+ (with uncommitted changes)}"
  echo "- machine: $(nproc) CPUs; load average at start: $START_LOAD"
  echo "- client: bench/peers/client.js, Node $(node --version), $PROCS process(es), on the same machine"
  echo "- each run: a fresh server; ${WARMUP} s warmup, then ${DURATION} s measured; $RUNS runs of each" \
    "row, interleaved; paced rows ask for ${RATE} accepted actions/s in all"
  echo "- CPU µs/action: the server process's user+system time over the window (/proc/PID/stat)" \
    "divided by the actions accepted in it; the median of the runs, then each run; × floor: that" \
    "median divided by the floor's in the same rooms and mode; p50/p99: send to result, medians of the runs"
  echo ""
  node "$PEERS/report.js" "$RESULTS"
} | tee "$OUT"
cp "$RESULTS" "${OUT%.md}.jsonl"
