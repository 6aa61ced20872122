#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the store tests, in a temporary folder, on
# 127.0.0.1 and a free port, run by a non-root user.
#
#   eval "$(.ci/postgres.sh start)"   # prints the exports the tests read
#   cargo test --test store
#   .ci/postgres.sh stop              # stops it and deletes the folder
#   .ci/postgres.sh halt DIR / resume DIR   # crash it (immediate mode), start it again
#
# `start` installs the server packages with apt-get when they are missing and
# it runs as root (as on CI); elsewhere it says what to install.
set -euo pipefail

say() { echo "postgres.sh: $*" >&2; }

find_bin() {
  local d
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

free_port() {
  local p
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    return
  fi
  for p in $(seq 55432 55532); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  say "no free port in 55432..55532"; exit 1
}

# Runs a command as the cluster's owner: the server refuses to run as root.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$OWNER" -- "$@"
  else
    "$@"
  fi
}

start() {
  local bin dir port
  if ! bin=$(find_bin); then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      say "installing postgresql-15"
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >&2
      bin=$(find_bin)
    else
      say "PostgreSQL server binaries not found; install postgresql-15 (apt-get install postgresql-15)"
      exit 1
    fi
  fi
  if [ "$(id -u)" -eq 0 ]; then
    OWNER=contract-pg
    if ! id "$OWNER" >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin "$OWNER" >&2
    fi
  else
    OWNER=$(id -un)
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/contract-pg.XXXXXX")
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown "$OWNER" "$dir"; fi
  port=$(free_port)
  as_owner "$bin/initdb" -D "$dir/data" -U contract -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "$bin" >"$dir/bin"
  echo "$OWNER" >"$dir/owner"
  echo "$port" >"$dir/port"
  echo "export CONTRACT_PG_DIR=$dir"
  echo "export CONTRACT_TEST_POSTGRES_URL=postgres://contract@127.0.0.1:$port/postgres"
  say "PostgreSQL on 127.0.0.1:$port, data in $dir"
}

stop() {
  local dir=${1:-${CONTRACT_PG_DIR:-}}
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    say "nothing to stop (CONTRACT_PG_DIR is not set or gone)"
    return 0
  fi
  OWNER=$(cat "$dir/owner" 2>/dev/null || id -un)
  if [ -f "$dir/bin" ] && [ -d "$dir/data" ]; then
    as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
  fi
  rm -rf "$dir"
  say "stopped, $dir deleted"
}

# The fault tests stop a server of their own as a crash would (immediate
# mode: no checkpoint, clients cut) and start it again on the same port and
# data, so its clients must find it again by themselves.
halt() {
  local dir=$1
  OWNER=$(cat "$dir/owner")
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w stop >&2
}

resume() {
  local dir=$1 port
  OWNER=$(cat "$dir/owner")
  port=$(cat "$dir/port")
  as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >&2
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  halt) halt "${2:?halt needs the cluster folder}" ;;
  resume) resume "${2:?resume needs the cluster folder}" ;;
  *) echo "usage: $0 start|stop [DIR]|halt DIR|resume DIR" >&2; exit 2 ;;
esac
