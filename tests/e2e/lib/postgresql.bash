# A real PostgreSQL server for the history tests (sourced after lib/common.bash; not a test
# itself), from Debian's postgresql package: its own data folder under the scratch folder, its own
# port on the loopback, run as the postgres user when we are root, stopped by its pid at exit.
# Skips, saying why, where no server can start. Gives
#   pg_port          the port it listens on;
#   pg_url DB        postgresql://iobench@127.0.0.1:PORT/DB (the superuser is iobench, trusted);
#   pg_createdb DB   a fresh database DB (psql).
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || skip "no PostgreSQL server here (Debian's postgresql package; scripts/bootstrap installs it)"
command -v psql >/dev/null || skip "psql is needed to count rows (postgresql-client)"

# PostgreSQL refuses to run as root: then it runs as the postgres user, in a folder it owns.
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || skip "running as root and there is no postgres user to run the server as"
  as_server=(runuser -u postgres --)
  chmod 711 "$tmp"
fi
pg=$tmp/pg
mkdir "$pg"
[ "${#as_server[@]}" -eq 0 ] || chown postgres "$pg"
"${as_server[@]}" "$pg_bin/initdb" -D "$pg/data" -A trust -U iobench --no-sync >"$tmp/initdb.log" 2>&1 ||
  skip_here "initdb failed: $(tail -1 "$tmp/initdb.log")"
started=
for attempt in 1 2 3 4 5; do
  pg_port=$((20000 + RANDOM % 30000))
  if "${as_server[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 30 \
    -o "-p $pg_port -k $pg -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 2>&1; then
    started=1
    break
  fi
done
[ -n "$started" ] || skip_here "the server did not start: $(tail -1 "$pg/server.log" 2>/dev/null)"
server_pid=$(head -1 "$pg/data/postmaster.pid")
stop_server() {
  kill -INT "$server_pid" 2>/dev/null || return 0  # fast shutdown
  for _ in $(seq 100); do
    kill -0 "$server_pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$server_pid" 2>/dev/null || true
}
on_exit stop_server
pg_url() { echo "postgresql://iobench@127.0.0.1:$pg_port/$1"; }
pg_createdb() { psql "$(pg_url postgres)" -qc "CREATE DATABASE $1" >/dev/null; }
