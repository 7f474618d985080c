#!/bin/sh
# run-cluster-pg.sh BUILD_DIR -- rated games of three nodes on one
# PostgreSQL (issue 27's "Measure"): a throwaway postgres (initdb in a
# temporary directory, as nobody when run as root, on a free loopback
# port, fsync=on and synchronous_commit=on as a production server has
# them: every rated result waits for its WAL flush on the disk of
# PGB_DIR), a redis-server, and three tttd nodes of one cluster with
# --db postgresql://... and --redis, kept for the whole run.  Then, in
# PGB_ROUNDS rounds, each run one ttt-bench spread over the three nodes
# (connection i to node i mod 3):
#
#   G   PGB_MATCHES (300) matches of guests at a fixed pace (PGB_THINK,
#       100 ms +- 10 % before each move): no game rated
#   R   the same, every player signed in (ttt-bench --register): every
#       game rated, its RESULT out only once its record and both ratings
#       are committed
#   F   PGB_FULL_MATCHES (50) matches of signed-in players at full speed
#       (--think 0): the rated results the three nodes get committed a
#       second (PGB_FULL=0 leaves it out)
#
# G and R alternate (GR, RG, ...) so that whatever else the machine does
# falls on both alike.  Each run: moves/s, games/s, rated results/s (X's
# "INFO Your rating" lines: each one after its commit), p50/p99 of a
# move (MOVE to OK MOVE) and of a game's last move (MOVE to the mover's
# RESULT: the line that waits for the commit), and the rows of the games
# table and the transactions committed in database tttd before and after
# (pg_stat_database; rows include the games that ended in the ramp and
# the warm-up).  Then the medians, and R's last-move p99 over G's.
#
# Last, one rated game alone (two players of node 1, --think 400,
# --games 1), for what a rated game costs the database: the statements
# postgres logs for it (log_statement = all, set for this game only; the
# lines after a mark made once both players have registered), the
# transactions committed (pg_stat_database), and the bytes each way on
# the nodes' connections to postgres (ss -ti: bytes_sent and
# bytes_received, payload, before and after).
#
#   PGB_ROUNDS         rounds (default 3)
#   PGB_MATCHES        matches of G and R (default 300)
#   PGB_THINK          ms before each move in G and R (default 100)
#   PGB_SECONDS        measured seconds a run (default 5)
#   PGB_FULL           1 (default): the F runs; 0: not
#   PGB_FULL_MATCHES   matches of F (default 50)
#   PGB_DIR            where postgres's data goes (default $TMPDIR or
#                      /tmp: its disk is the disk measured)
#   TTTD_PG_BINDIR     initdb and postgres (default Debian's newest,
#                      /usr/lib/postgresql/*/bin)
#
# Exit status 0 when every run had no connect error, drop, ERR or bad
# line, and every game of R and F was rated.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run-cluster-pg.sh BUILD_DIR}
rounds=${PGB_ROUNDS:-3}
matches=${PGB_MATCHES:-300}
think=${PGB_THINK:-100}
secs=${PGB_SECONDS:-5}
full=${PGB_FULL:-1}
fmatches=${PGB_FULL_MATCHES:-50}
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tttd=$build/server/tttd
say() { echo "run-cluster-pg: $*"; }
for f in "$bench" "$tttd"; do
	if [ ! -x "$f" ]; then
		say "$f is missing: build $build first" >&2
		exit 1
	fi
done
bindir=${TTTD_PG_BINDIR:-}
if [ -z "$bindir" ]; then
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/postgres" ] && bindir=$d
	done
fi
for f in "$bindir/initdb" "$bindir/postgres" "$(command -v psql)" \
    "$(command -v redis-server)" "$(command -v ss)"; do
	if [ ! -x "$f" ]; then
		say "needs initdb and postgres (postgresql), psql, redis-server and ss: ${f:-one} is missing" >&2
		exit 1
	fi
