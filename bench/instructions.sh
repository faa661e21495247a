#!/usr/bin/env bash
# The game side of an action counted in instructions, not timed: plateau-session-bench under
# callgrind, counting only inside GameSession::Submit, for one or more builds. On a shared machine
# the timings of two builds spread by 10% or more from run to run; instruction counts do not, so
# a change of a few percent can be told apart (they do not count cache misses or system time:
# confirm with bench/run.sh). Needs valgrind (apt-get install valgrind).
#
#   bash bench/instructions.sh [--filter REGEX] [--opening N] BUILD_DIR [BUILD_DIR...]
#
# prints, per build and per benchmark the filter selects (default: every game), the instructions
# per Submit (the same recorded games in every build, when their rules play them alike).
set -euo pipefail

filter=.
opening=0
builds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) filter="$2"; shift 2 ;;
    --opening) opening="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) builds+=("$1"); shift ;;
  esac
done
[ ${#builds[@]} -gt 0 ] || { echo "usage: bench/instructions.sh [--filter REGEX] [--opening N] BUILD_DIR..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench/instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

# Builds from before --opening take whole games only.
opening_flag=()
[ "$opening" = 0 ] || opening_flag=(--opening="$opening")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for build in "${builds[@]}"; do
  bench="$build/bin/plateau-session-bench"
  [ -x "$bench" ] || { echo "bench/instructions.sh: no $bench" >&2; exit 2; }
  # The benchmarks the filter selects, one callgrind run each (a run records every game first).
  names="$("$bench" --benchmark_list_tests=true --benchmark_filter="$filter" 2>/dev/null)"
  for name in $names; do
    out="$work/cg.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
      --toggle-collect='plateau::server::GameSession::Submit*' \
      "$bench" ${opening_flag[@]+"${opening_flag[@]}"} --benchmark_filter="^${name}\$" --benchmark_min_time=0.001 \
      >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    total="$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')"
    # Submit's calls: the counts on its callers' lines, just above it in the call tree.
    calls="$(callgrind_annotate --tree=caller "$out" 2>/dev/null | awk '
      /^ *$/ { n = 0; next }
      done { next }
      /  < / { if (match($0, /\(([0-9,]+)x\) \[/)) { c = substr($0, RSTART + 1, RLENGTH - 5); gsub(",", "", c); n += c } next }
      /  \* .*GameSession::Submit\(/ && !done { print n; done = 1 }')"
    [ -n "$calls" ] && [ "$calls" -gt 0 ] || { echo "bench/instructions.sh: no Submit counted for $name" >&2; exit 1; }
    printf '%s %s: %s instructions per action (%s actions)\n' "$build" "$name" \
      "$((total / calls))" "$calls"
  done
done
