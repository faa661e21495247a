# Sourced by the load tests after they set WORK: enters a fresh WORK folder, defines
# fail MESSAGE (prints the tails of the load generator's and the server's output there and exits
# with an error), free_ports, and brings start_server and start_postgres (tests/support).
SUPPORT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../support" && pwd)
source "$SUPPORT/start_server.sh"
source "$SUPPORT/start_postgres.sh"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

fail() {
  echo "FAIL: $*"
  for f in load.out load.err server.log; do [ -f "$f" ] && { echo "----- $f"; tail -n 40 "$f"; }; done
  exit 1
}

# free_ports N prints the first of N loopback ports in a row that nobody listens on (tried at
# random); fails when 20 tries found none. For servers that must be told their port.
free_ports() {
  local n=$1 candidate p free
  for candidate in $(shuf -i 20000-60000 -n 20); do
    free=1
    for p in $(seq "$candidate" $((candidate + n - 1))); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then free=; break; fi
    done
    [ -n "$free" ] && { echo "$candidate"; return 0; }
  done
  return 1
}
