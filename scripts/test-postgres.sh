#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL server on loopback for the tests:
#   scripts/test-postgres.sh start   → prints the URL to export as PARLEY_TEST_POSTGRES_URL
#   scripts/test-postgres.sh stop
# PARLEY_TEST_POSTGRES_OPTIONS adds server options to a start (e.g. the benchmarks'
# "-c shared_preload_libraries=pg_stat_statements"); unset, the server is started as always.
# initdb refuses to run as root, so the cluster belongs to the `postgres` user.
set -euo pipefail
PORT="${PARLEY_TEST_POSTGRES_PORT:-55432}"
DIR="${PARLEY_TEST_POSTGRES_DIR:-/tmp/parley-test-postgres-$PORT}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$BIN" ] || { echo "PostgreSQL is not installed: apt-get install postgresql" >&2; exit 1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
  start)
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
      mkdir -p "$DIR"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
      as_postgres "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 >"$DIR/initdb.log" 2>&1 \
        || { cat "$DIR/initdb.log" >&2; exit 1; }
    fi
    if ! as_postgres "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
      as_postgres "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on ${PARLEY_TEST_POSTGRES_OPTIONS:-}" start >/dev/null \
        || { cat "$DIR/server.log" >&2; exit 1; }
    fi
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    if [ -f "$DIR/data/PG_VERSION" ]; then
      as_postgres "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
