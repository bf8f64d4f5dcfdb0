#!/usr/bin/env bash
# Runs a command with two throwaway PostgreSQL servers for the tests and the benchmark, and stops
# them afterwards, whatever happens:
#
#   scripts/with-postgres.sh swift test --skip-build
#
# Each server gets a temporary data directory, listens on 127.0.0.1 on a free port (and a socket
# in the temporary directory), asks for passwords over TCP (scram-sha-256), and offers TLS with a
# certificate made for the run. The second server is for tests that stop and start theirs.
# The command sees:
#   DOCKET_TEST_POSTGRES          postgres://docket_admin@127.0.0.1:PORT/postgres (a superuser)
#   DOCKET_TEST_POSTGRES_FAULT    the same for the second server
#   DOCKET_TEST_POSTGRES_CTL      a command: `stop` (immediately, as a crash would) or `start`
#                                 the second server
#   PGPASSFILE                    the superuser's password for both
#   DOCKET_TEST_POSTGRES_CERT     the main server's certificate (its own authority)
#   DOCKET_TEST_PSQL              psql
# initdb and postgres refuse to run as root: as root they run as the `postgres` user.
# When no server can be started this fails, loudly: the PostgreSQL tests never pass by not running.
set -euo pipefail

fail() {
  echo "with-postgres: could not start the throwaway PostgreSQL server: $*" >&2
  echo "with-postgres: the PostgreSQL tests need it (make deps installs the postgresql package)." >&2
  exit 1
}

[[ $# -gt 0 ]] || { echo "usage: scripts/with-postgres.sh COMMAND [ARGUMENT ...]" >&2; exit 2; }

bin=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  [[ -x "$candidate/initdb" ]] && { bin=$candidate; break; }
done
if [[ -z "$bin" ]] && command -v brew >/dev/null 2>&1; then
  prefix=$(brew --prefix postgresql@15 2>/dev/null || true)
  [[ -x "$prefix/bin/initdb" ]] && bin="$prefix/bin"
fi
if [[ -z "$bin" ]] && command -v initdb >/dev/null 2>&1; then bin=$(dirname "$(command -v initdb)"); fi
[[ -n "$bin" ]] || fail "initdb not found"

command -v openssl >/dev/null 2>&1 || fail "openssl is missing (the servers offer TLS with a certificate made for the run)"
root=$(mktemp -d "${TMPDIR:-/tmp}/docket-postgres.XXXXXX")
# Only this user (and, when run as root, the postgres user it runs the servers as) gets in.
chmod 0700 "$root"
as_server=()
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || fail "running as root, and there is no postgres user to run the server as"
  as_server=(runuser -u postgres --)
  chown postgres "$root"
fi
# `"${as_server[@]}"` of an empty array fails under `set -u` in older bash (macOS's 3.2).
server() { if [[ ${#as_server[@]} -gt 0 ]]; then "${as_server[@]}" "$@"; else "$@"; fi; }

servers=()
cleanup() {
  local status=$?
  for data in ${servers[@]+"${servers[@]}"}; do
    server "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$root"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

password=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$password" >"$root/password"
chmod 0600 "$root/password"
[[ ${#as_server[@]} -eq 0 ]] || chown postgres "$root/password"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
    || echo $((20000 + RANDOM % 30000))
}

# start NAME: makes and starts a server in $root/NAME; sets $port.
start() {
  local name=$1 data="$root/$1/data" socket="$root/$1"
  mkdir -p "$socket"
  [[ ${#as_server[@]} -eq 0 ]] || chown postgres "$socket"
  server "$bin/initdb" -D "$data" -U docket_admin --pwfile="$root/password" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C >"$root/$name.initdb.log" 2>&1 \
    || fail "initdb failed: $(tail -n 3 "$root/$name.initdb.log" | tr '\n' ' ')"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$root/$name.key" -out "$root/$name.crt" >/dev/null 2>&1 \
    || fail "openssl could not make a certificate"
  chmod 0600 "$root/$name.key"
  chmod 0644 "$root/$name.crt"
  [[ ${#as_server[@]} -eq 0 ]] || chown postgres "$root/$name.key" "$root/$name.crt"
  local tls="-c ssl=on -c ssl_cert_file=$root/$name.crt -c ssl_key_file=$root/$name.key"
  local attempt
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    local options="-c listen_addresses=127.0.0.1 -p $port -k $socket -c fsync=off"
    # fsync off: a stop "as a crash would" is of the server, not the machine, so what was written
    # stays; commits stay synchronous, so what a client saw committed survives the stop.
    options+=" -c unix_socket_permissions=0700 -c max_connections=300 $tls"
    printf '%s\n' "$options" >"$root/$name.options"
    if server "$bin/pg_ctl" -D "$data" -l "$socket/server.log" -w -t 60 \
      -o "$options" start >/dev/null 2>&1; then
      servers+=("$data")
      return 0
    fi
  done
  fail "postgres did not start: $(tail -n 3 "$socket/server.log" 2>/dev/null | tr '\n' ' ')"
}

start main
main_port=$port
start fault
fault_port=$port

{
  printf '127.0.0.1:%s:*:docket_admin:%s\n' "$main_port" "$password"
  printf '127.0.0.1:%s:*:docket_admin:%s\n' "$fault_port" "$password"
} >"$root/pgpass"
chmod 0600 "$root/pgpass"

# The second server's switch, for tests that stop it as a crash would and start it again.
prefix=""
[[ ${#as_server[@]} -eq 0 ]] || prefix="${as_server[*]}"
{
  printf '#!/usr/bin/env bash\nset -euo pipefail\n'
  printf 'prefix=%q\nbin=%q\nroot=%q\n' "$prefix" "$bin" "$root"
  cat <<'EOF'
# The server started here outlives the test that starts it: it must hold none of the test
# process's descriptors (one it keeps open makes Foundation's Process in the test process wait
# for ever for a child that has long ended).
for descriptor in /proc/self/fd/* /dev/fd/*; do
  number=${descriptor##*/}
  if [[ "$number" =~ ^[0-9]+$ && "$number" -gt 2 ]]; then eval "exec $number>&-" 2>/dev/null || true; fi
done
case "${1:-}" in
  stop) exec $prefix "$bin/pg_ctl" -D "$root/fault/data" -m immediate -w stop >/dev/null ;;
  start)
    exec $prefix "$bin/pg_ctl" -D "$root/fault/data" -l "$root/fault/server.log" -w -t 60 \
      -o "$(cat "$root/fault.options")" start >/dev/null
    ;;
  *) echo "usage: $0 stop|start" >&2; exit 2 ;;
esac
EOF
} >"$root/ctl"
chmod 0755 "$root/ctl"

export DOCKET_TEST_POSTGRES="postgres://docket_admin@127.0.0.1:$main_port/postgres"
export DOCKET_TEST_POSTGRES_FAULT="postgres://docket_admin@127.0.0.1:$fault_port/postgres"
export DOCKET_TEST_POSTGRES_CTL="$root/ctl"
export PGPASSFILE="$root/pgpass"
# The certificate the main server presents (a test checks verify-full against it), and psql.
export DOCKET_TEST_POSTGRES_CERT="$root/main.crt"
export DOCKET_TEST_PSQL="$bin/psql"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$main_port and :$fault_port" >&2
"$@"