done
tmp=$(mktemp -d "${PGB_DIR:-${TMPDIR:-/tmp}}/tttd-cluster-pg.XXXXXX")
pgpid=
cleanup() {
	set +e
	bench_stop_all
	# postgres's pid from its own file too, should $! be another's
	_pm=$(head -n 1 "$tmp/pg/data/postmaster.pid" 2>/dev/null)
	[ -n "$_pm" ] && [ "$_pm" != "$pgpid" ] && kill -INT "$_pm" 2>/dev/null
	if [ -n "$pgpid" ]; then
		kill -INT "$pgpid" 2>/dev/null
		_i=0
		while kill -0 "$pgpid" 2>/dev/null && [ $_i -lt 100 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -KILL "$pgpid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
die() {
	say "$*" >&2
	for f in "$tmp"/*.log "$tmp"/pg/postgres.log; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 10 "$f" >&2; }
	done
	exit 1
}

pg_user=
[ "$(id -u)" = 0 ] &&
    pg_user="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
# as_pg CMD...: CMD as nobody when root (postgres refuses root), else as
# ourselves.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}

# The server: initdb, then postgres on a free port (tried up to 5 times).
mkdir "$tmp/pg"
if [ "$(id -u)" = 0 ]; then
	chmod 711 "$tmp"
	chown nobody:nogroup "$tmp/pg"
fi
as_pg "$bindir/initdb" -D "$tmp/pg/data" -U tttd -A trust -E UTF8 \
    --locale=C --no-sync >"$tmp/initdb.log" 2>&1 || die "initdb failed"
t=0
while :; do
	pgport=$(bench_free_port)
	# not through as_pg: $! must be postgres's own pid, not a subshell's
	# shellcheck disable=SC2086
	$pg_user "$bindir/postgres" -D "$tmp/pg/data" -p "$pgport" -k "$tmp/pg" \
	    -c listen_addresses=127.0.0.1 -c fsync=on \
	    -c synchronous_commit=on -c max_connections=30 \
	    >"$tmp/pg/postgres.log" 2>&1 &
	pgpid=$!
	_i=0
	while [ $_i -lt 100 ] && kill -0 "$pgpid" 2>/dev/null &&
	    ! "$bindir/pg_isready" -q -h 127.0.0.1 -p "$pgport"; do
		sleep 0.1
		_i=$((_i + 1))
	done
	"$bindir/pg_isready" -q -h 127.0.0.1 -p "$pgport" && break
	kill -INT "$pgpid" 2>/dev/null
	wait "$pgpid"
	pgpid=
	t=$((t + 1))
	[ $t -lt 5 ] || die "postgres did not start"
done
# sql DB STATEMENT: one value (or rows) from psql, unaligned.
sql() {
	psql -X -q -At -h 127.0.0.1 -p "$pgport" -U tttd -d "$1" -c "$2"
}
sql postgres 'CREATE DATABASE tttd' >/dev/null || die "no database tttd"
db="postgresql://tttd@127.0.0.1:$pgport/tttd"

bench_redis "$tmp/redis.out" "$tmp/redis.log" ||
    die "redis-server did not start"
ports=
# shellcheck disable=SC2154 # bench_redis_port, bench_pid: bench-lib.sh's
for n in 1 2 3; do
	bench_start "$tmp/n$n.out" "$tmp/n$n.log" "$tttd" --port 0 \
	    --http-port 0 --bind 127.0.0.1 --redis "127.0.0.1:$bench_redis_port" \
	    --node "n$n" --db "$db" --max-per-addr 0 --rate-limit 0 \
	    --max-clients 20000 --seed 1 --log-level warn --line-timeout 0 \
	    --turn-timeout 0 --again-timeout 0 --idle-timeout 0 --ai-offer 0
	p=$(bench_port "$tmp/n$n.out" "$bench_pid") || die "n$n did not start"
	eval "port$n=$p"
	ports="$ports${ports:+,}$p"
done
# shellcheck disable=SC2154
bench_wait_nodes "$port1" 3 || die "the nodes do not see each other"
# The schema is made by the first node to connect; wait for it.
_i=0
until [ "$(sql tttd "SELECT to_regclass('games') IS NOT NULL")" = t ]; do
	_i=$((_i + 1))
	[ $_i -lt 100 ] || die "no games table"
	sleep 0.1
done

say "$tttd ($(git -C "$here" describe --always --dirty 2>/dev/null)): three nodes on redis-server :$bench_redis_port and postgres $("$bindir/postgres" --version | sed 's/^[^0-9]*\([0-9.]*\).*/\1/') :$pgport (fsync=on, synchronous_commit=on; data in $tmp/pg on $(df -P "$tmp" | awk 'NR == 2 { print $1 }')); G/R $matches matches think $think ms, F $fmatches matches think 0; $secs s a run, $rounds rounds"

status=0
results=
# dbnow: "GAMES_ROWS XACT_COMMIT" of database tttd (the statistics are
# flushed by each backend at most once a second: read a second after).
dbnow() {
	sql tttd "SELECT (SELECT count(*) FROM games), xact_commit FROM pg_stat_database WHERE datname = 'tttd'" |
	    tr '|' ' '
}

# one LABEL ROUND: one measured run; a row in $results:
# LABEL MOVES_S GAMES_S RATED_S P50 P99 LAST_P50 LAST_P99 ROWS XACTS
one() {
	_label=$1
	_reg=
	_m=$matches
	_th=$think
	case $_label in
	R) _reg="--register r$2x" ;;
	F) _reg="--register f$2x"; _m=$fmatches; _th=0 ;;
	esac
	_before=$(dbnow)
	# shellcheck disable=SC2086
	"$bench" 127.0.0.1 "$ports" --conns $((_m * 2)) --ramp 1000 \
	    --duration "$secs" --warmup 2 --mode game --think "$_th" \
	    --think-jitter 10 $_reg >"$tmp/$_label.bench" 2>&1 || status=1
	sleep 1.2
	_after=$(dbnow)
	_line=$(awk -v label="$_label" -v before="$_before" -v after="$_after" '
	/^RESULT / {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		bad = f["connect_errors"] + f["drops"] + f["errs"] + f["bad"]
		if ("registered" in f && (f["rated"] == 0 || f["unrated"] > 0))
			bad++
		split(before, b, " ")
		split(after, a, " ")
		printf "%s %s %.1f %.1f %s %s %s %s %d %d %d\n", label,
		    f["ops_per_s"], f["games"] / f["seconds"],
		    f["rated"] / f["seconds"], f["p50_us"], f["p99_us"],
		    f["last_p50_us"], f["last_p99_us"], a[1] - b[1],
		    a[2] - b[2], bad
	}' "$tmp/$_label.bench")
	if [ -z "$_line" ] || [ "${_line##* }" != 0 ]; then
		say "round $2 $_label: the run failed" >&2
		sed 's/^/    /' "$tmp/$_label.bench" >&2
		status=1
		return
	fi
	echo "$_line" | awk -v r="$2" '{
		printf "run-cluster-pg: round %d %s: %s moves/s, %s games/s, %s rated/s, move p50 %s p99 %s us, last move p50 %s p99 %s us; games rows +%s, commits +%s\n", r, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
	}'
	results="$results${_line% *}
"
}

r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		one G "$r"
		one R "$r"
	else
		one R "$r"
		one G "$r"
	fi
	[ "$full" = 1 ] && one F "$r"
	r=$((r + 1))
done
printf '%s' "$results" | awk '
function median(a, n,    i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
}
{
	n[$1]++
	for (k = 2; k <= 10; k++)
		v[$1, k, n[$1]] = $k
}
END {
	if (n["G"] == 0 || n["R"] == 0)
		exit 1
	for (l = 1; l <= 3; l++) {
		x = substr("GRF", l, 1)
		if (n[x] == 0)
			continue
		for (k = 2; k <= 10; k++) {
			for (i = 1; i <= n[x]; i++)
				a[i] = v[x, k, i]
			m[x, k] = median(a, n[x])
		}
		printf "run-cluster-pg: %s medians over %d runs: %.0f moves/s, %.1f games/s, %.1f rated/s, move p50 %d p99 %d us, last move p50 %d p99 %d us\n", x, n[x], m[x, 2], m[x, 3], m[x, 4], m[x, 5], m[x, 6], m[x, 7], m[x, 8]
	}
	printf "CLUSTERPG g_last_p99_us=%d r_last_p99_us=%d last_p99_ratio=%.2f g_last_p50_us=%d r_last_p50_us=%d g_p99_us=%d r_p99_us=%d p99_ratio=%.2f r_rated_per_s=%.1f", m["G", 8], m["R", 8], m["R", 8] / m["G", 8], m["G", 7], m["R", 7], m["G", 6], m["R", 6], m["R", 6] / m["G", 6], m["R", 4]
	if (n["F"] > 0)
		printf " f_rated_per_s=%.1f f_last_p99_us=%d", m["F", 4], m["F", 8]
	printf " runs=%d\n", n["G"]
}' || status=1

# One rated game alone: its statements and bytes.  The bytes and data
# segments of every connection to postgres's port (the nodes'; psql's are
# closed by then), from the nodes' side.
pgbytes() {
	ss -tinH state established "( dport = :$pgport )" 2>/dev/null | awk '
	{ for (i = 1; i <= NF; i++) {
		split($i, kv, ":")
		if (kv[1] == "bytes_sent") s += kv[2]
		if (kv[1] == "bytes_received") r += kv[2]
		if (kv[1] == "data_segs_out") so += kv[2]
		if (kv[1] == "data_segs_in") si += kv[2]
	} }
	END { printf "%d %d %d %d\n", s, r, so, si }'
}
# The records still queued at the nodes when F's players left are
# committed first: until the games table stays still for a second.
_i=0
r0=$(sql tttd 'SELECT count(*) FROM games')
while [ $_i -lt 30 ]; do
	sleep 1
	r1=$(sql tttd 'SELECT count(*) FROM games')
	[ "$r1" = "$r0" ] && break
	r0=$r1
	_i=$((_i + 1))
done
sql postgres "ALTER SYSTEM SET log_statement = 'all'" >/dev/null &&
    sql postgres 'SELECT pg_reload_conf()' >/dev/null || status=1
sleep 0.5
"$bench" 127.0.0.1 "$port1" --conns 2 --duration 10 --mode game \
    --think 400 --games 1 --register one >"$tmp/one.bench" 2>&1 &
onepid=$!
sleep 1.5
sql tttd "SELECT 'run-cluster-pg mark'" >/dev/null
r0=$(sql tttd 'SELECT count(*) FROM games')
b0=$(pgbytes)
wait "$onepid" || status=1
sleep 0.3
b1=$(pgbytes)
r1=$(sql tttd 'SELECT count(*) FROM games')
sql postgres 'ALTER SYSTEM RESET log_statement' >/dev/null &&
    sql postgres 'SELECT pg_reload_conf()' >/dev/null
if [ "$(bench_field "$tmp/one.bench" games)" != 1 ] ||
    [ "$((r1 - r0))" != 1 ]; then
	say "the one rated game: not one game, or not one row" >&2
	sed 's/^/    /' "$tmp/one.bench" >&2
	status=1
fi
# The nodes' statements logged after the mark ("execute <unnamed>: ..."
# with PQsendQueryParams; psql's are "statement: ..."), by first word.
sed -n '/run-cluster-pg mark/,$p' "$tmp/pg/postgres.log" |
    grep 'LOG:  execute [^:]*: ' >"$tmp/one.stmts"
nst=$(wc -l <"$tmp/one.stmts")
kinds=$(sed 's/.*LOG:  execute [^:]*: \([A-Za-z]*\).*/\1/' "$tmp/one.stmts" |
    sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
say "one rated game (two players of node 1, think 400 ms): $nst statements ($kinds):"
cut -c 1-150 "$tmp/one.stmts" | sed 's/^/    /'
# shellcheck disable=SC2086
set -- $b0 $b1
say "one rated game: games rows +$((r1 - r0)); the nodes' connections to postgres: $(($5 - $1)) bytes sent in $(($7 - $3)) data segments, $(($6 - $2)) bytes received in $(($8 - $4))"
echo "ONEGAME statements=$nst rows=$((r1 - r0)) bytes_to_pg=$(($5 - $1)) bytes_from_pg=$(($6 - $2)) segs_to_pg=$(($7 - $3)) segs_from_pg=$(($8 - $4))"
exit $status
