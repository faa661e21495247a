# Shared by the bench scripts (sourced, not run): finding a free loopback port, asking a server
# whether it is up, starting one on a free port, and stopping a process without leaving it behind.

# A port nothing listens on, below the ephemeral range (where plateau-load's own connections
# take theirs).
free_port() {
  local low
  low="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
  [ "$low" -gt 12000 ] || low=32768
  while true; do
    local port=$((10000 + RANDOM % (low - 11000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

# healthy PORT: plateau-server on PORT answers /healthz with ok.
healthy() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 &&
    printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 &&
    grep -q '\"status\":\"ok\"' <&3" 2>/dev/null
}

# listening PORT: something accepts connections on PORT.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# stop_pid PID SIGNAL: sends SIGNAL, waits up to 10 s for the process to end, then kills it.
stop_pid() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill "-$2" "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# server_slot: sets up the one server a script runs at a time: $WORK (a temporary folder),
# $SERVER_PID and $PORT, stopped and removed when the script exits; sockets by the thousand.
server_slot() {
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  WORK="$(mktemp -d)"
  SERVER_PID=
  PORT=
  trap 'stop_server; rm -rf "$WORK"' EXIT
}
stop_server() { stop_pid "$SERVER_PID" TERM; SERVER_PID=; }

# start_on_free_port CHECK LAUNCHER NAME: `LAUNCHER PORT` starts a server in the background (its
# output in $WORK/server.log) on a free port; once `CHECK PORT` (healthy, listening) answers, it is
# $SERVER_PID on $PORT (0). A server that exits (the port taken meanwhile?) or stays silent for
# 15 s is stopped and another port tried; after five, its log is shown (1).
start_on_free_port() {
  local check=$1 launcher=$2 name=$3 deadline
  for _ in 1 2 3 4 5; do
    PORT="$(free_port)"
    "$launcher" "$PORT"
    SERVER_PID=$!
    deadline=$((SECONDS + 15))
    while [ "$SECONDS" -lt "$deadline" ]; do
      "$check" "$PORT" && return 0
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    stop_server
  done
  echo "$name did not start; its log:" >&2
  cat "$WORK/server.log" >&2
  return 1
}

# start_floor BINARY: plateau-floor-server on a free port.
start_floor() {
  local bin=$1
  start_on_free_port listening launch_floor plateau-floor-server
}
launch_floor() { "$bin" --port "$1" >"$WORK/server.log" 2>&1 & }  # PORT; bin is start_floor's

# start_plateau BINARY DURABILITY: plateau-server on a fresh database in $WORK, loopback only.
start_plateau() {
  local bin=$1 durability=$2
  start_on_free_port healthy launch_plateau plateau-server
}
launch_plateau() {  # PORT; bin and durability are start_plateau's
  rm -rf "$WORK/db" && mkdir -p "$WORK/db" "$WORK/static"
  "$bin" --bind 127.0.0.1 --port "$1" --db "$WORK/db/plateau.db" --static "$WORK/static" \
    --log-level warn --durability "$durability" >"$WORK/server.log" 2>&1 &
}
