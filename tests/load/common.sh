# Sourced by the load tests after they set WORK: enters a fresh WORK folder and defines
# fail MESSAGE, which prints the tails of the load generator's and the server's output there and
# exits with an error.
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

fail() {
  echo "FAIL: $*"
  for f in load.out load.err server.log; do [ -f "$f" ] && { echo "----- $f"; tail -n 40 "$f"; }; done
  exit 1
}
