#!/usr/bin/env bash
# Several Plateau nodes on this machine (docs/multinode.md, section 5): a PostgreSQL cluster in
# DIR, NODES nodes on loopback ports and HAProxy in front of them (standing in for a Kubernetes
# Service), all in the background; `stop` stops them all. Data stays in DIR between runs.
#
#   deploy/cluster.sh start DIR [--nodes N] [--port FRONT_PORT] [--bind FRONT_ADDRESS] [-- NODE_FLAG...]
#   deploy/cluster.sh stop DIR
#   deploy/cluster.sh status DIR
#   deploy/cluster.sh restart DIR N    (node N: SIGTERM, then started again: a rolling restart's step)
#
# The front listens on FRONT_ADDRESS:FRONT_PORT (default 127.0.0.1:8080) and the nodes on the
# next ports (8081, 8082, 8083). The nodes share a link secret made in DIR, so a client reaching
# any node plays any room. Needs the server built (deploy/build.sh --no-tests) and HAProxy and
# PostgreSQL 15 (deploy/install-deps.sh). Logs: DIR/node-N.log, DIR/haproxy.log, DIR/pg/server.log.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SERVER=${PLATEAU_SERVER:-$ROOT/build/bin/plateau-server}

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
fail() { echo "cluster: $*" >&2; exit 1; }
[ $# -ge 2 ] || usage
CMD=$1 DIR=$2
shift 2
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# PostgreSQL's own user reaches its folder when run as root.
source "$ROOT/tests/support/start_postgres.sh"

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Starts node I in the background with the command line saved at `start`.
run_node() {
  setsid bash -c "exec $(cat "$DIR/node-$1.cmd")" >>"$DIR/node-$1.log" 2>&1 </dev/null &
  echo $! >"$DIR/node-$1.pid"
}

# SIGTERM (the node hands its rooms over and closes its clients with 1001), bounded wait.
stop_node() {
  local f=$DIR/node-$1.pid pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
}

restart() {
  local i=${1:-}
  [[ "$i" =~ ^[1-9]$ ]] && [ -f "$DIR/node-$i.cmd" ] || fail "restart: no node $i in $DIR"
  stop_node "$i"
  run_node "$i"
  local port
  port=$(sed -E 's/.*--port ([0-9]+).*/\1/' "$DIR/node-$i.cmd")
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && { echo "node-$i restarted"; return 0; }
    sleep 0.1
  done
  fail "node-$i did not come back"
}

start() {
  local nodes=3 port=8080 bind=127.0.0.1 node_flags=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --nodes) nodes=$2; shift 2 ;;
      --port) port=$2; shift 2 ;;
      --bind) bind=$2; shift 2 ;;
      --) shift; node_flags=("$@"); break ;;
      *) usage ;;
    esac
  done
  [[ "$nodes" =~ ^[1-9]$ ]] || fail "--nodes: 1 to 9"
  [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le $((65535 - nodes)) ] ||
    fail "--port: 1 to $((65535 - nodes))"
  [ -x "$SERVER" ] || fail "no server at $SERVER: run deploy/build.sh --no-tests first"
  command -v haproxy >/dev/null || fail "HAProxy is not installed: run deploy/install-deps.sh"
  for f in "$DIR"/node-*.pid "$DIR/haproxy.pid"; do
    if alive "$f"; then fail "already running in $DIR (deploy/cluster.sh stop $DIR)"; fi
  done

  start_postgres "$DIR/pg"
  echo "$PG_CONNINFO" >"$DIR/conninfo"
  if [ ! -s "$DIR/link.secret" ]; then
    (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$DIR/link.secret")
  fi
  local servers="" i node_port
  for i in $(seq "$nodes"); do
    node_port=$((port + i))
    # A node named node-I takes its own rooms back at once when it restarts.
    printf '%q ' "$SERVER" --bind 127.0.0.1 --port "$node_port" --store "$PG_CONNINFO" \
      --node-id "node-$i" --node-address "127.0.0.1:$node_port" \
      --link-secret-file "$DIR/link.secret" --trust-proxy true \
      --static "$ROOT/clients/web/dist" "${node_flags[@]}" >"$DIR/node-$i.cmd"
    run_node "$i"
    servers+="  server node-$i 127.0.0.1:$node_port check inter 1s fall 2 rise 1"$'\n'
  done
  # Two descriptors a connection (client and node), within this shell's limit.
  local maxconn=$(( $(ulimit -n) / 2 - 64 ))
  [ "$maxconn" -le 20000 ] || maxconn=20000
  # WebSockets live long: the tunnel timeout is the idle limit, and the nodes ping well within
  # it. A node that stops answering /healthz (a stopping node closes its listener first) gets
  # no new connection.
  cat >"$DIR/haproxy.cfg" <<EOF
global
  maxconn $maxconn
  log stdout format raw local0 notice

defaults
  mode http
  log global
  option forwardfor
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout client-fin 5s

frontend plateau
  bind $bind:$port
  default_backend nodes

backend nodes
  balance leastconn
  option httpchk GET /healthz
  http-check expect status 200
$servers
EOF
  haproxy -c -q -f "$DIR/haproxy.cfg" || { stop; fail "HAProxy refused $DIR/haproxy.cfg"; }

  # The front starts once every node answers, so that its first checks find them all up.
  for i in $(seq "$nodes"); do
    local up=
    for _ in $(seq 100); do
      if curl -fsS "http://127.0.0.1:$((port + i))/healthz" >/dev/null 2>&1; then up=1; break; fi
      alive "$DIR/node-$i.pid" || break
      sleep 0.1
    done
    [ -n "$up" ] || { tail -n 20 "$DIR/node-$i.log" >&2; stop; fail "node-$i did not start"; }
  done
  setsid haproxy -f "$DIR/haproxy.cfg" >>"$DIR/haproxy.log" 2>&1 </dev/null &
  echo $! >"$DIR/haproxy.pid"
  for _ in $(seq 50); do
    curl -fsS "http://$bind:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://$bind:$port/healthz" >/dev/null 2>&1 || { stop; fail "the front did not answer"; }
  echo "Plateau: $nodes nodes behind http://$bind:$port (PostgreSQL: $PG_CONNINFO)"
}

stop() {
  local f
  if alive "$DIR/haproxy.pid"; then kill "$(cat "$DIR/haproxy.pid")"; fi
  rm -f "$DIR/haproxy.pid"
  # SIGTERM to all at once: each hands its rooms over and closes its clients with 1001.
  for f in "$DIR"/node-*.pid; do
    if alive "$f"; then kill -TERM "$(cat "$f")"; fi
  done
  for f in "$DIR"/node-*.pid; do
    [ -f "$f" ] || continue
    f=${f##*/node-}
    stop_node "${f%.pid}"
  done
  PG_DIR=$DIR/pg
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
  PG_AS=()
  [ "$(id -u)" = 0 ] && PG_AS=(runuser -u postgres --)
  stop_postgres
  echo "Plateau: stopped in $DIR"
}

status() {
  local f running=0
  for f in "$DIR"/node-*.pid "$DIR/haproxy.pid"; do
    [ -f "$f" ] || continue
    if alive "$f"; then echo "$(basename "$f" .pid): running (pid $(cat "$f"))"; running=1
    else echo "$(basename "$f" .pid): stopped"; fi
  done
  [ "$running" = 1 ]
}

case "$CMD" in
  start) start "$@" ;;
  stop) stop ;;
  status) status ;;
  restart) restart "$@" ;;
  *) usage ;;
esac
