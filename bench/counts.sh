#!/usr/bin/env bash
# Where a server's time goes per accepted action, counted: plateau-server (and the floor) under
# plateau-load, one fresh server (new temporary database) per configuration, on this machine's
# loopback, with perf attached to the server and an allocation counter preloaded into it.
#
#   bench/counts.sh [BUILD_DIR] [--out FILE] [--quick] [--duration S] [--warmup S] [--rate R]
#                   [--durability machine|process] [--only NAME] [--threads N] [--rooms N]
#                   [--mode paced|closed]
#
# Configurations: globalissimo (2 seats), limit (3), guerre_froide (3) and the floor, each at
# 100 and 1000 rooms, paced (--rate, default 2500 accepted actions/s in all) and closed loop.
# --quick: 100 rooms, paced only. --only NAME: that game (or "floor") only. --rooms and --mode:
# those only. --threads N: the servers' I/O threads (default: theirs, 2). Each run measures S
# seconds (default 8) after W seconds of warmup (default 2). Per accepted action, over the
# measured window: the server's CPU µs and context switches (from plateau-load), its system
# calls in all and by name (perf stat on syscall tracepoints, attached to the server's pid), and
# its heap allocations and bytes (the plateau-alloc-count library, LD_PRELOADed; built in bench/,
# never linked into the server). One table goes to stdout and to FILE (default
# bench/counts.md), with the date, the commit and the load average of each run.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/common.sh
source "$ROOT/bench/common.sh"

BUILD="$ROOT/build"
OUT="$ROOT/bench/counts.md"
QUICK=0
ONLY=
DURATION=8
WARMUP=2
RATE=2500
DURABILITY=machine
THREADS=()
ROOMS=(100 1000)
MODES=(paced closed)
# perf's sampling interval (ms): the window is cut from its intervals (see window_counts).
INTERVAL_MS=200

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --durability) DURABILITY="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --threads) THREADS=(--threads "$2"); shift 2 ;;
    --rooms) ROOMS=("$2"); shift 2 ;;
    --mode) MODES=("$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "bench/counts.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) BUILD="$(cd "$1" && pwd)"; shift ;;
  esac
done
SERVER="$BUILD/bin/plateau-server"
LOAD="$BUILD/bin/plateau-load"
FLOOR="$BUILD/bin/plateau-floor-server"
SHIM="$BUILD/lib/plateau-alloc-count.so"
for f in "$SERVER" "$LOAD" "$FLOOR" "$SHIM"; do
  [ -e "$f" ] || { echo "bench/counts.sh: $f not found; build first (targets plateau-server" \
    "plateau-load plateau-floor-server plateau-alloc-count)" >&2; exit 2; }
done
command -v perf >/dev/null || { echo "bench/counts.sh: perf is not installed" >&2; exit 2; }

# The system calls counted by name; the rest are summed as "other" (from raw_syscalls).
SYSCALLS=(epoll_wait epoll_ctl recvmsg recvfrom read sendmsg sendto write writev futex pwrite64 pread64
          fdatasync fsync timerfd_settime lseek fcntl openat close mmap munmap madvise brk
          getrandom clock_nanosleep sched_yield mprotect ftruncate newfstatat)

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

