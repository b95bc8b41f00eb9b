#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests of `snapdiff serve --database postgres://…`.
#
#   scripts/postgres.sh start         installs Debian's postgresql when missing, runs initdb in a new
#                                     temporary folder (socket there too) on a free loopback port, starts
#                                     it with pg_ctl (pg_stat_statements loaded: a test counts the
#                                     statements a frame costs), creates the database `snapdiff_test`, and prints
#                                       SNAPDIFF_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/snapdiff_test
#                                       SNAPDIFF_TEST_POSTGRES_DIR=/tmp/snapdiff-pg.XXXX
#   scripts/postgres.sh stop DIR      stops the cluster in DIR and removes the folder
#   scripts/postgres.sh pause DIR     stops the server only (the readiness test: a database gone away)
#   scripts/postgres.sh resume DIR    starts it again
#
# initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user (the
# package's), and every server command runs through `runuser -u postgres --`. Authentication is
# `trust` on loopback only: a cluster for tests, never for data.
set -euo pipefail

bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  return 1
}

ensure_installed() {
  if bin_dir >/dev/null 2>&1; then return 0; fi
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "Installing postgresql (for the PostgreSQL tests)..." >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  bin_dir >/dev/null 2>&1 || { echo "postgresql is not installed (apt-get install postgresql)" >&2; exit 1; }
}

# Runs a server command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() {
  local dir=$1 bin
  bin=$(bin_dir)
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
}

case "${1:-}" in
  start)
    ensure_installed
    bin=$(bin_dir)
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
      useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    dir=$(mktemp -d "${TMPDIR:-/tmp}/snapdiff-pg.XXXXXX")
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    port=$(free_port)
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_preload_libraries = 'pg_stat_statements'
EOF
    start_server "$dir"
    as_owner "$bin/createdb" -h "$dir" -p "$port" -U postgres snapdiff_test
    echo "SNAPDIFF_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/snapdiff_test"
    echo "SNAPDIFF_TEST_POSTGRES_DIR=$dir"
    ;;
  stop)
    dir=${2:?usage: scripts/postgres.sh stop DIR}
    [ -d "$dir/data" ] && as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  pause)
    dir=${2:?usage: scripts/postgres.sh pause DIR}
    as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  resume)
    dir=${2:?usage: scripts/postgres.sh resume DIR}
    start_server "$dir"
    ;;
  *)
    echo "usage: scripts/postgres.sh start | stop DIR | pause DIR | resume DIR" >&2
    exit 64
    ;;
esac
