#!/usr/bin/env bash
# plateau-bot-bench runs: a short seeded match of one game gives a row per opponent with the
# normal bot's share and think times, and bad flags are refused with the usage line.
# Usage: bot_bench_test.sh BOT_BENCH
set -u
BENCH=$1
fail() { echo "FAIL: $*"; exit 1; }

out=$(timeout 120 "$BENCH" --games 2 --playouts 5 --game guerre_froide 2>&1) || fail "the run failed: $out"
echo "$out"
# | game | opponent | games | normal wins | think ms (normal) | playouts | think ms (easy) | actions |
echo "$out" | grep -Eq '^\| Guerre Froide \| easy \| 2 \| [0-9.]+% \| [0-9.]+ \|' || fail "no row against the easy bot"
echo "$out" | grep -Eq '^\| Guerre Froide \| random \| 2 \| [0-9.]+% \| [0-9.]+ \|' || fail "no row against the random player"
[ "$(echo "$out" | grep -Ec '^\| [A-Z]')" -eq 2 ] || fail "rows for other games than the one asked"

"$BENCH" --help | grep -q '^usage: plateau-bot-bench' || fail "--help prints no usage"
for bad in "--games" "--games x" "--games -3" "--speed 2" "--speed x"; do
  # shellcheck disable=SC2086
  err=$("$BENCH" $bad 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "'$bad' exited with $rc, not 2"
  echo "$err" | grep -q 'usage: plateau-bot-bench' || fail "'$bad' gave no usage: $err"
done
echo "bot bench: ok"