WORK="$(mktemp -d)"
SERVER_PID=
PERF_PID=
SAMPLER_PID=
PORT=
cleanup() {
  stop_pid "$PERF_PID" INT
  stop_pid "$SAMPLER_PID" TERM
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT

# start KIND: the server (KIND plateau) or the floor on a free port, the allocation counter
# preloaded; returns once it answers.
start() {
  local kind=$1 ready=healthy
  [ "$kind" = floor ] && ready=listening
  for _ in 1 2 3 4 5; do
    PORT="$(free_port)"
    rm -rf "$WORK/db" && mkdir -p "$WORK/db" "$WORK/static"
    if [ "$kind" = floor ]; then
      LD_PRELOAD="$SHIM" PLATEAU_ALLOC_COUNT_FILE="$WORK/allocs" \
        "$FLOOR" --port "$PORT" "${THREADS[@]}" >"$WORK/server.log" 2>&1 &
    else
      LD_PRELOAD="$SHIM" PLATEAU_ALLOC_COUNT_FILE="$WORK/allocs" \
        "$SERVER" --bind 127.0.0.1 --port "$PORT" --db "$WORK/db/plateau.db" \
        --static "$WORK/static" --log-level warn --durability "$DURABILITY" "${THREADS[@]}" \
        >"$WORK/server.log" 2>&1 &
    fi
    SERVER_PID=$!
    for _ in $(seq 100); do
      $ready "$PORT" && return 0
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    stop_server
  done
  echo "bench/counts.sh: the $kind server did not start; its log:" >&2
  cat "$WORK/server.log" >&2
  exit 1
}

now() { date +%s.%N; }
# The allocation counter file's two numbers (allocations, bytes), or "0 0".
read_allocs() { od -An -t u8 -N 16 "$WORK/allocs" 2>/dev/null | tr -s ' ' | sed 's/^ //' || echo "0 0"; }

value() {
  local v
  v="$(awk -F': ' -v k="$1" '$1 == k { print $2 }' "$WORK/load.out")"
  echo "${v:-n/a}"
}

# Per accepted action over the load's measured window, from what perf and the sampler recorded
# from launch on (times relative to launch): the measured window is [setup + warmup, setup +
# warmup + measured seconds]; whole perf intervals inside it are summed and divided by the
# actions accepted meanwhile (the window's rate times their length).
window_counts() {
  local start=$1 end=$2 rate=$3
  awk -v s="$start" -v e="$end" -v r="$rate" -v step="$(awk -v i="$INTERVAL_MS" 'BEGIN{print i/1000}')" \
      -v perf_offset="$PERF_OFFSET" -F, '
    # perf stat -I -x, lines: time since perf started, count, unit, event, ...
    /^[ ]*[0-9]/ {
      t = $1 + perf_offset
      if (t - step >= s && t <= e) {
        ev = $4; sub(/^syscalls:sys_enter_/, "", ev); sub(/^raw_syscalls:sys_enter$/, "ALL", ev)
        c = ($2 ~ /^[0-9]+$/) ? $2 : 0
        count[ev] += c
        if (!(t in seen)) { seen[t] = 1; covered += step }
      }
    }
    END {
      if (covered <= 0 || r <= 0) { print "n/a\tn/a"; exit }
      actions = r * covered
      total = count["ALL"] / actions
      named = 0; list = ""
      n = 0
      for (k in count) if (k != "ALL") { n++; key[n] = k }
      # By count, largest first.
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (count[key[j]] > count[key[i]]) { tmp = key[i]; key[i] = key[j]; key[j] = tmp }
      for (i = 1; i <= n; i++) {
        per = count[key[i]] / actions
        named += per
        if (per >= 0.05) list = list (list == "" ? "" : ", ") sprintf("%s %.2f", key[i], per)
      }
      other = total - named
      if (other >= 0.05) list = list sprintf(", other %.2f", other)
      printf "%.1f\t%s\n", total, list
    }' "$WORK/perf.csv"
}

# The allocation samples ("time allocations bytes", times relative to launch) nearest the
# window's ends: allocations and KB per action.
window_allocs() {
  local start=$1 end=$2 accepted=$3
  awk -v s="$start" -v e="$end" -v a="$accepted" '
    { t[NR] = $1; n[NR] = $2; b[NR] = $3 }
    END {
      for (i = 1; i <= NR; i++) {
        if (first == "" && t[i] >= s) first = i
        if (t[i] <= e) last = i
      }
      if (first == "" || last == "" || last <= first || a <= 0) { print "n/a\tn/a"; exit }
      # The samples bracket a slightly different span than the window: scale to it.
      span = t[last] - t[first]
      scale = (e - s) / span
      printf "%.0f\t%.1f\n", (n[last] - n[first]) * scale / a, (b[last] - b[first]) * scale / a / 1024
    }' "$WORK/allocs.samples"
}

NOTES=()
# measure NAME ARGS...: one run against the running server; appends a table row.
measure() {
  local name=$1 status=0
  shift
  local events="raw_syscalls:sys_enter"
  for s in "${SYSCALLS[@]}"; do events+=",syscalls:sys_enter_$s"; done
  local load_avg
  load_avg="$(cut -d' ' -f1 /proc/loadavg)"
  : >"$WORK/allocs.samples"
  local launch
  launch="$(now)"
  # Every thread of the server, counted from launch on, one line per event per interval.
  perf stat -I "$INTERVAL_MS" -x, -e "$events" -p "$SERVER_PID" -o "$WORK/perf.csv" \
    2>"$WORK/perf.err" &
  PERF_PID=$!
  PERF_OFFSET="$(awk -v a="$(now)" -v b="$launch" 'BEGIN { print a - b }')"
  (
    while true; do
      echo "$(awk -v a="$(now)" -v b="$launch" 'BEGIN { printf "%.3f", a - b }') $(read_allocs)"
      sleep 0.1
    done
  ) >>"$WORK/allocs.samples" &
  SAMPLER_PID=$!
  "$LOAD" --port "$PORT" --server-pid "$SERVER_PID" --duration-seconds "$DURATION" \
    --warmup-seconds "$WARMUP" "$@" >"$WORK/load.out" 2>"$WORK/load.err" || status=$?
  stop_pid "$SAMPLER_PID" TERM; SAMPLER_PID=
  stop_pid "$PERF_PID" INT; PERF_PID=
  if [ "$status" -ne 0 ]; then
    NOTES+=("- $name $*: plateau-load exited with status $status: $(head -n 1 "$WORK/load.err")")
  fi
  local setup measured accepted rate start end
  setup="$(value 'setup seconds')"; measured="$(value 'measured seconds')"
  accepted="$(value 'accepted actions')"
  if [[ "$setup" == n/a || "$measured" == n/a || "$accepted" == n/a ]]; then
    emit "| $name | $* | $load_avg | (no report) | | | | | | | |"
    return
  fi
  start="$(awk -v a="$setup" -v w="$WARMUP" 'BEGIN { print a + w }')"
  end="$(awk -v a="$start" -v m="$measured" 'BEGIN { print a + m }')"
  rate="$(awk -v n="$accepted" -v m="$measured" 'BEGIN { print (m > 0) ? n / m : 0 }')"
  local syscalls allocs
  syscalls="$(window_counts "$start" "$end" "$rate")"
  allocs="$(window_allocs "$start" "$end" "$accepted")"
  emit "| $name | $(value 'actions/s') | $(value 'latency p99 ms') | $load_avg |" \
    "$(value 'server cpu us/action') | $(value 'server context switches/action') |" \
    "$(cut -f1 <<<"$syscalls") | $(cut -f1 <<<"$allocs") | $(cut -f2 <<<"$allocs") |" \
    "$(cut -f2 <<<"$syscalls") |"
}

emit() { printf '%s\n' "$*" | tee -a "$OUT"; }

mkdir -p "$(dirname "$OUT")"
: >"$OUT"
emit "# Per-action counts"
emit ""
emit "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
emit "- machine: $(nproc) CPUs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
emit "- commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
emit "- servers' flags: ${THREADS[*]:-(their defaults)}"
emit "- each run: a fresh server; ${WARMUP} s warmup, then ${DURATION} s measured; durability" \
  "$DURABILITY; paced runs ask for ${RATE} accepted actions/s in all; per accepted action," \
  "the server's threads together; load: the 1-minute load average as the run began"
emit ""
emit "| configuration | actions/s | p99 ms | load | CPU µs | context switches |" \
  "system calls | allocations | KB allocated | system calls by name |"
emit "|---|---|---|---|---|---|---|---|---|---|"

if [ "$QUICK" -eq 1 ]; then ROOMS=(100); MODES=(paced); fi
TARGETS=(globalissimo:2 limit:3 guerre_froide:3 floor:2)
for target in "${TARGETS[@]}"; do
  game=${target%%:*} seats=${target##*:}
  [ -z "$ONLY" ] || [ "$ONLY" = "$game" ] || continue
  for rooms in "${ROOMS[@]}"; do
    for mode in "${MODES[@]}"; do
      args=(--rooms "$rooms")
      [ "$mode" = paced ] && args+=(--rate "$RATE")
      if [ "$game" = floor ]; then
        start floor
        measure "floor, $rooms rooms, $mode" --floor "${args[@]}"
      else
        start plateau
        measure "$game ($seats seats), $rooms rooms, $mode" --game "$game" --seats "$seats" \
          "${args[@]}"
      fi
      stop_server
    done
  done
done

if [ "${#NOTES[@]}" -gt 0 ]; then
  emit ""
  emit "Runs that did not end cleanly:"
  for note in "${NOTES[@]}"; do emit "$note"; done
fi
