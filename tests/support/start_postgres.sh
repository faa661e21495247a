# Sourced by the shell tests that need PostgreSQL: start_postgres DIR makes a cluster in DIR
# (initdb), starts it listening only on a Unix socket there, and sets PG_CONNINFO for a fresh
# database `plateau`; stop_postgres stops it. Run as the `postgres` user when the test runs as
# root (PostgreSQL refuses root): DIR's parents must let that user through. The caller defines
# fail MESSAGE and stops it on exit.
start_postgres() {
  local dir=$1 bin as_user=()
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
  [ -x "$bin/initdb" ] || fail "PostgreSQL's server is not installed (/usr/lib/postgresql/*/bin)"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    as_user=(runuser -u postgres --)
  fi
  PG_BIN=$bin
  PG_DIR=$dir
  PG_AS=("${as_user[@]}")
  # A cluster already in DIR (deploy/cluster.sh started again) is started as it is.
  local fresh=
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    fresh=1
    (cd "$dir" && "${as_user[@]}" "$bin/initdb" -D "$dir/data" -A trust -U plateau -E UTF8 \
      --locale=C --no-sync >"$dir/initdb.log" 2>&1) || fail "initdb failed: $(tail -n 5 "$dir/initdb.log")"
  fi
  (cd "$dir" && "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -w -t 60 -l "$dir/server.log" \
    -o "-c listen_addresses='' -k $dir -p 5432" start >/dev/null 2>&1) ||
    fail "PostgreSQL did not start: $(tail -n 5 "$dir/server.log")"
  if [ -n "$fresh" ]; then
    (cd "$dir" && "${as_user[@]}" "$bin/createdb" -h "$dir" -p 5432 -U plateau plateau) ||
      fail "cannot create the database"
  fi
  PG_CONNINFO="host=$dir port=5432 user=plateau dbname=plateau"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] || return 0
  (cd "$PG_DIR" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop \
    >/dev/null 2>&1) || true
}

# psql on the test's database: pg_sql 'SELECT …' prints the bare result.
pg_sql() {
  psql -X -A -t -h "$PG_DIR" -p 5432 -U plateau -d plateau -c "$1"
}
