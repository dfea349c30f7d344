#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store's tests against PostgreSQL (RACETRIAGE_TEST_PG_URL).
#
#   . .ci/postgres.sh            # start one, export RACETRIAGE_TEST_PG_URL and RACETRIAGE_DB_PASSWORD, define
#                                # racetriage_pg_stop (what .ci/run does: it stops the cluster when it exits)
#   .ci/postgres.sh start        # start one and print the export lines (eval "$(.ci/postgres.sh start)")
#   .ci/postgres.sh stop DIR     # stop the cluster in DIR and remove DIR
#
# Installs Debian's postgresql package when initdb/pg_ctl are missing. The cluster lives in a temporary directory,
# listens on 127.0.0.1 on a free port (and a socket in its directory), and authenticates TCP clients with
# SCRAM passwords. As root (CI), initdb and postgres refuse to run, so they run as the postgres user, which owns the
# directory. The test user is a superuser of this cluster only: the tests create databases, schemas and roles.

racetriage_pg_bin() {
  local bin
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    echo "== installing Debian's postgresql package" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  echo "$bin"
}

racetriage_pg_free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "no free port found" >&2
  return 1
}

# Starts the cluster; prints the export lines on stdout, progress on stderr.
racetriage_pg_start() {
  local bin dir port password as=()
  bin=$(racetriage_pg_bin) || return 1
  dir=$(mktemp -d "${TMPDIR:-/tmp}/racetriage-pg.XXXXXX")
  chmod 700 "$dir"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    chown postgres: "$dir"
    as=(runuser -u postgres --)
  fi
  port=$(racetriage_pg_free_port) || return 1
  password="rt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$password" > "$dir/pwfile"
  [ ${#as[@]} -eq 0 ] || chown postgres: "$dir/pwfile"
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U racetriage_test --pwfile="$dir/pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  rm -f "$dir/pwfile"
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >&2 \
    || { cat "$dir/server.log" >&2; return 1; }
  "${as[@]}" "$bin/psql" -h "$dir" -p "$port" -U racetriage_test -d postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE racetriage_test" >&2 || return 1
  echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $dir)" >&2
  echo "export RACETRIAGE_TEST_PG_URL='jdbc:postgresql://127.0.0.1:$port/racetriage_test?user=racetriage_test'"
  echo "export RACETRIAGE_DB_PASSWORD='$password'"
  echo "export RACETRIAGE_TEST_PG_DIR='$dir'"
}

racetriage_pg_stop() {
  local -   # options local to this function: as an EXIT trap it runs while errexit is ending the shell
  set +e
  local dir=${1:-${RACETRIAGE_TEST_PG_DIR:-}} bin as=()
  [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
  bin=$(racetriage_pg_bin)
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-start}" in
    start) racetriage_pg_start ;;
    stop) racetriage_pg_stop "${2:?usage: .ci/postgres.sh stop DIR}" ;;
    *) echo "usage: .ci/postgres.sh [start | stop DIR]" >&2; exit 2 ;;
  esac
else
  racetriage_pg_exports=$(racetriage_pg_start) || return 1
  eval "$racetriage_pg_exports"
  unset racetriage_pg_exports
fi
