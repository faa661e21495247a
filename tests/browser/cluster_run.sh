#!/usr/bin/env bash
# Runs a browser test against deploy/cluster.sh's three nodes behind HAProxy (leases of 3 s)
# instead of one server: PLATEAU_URL is the front, PLATEAU_CLUSTER the cluster's folder (its
# node-N.pid files) and PLATEAU_NODE_PORTS the nodes' ports, in order. Everything is stopped on
# exit.
#   tests/browser/cluster_run.sh [path/to/plateau-server] <test file>
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SERVER="${1:-$ROOT/build/bin/plateau-server}"
TEST="$ROOT/tests/browser/$2"
[ -x "$SERVER" ] || { echo "plateau-server not found at $SERVER" >&2; exit 2; }
bash "$ROOT/deploy/build-web.sh"
WORK="$(mktemp -d)"
chmod 755 "$WORK"  # PostgreSQL's own user reaches its folder inside
source "$ROOT/tests/load/common.sh"
cluster() { PLATEAU_SERVER="$SERVER" bash "$ROOT/deploy/cluster.sh" "$1" "$WORK/cluster" "${@:2}"; }
trap 'cluster stop >/dev/null 2>&1; cd /; rm -rf "$WORK"' EXIT
base=$(free_ports 4) || fail "no four free ports in a row"
cluster start --port "$base" -- --lease-ms 3000 --bot-delay-ms 150 --bot-think-ms 100 ||
  fail "cluster.sh start failed"
PLATEAU_URL="http://127.0.0.1:$base" PLATEAU_CLUSTER="$WORK/cluster" \
  PLATEAU_NODE_PORTS="$((base + 1)) $((base + 2)) $((base + 3))" node --test "$TEST" ||
  { for f in "$WORK"/cluster/node-*.log; do echo "--- $f"; tail -n 20 "$f"; done; fail "$(basename "$TEST") failed"; }
