#!/bin/sh
# test_libpq_lazy.sh TTTD -- tttd loads libpq only for a --db that names
# PostgreSQL (server/store/store-pglib.c): the binary does not need it
# (no NEEDED entry), a tttd started with an SQLite --db, or none, has not
# mapped it, and one started with a PostgreSQL connection string has (its
# PostgreSQL need not answer: tttd starts and keeps trying).  libpq's
# dependencies were 60 % of every start's instructions
# (docs/performance.md).
set -eu
tttd=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-libpq.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
failed=0

command -v readelf >/dev/null || { echo "no readelf (binutils)" >&2; exit 77; }

if readelf -d "$tttd" | grep -q 'NEEDED.*libpq'; then
	echo "test_libpq_lazy: $tttd is linked with libpq:" >&2
	readelf -d "$tttd" | grep NEEDED >&2
	failed=1
fi

# mapped DB: start tttd with --db DB, and say whether it mapped libpq.so.5
# once listening (0: it did, 1: it did not, 2: it did not start).
# The files are emptied here, not by the background job's redirection,
# which may come after the loop below has read the "listening" line the
# last tttd wrote there (as bench-lib.sh's bench_start does).
mapped() {
	: >"$tmp/out"
	: >"$tmp/err"
	"$tttd" --port 0 --bind 127.0.0.1 --http-port 0 --db "$1" \
	    >>"$tmp/out" 2>>"$tmp/err" &
	pid=$!
	i=0
	while ! grep -q ' listening on ' "$tmp/out"; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "test_libpq_lazy: tttd --db $1 did not start:" >&2
			cat "$tmp/err" >&2
			kill "$pid" 2>/dev/null
			pid=
			return 2
		fi
		sleep 0.1
	done
	grep -q 'libpq\.so' "/proc/$pid/maps" && rc=0 || rc=1
	kill "$pid"
	wait "$pid" || true
	pid=
	return $rc
}

# expect DB WANT: tttd --db DB maps libpq (WANT 0) or not (WANT 1).
expect() {
	mapped "$1" && rc=0 || rc=$?
	[ "$rc" = "$2" ] && return
	if [ "$rc" = 0 ]; then
		echo "test_libpq_lazy: tttd --db '$1' loaded libpq" >&2
	elif [ "$rc" = 1 ]; then
		echo "test_libpq_lazy: tttd --db '$1' did not load libpq" >&2
	fi
	failed=1
}

expect none 1
expect "$tmp/accounts.db" 1
expect "host=$tmp/no-postgres dbname=tttd" 0
[ "$failed" = 0 ] && echo "test_libpq_lazy: libpq loaded for PostgreSQL only"
exit "$failed"
