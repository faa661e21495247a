#!/usr/bin/env bash
# One node on PostgreSQL against the same node on SQLite: plateau-server with --store (a cluster
# this script starts in a temporary folder, on a Unix socket) and with its SQLite file (`machine`
# durability), each under plateau-load at 1000 Globalissimo rooms, paced at 2500 accepted
# actions/s and closed loop, alternated RUNS times. Per accepted action: the server's CPU, and on
# PostgreSQL also the cluster's (its main process and every child, read from /proc by the load
# generator over the same window). With several runs, the median ratio of each mode at the end.
#
#   bench/postgres.sh [BUILD_DIR] [--runs N] [--duration S] [--rooms N]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"
BUILD="$ROOT/build"
RUNS=2 DURATION=8 ROOMS=1000 SQLITE_CPU=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --rooms) ROOMS=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) BUILD=$1; shift ;;
  esac
done
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d)
chmod 755 "$WORK"  # the cluster's user must reach its folder inside
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=tests/support/start_postgres.sh
source "$ROOT/tests/support/start_postgres.sh"
trap 'stop_postgres; rm -rf "$WORK"' EXIT
start_postgres "$WORK/pg"

one() {  # one sqlite|postgres paced|closed
  local store=$1 mode=$2 port dir args=()
  port=$(free_port)
  dir=$(mktemp -d -p "$WORK")
  if [ "$store" = postgres ]; then
    pg_sql "DROP SCHEMA public CASCADE; CREATE SCHEMA public;" >/dev/null 2>&1
    args=(--store "$PG_CONNINFO")
  fi
  "$BUILD/bin/plateau-server" --bind 127.0.0.1 --port "$port" --db "$dir/p.db" --static "$dir" \
    --log-level warn --durability machine "${args[@]}" >"$dir/server.log" 2>&1 &
  local sp=$!
  for _ in $(seq 200); do healthy "$port" && break; sleep 0.1; done
  local rate=()
  [ "$mode" = paced ] && rate=(--rate 2500)
  [ "$store" = postgres ] && rate+=(--store-pid "$(head -n1 "$WORK/pg/data/postmaster.pid")")
  "$BUILD/bin/plateau-load" --port "$port" --server-pid "$sp" --game globalissimo --seats 2 \
    --rooms "$ROOMS" --duration-seconds "$DURATION" "${rate[@]}" >"$dir/load.out" 2>&1
  kill "$sp"; wait "$sp" 2>/dev/null || true
  local v
  v() { awk -F': ' -v k="$1" '$1 == k { print $2 }' "$dir/load.out"; }
  local actions cpu p99 pg_us="-"
  actions=$(v "actions/s"); cpu=$(v "server cpu us/action"); p99=$(v "latency p99 ms")
  local ratio=1
  if [ "$store" = postgres ]; then
    pg_us=$(v "store cpu us/action")
    ratio=$(awk -v a="$cpu" -v b="$pg_us" -v s="$SQLITE_CPU" 'BEGIN { printf "%.2f", (a + b) / s }')
  else
    SQLITE_CPU=$cpu  # the run beside which the next PostgreSQL one is read
  fi
  [ "$store" = postgres ] && RATIOS[$mode]+="$ratio "
  echo "| $store | $mode | $actions | $p99 | $cpu | $pg_us | $ratio |"
}
declare -A RATIOS=()

echo "- $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $ROOMS rooms, $DURATION s"
echo
echo "| store | mode | actions/s | p99 ms | server CPU µs/action | PostgreSQL CPU µs/action | both, × SQLite |"
echo "|---|---|---|---|---|---|---|"
for _ in $(seq "$RUNS"); do
  for mode in paced closed; do
    one sqlite "$mode"
    one postgres "$mode"
  done
done
# Single runs here spread by a third from one to the next: the target is read on the median.
if [ "$RUNS" -gt 1 ]; then
  echo
  for mode in paced closed; do
    # shellcheck disable=SC2086
    echo "$mode, × SQLite over $RUNS runs: median $(printf '%s\n' ${RATIOS[$mode]} | sort -n |
      awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')" \
      "(runs: ${RATIOS[$mode]% })"
  done
fi
