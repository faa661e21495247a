#!/usr/bin/env bash
# Several nodes on one machine (docs/multinode.md, section 7): deploy/cluster.sh with one node and
# with three behind HAProxy, each under plateau-load through the front at ROOMS Globalissimo
# rooms, paced at 2500 accepted actions/s and closed loop. Per accepted action, the CPU of the
# nodes together, of HAProxy and of PostgreSQL (read from /proc over the run). Then the takeover:
# three nodes with leases of LEASE ms, TAKEOVER rooms playing on node-1, node-1 killed with
# SIGKILL; the time until the other nodes run every one of its games.
#
#   bench/cluster.sh [BUILD_DIR] [--duration S] [--rooms N] [--takeover N] [--lease MS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"
BUILD="$ROOT/build"
DURATION=8 ROOMS=1000 TAKEOVER=300 LEASE=3000
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=$2; shift 2 ;;
    --rooms) ROOMS=$2; shift 2 ;;
    --takeover) TAKEOVER=$2; shift 2 ;;
    --lease) LEASE=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) BUILD=$1; shift ;;
  esac
done
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d)
chmod 755 "$WORK"  # PostgreSQL's user must reach its folder inside
CLUSTER=
cluster() { PLATEAU_SERVER="$BUILD/bin/plateau-server" bash "$ROOT/deploy/cluster.sh" "$1" "$CLUSTER" "${@:2}"; }
trap '[ -n "$CLUSTER" ] && cluster stop >/dev/null 2>&1; rm -rf "$WORK"' EXIT

# CPU ticks (user + system) of processes and their children.
ticks() {
  local total=0 pid
  for pid in "$@" $(for p in "$@"; do pgrep -P "$p" || true; done); do
    [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
pids() { cat "$CLUSTER"/node-*.pid; }

# A fresh cluster of $1 nodes on free ports; sets CLUSTER and FRONT.
start_cluster() {
  CLUSTER=$(mktemp -d -p "$WORK")
  chmod 755 "$CLUSTER"
  FRONT=$(free_port)
  while listening $((FRONT + 1)) || listening $((FRONT + 2)) || listening $((FRONT + 3)); do
    FRONT=$(free_port)
  done
  cluster start --nodes "$1" --port "$FRONT" -- --log-level warn --lease-ms "$LEASE" >/dev/null
}

one() {  # one NODES paced|closed
  local nodes=$1 mode=$2 rate=() out
  start_cluster "$nodes"
  [ "$mode" = paced ] && rate=(--rate 2500)
  out="$CLUSTER/load.out"
  local pg haproxy n0 h0 p0 n1 h1 p1
  pg=$(head -n1 "$CLUSTER/pg/data/postmaster.pid")
  haproxy=$(cat "$CLUSTER/haproxy.pid")
  n0=$(ticks $(pids)); h0=$(ticks "$haproxy"); p0=$(ticks "$pg")
  "$BUILD/bin/plateau-load" --port "$FRONT" --game globalissimo --seats 2 --rooms "$ROOMS" \
    --duration-seconds "$DURATION" "${rate[@]}" >"$out" 2>&1 || true
  n1=$(ticks $(pids)); h1=$(ticks "$haproxy"); p1=$(ticks "$pg")
  cluster stop >/dev/null 2>&1
  local v count
  v() { awk -F': ' -v k="$1" '$1 == k { print $2 }' "$out"; }
  count=$(v "accepted actions")
  # The ticks cover the set-up and warm-up too: divided by the actions of the whole run, about.
  per() {
    awk -v t="$1" -v hz="$(getconf CLK_TCK)" -v n="${count:-0}" -v d="$DURATION" \
      'BEGIN { if (n == 0) print "-"; else printf "%.1f", t * 1e6 / hz / (n * (d + 2) / d) }'
  }
  echo "| $nodes | $mode | $(v 'actions/s') | $(v 'latency p99 ms') | $(per $((n1 - n0))) | $(per $((h1 - h0))) | $(per $((p1 - p0))) | $(per $((n1 - n0 + h1 - h0 + p1 - p0))) | $(v 'rooms failed') |"
}

takeover() {
  start_cluster 3
  local port=$((FRONT + 1)) out="$CLUSTER/takeover.out" dead sql
  sql() { psql -X -A -t -h "$CLUSTER/pg" -p 5432 -U plateau -d plateau -c "$1"; }
  # Slow games on node-1 alone, so that every room has a game in play when it dies.
  "$BUILD/bin/plateau-load" --port "$port" --game limit --seats 3 --rooms "$TAKEOVER" \
    --rate "$TAKEOVER" --duration-seconds 20 --warmup-seconds 1 >"$out" 2>&1 &
  local load=$!
  disown "$load"
  sleep 5
  dead=$(cat "$CLUSTER/node-1.pid")
  kill -9 "$dead"
  local killed_at playing taken= now
  killed_at=$(date +%s%N)
  kill -9 "$load" 2>/dev/null || true
  playing=$(sql "SELECT count(*) FROM games g JOIN room_owners o USING (room_id) WHERE g.status = 'playing' AND o.node = 'node-1'")
  for _ in $(seq 600); do
    now=$(sql "SELECT count(*) FROM games g JOIN room_owners o USING (room_id) WHERE g.status = 'playing' AND o.node <> 'node-1' AND o.node <> ''")
    if [ "$now" -ge "$playing" ]; then taken=$(( ($(date +%s%N) - killed_at) / 1000000 )); break; fi
    sleep 0.05
  done
  cluster stop >/dev/null 2>&1
  echo "- takeover: $playing rooms with a game in play on node-1, killed with SIGKILL (leases of $LEASE ms): the other two nodes ran all of them ${taken:-(not within 30 s)} ms later"
}

echo "- $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $ROOMS rooms, $DURATION s, through HAProxy"
echo
echo "| nodes | mode | actions/s | p99 ms | nodes CPU µs/action | HAProxy | PostgreSQL | total | rooms failed |"
echo "|---|---|---|---|---|---|---|---|---|"
for mode in paced closed; do
  for nodes in 1 3; do one "$nodes" "$mode"; done
done
echo
takeover
