# Sourced by .ci/run: starts a throwaway PostgreSQL server for bloom-guard's integration test and exports
# BLOOM_PG_URL, BLOOM_PG_USER and BLOOM_PG_PASSWORD. Installs Debian's postgresql package if no server is
# installed (needs root, as CI has). The cluster lives in a temporary directory on its own port and unix
# socket directory, so it never touches a system cluster; stop_postgres (run on exit) removes it.
# Can also be run by itself to try it: bash .ci/postgres.sh (starts, checks, stops).

pg_bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# Runs a command as the postgres user when we are root (the server refuses to run as root).
as_pg_user() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  if [ -z "$(pg_bin_dir)" ] || [ ! -x "$(pg_bin_dir)/initdb" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "CI: PostgreSQL is not installed and installing it needs root" >&2
      return 1
    fi
    echo "CI: installing PostgreSQL (Debian package postgresql)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local bin
  bin="$(pg_bin_dir)"
  PG_TEST_DIR="$(mktemp -d /tmp/bloom-pg.XXXXXX)"
  PG_TEST_PORT="${BLOOM_PG_PORT:-54329}"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$PG_TEST_DIR"
  fi
  as_pg_user "$bin/initdb" -D "$PG_TEST_DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$PG_TEST_DIR/initdb.log" 2>&1 \
    || { cat "$PG_TEST_DIR/initdb.log" >&2; return 1; }
  as_pg_user "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -t 60 start \
    -o "-p $PG_TEST_PORT -k $PG_TEST_DIR -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null \
    || { cat "$PG_TEST_DIR/server.log" >&2; return 1; }
  PG_TEST_BIN="$bin"
  as_pg_user psql -q -v ON_ERROR_STOP=1 -h "$PG_TEST_DIR" -p "$PG_TEST_PORT" -U postgres -d postgres \
    -c "CREATE ROLE bloom LOGIN PASSWORD 'bloom'" -c "CREATE DATABASE bloom OWNER bloom" >/dev/null
  export BLOOM_PG_URL="jdbc:postgresql://127.0.0.1:$PG_TEST_PORT/bloom"
  export BLOOM_PG_USER=bloom
  export BLOOM_PG_PASSWORD=bloom
  echo "CI: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_TEST_PORT, data in $PG_TEST_DIR"
}

stop_postgres() {
  if [ -n "${PG_TEST_DIR:-}" ] && [ -d "$PG_TEST_DIR/data" ]; then
    as_pg_user "${PG_TEST_BIN:-$(pg_bin_dir)}/pg_ctl" -D "$PG_TEST_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_TEST_DIR"
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  trap stop_postgres EXIT
  start_postgres
  PGPASSWORD=bloom psql -h 127.0.0.1 -p "$PG_TEST_PORT" -U bloom -d bloom -Atc "SELECT 'connected as ' || current_user"
fi
