# Sourced by the load tests after they set WORK: enters a fresh WORK folder, defines
# fail MESSAGE (prints the tails of the load generator's and the server's output there and exits
# with an error), and brings start_server and start_postgres (tests/support).
SUPPORT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../support" && pwd)
source "$SUPPORT/start_server.sh"
source "$SUPPORT/start_postgres.sh"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

fail() {
  echo "FAIL: $*"
  for f in load.out load.err server.log; do [ -f "$f" ] && { echo "----- $f"; tail -n 40 "$f"; }; done
  exit 1
}
