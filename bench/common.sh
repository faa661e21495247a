# Shared by bench/run.sh and bench/counts.sh (sourced, not run): finding a free loopback port,
# asking a server whether it is up, and stopping a process without leaving it behind.

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
