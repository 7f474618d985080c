# bench-lib.sh -- shell helpers for run-bench.sh, run-ws.sh, the cluster scripts
# and test_bench.sh: start a server in the background (or a redis-server),
# read its port from its first stdout line or choose a free one for it,
# wait until it answers, stop it.
# Sourced, not run.

bench_pids=

# The servers started keep no accounts (no tttd.db left behind), unless
# the caller's TTTD_DB says otherwise.
TTTD_DB=${TTTD_DB-none}
export TTTD_DB

# bench_start OUT ERR CMD...: run CMD in the background, stdout to OUT and
# stderr to ERR; its pid in $bench_pid.  The files are emptied here, not
# by the background job's redirection, which may come after bench_port
# has read the port a server started before with the same OUT printed.
bench_start() {
	_out=$1
	_err=$2
	shift 2
	: >"$_out"
	: >"$_err"
	"$@" >>"$_out" 2>>"$_err" &
	bench_pid=$!
	bench_pids="$bench_pids $bench_pid"
}

# bench_port OUT PID: wait up to 10 s for "... listening on ADDR:PORT" in
# OUT and print PORT; fail if the server died or never said it.
bench_port() {
	_i=0
	while [ $_i -lt 100 ]; do
		_port=$(sed -n 's/.* listening on .*:\([0-9]*\)$/\1/p' "$1" |
		    head -n 1)
		if [ -n "$_port" ]; then
			echo "$_port"
			return 0
		fi
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# bench_stop PID: SIGTERM, wait up to 5 s, then SIGKILL; the exit status.
bench_stop() {
	kill -TERM "$1" 2>/dev/null || return 0
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}

# bench_stop_all: stop every server still running (for a trap).  Safe
# under set -e: a server that exits before its SIGKILL, or with a status
# other than 0, does not end the trap before the others are stopped.
bench_stop_all() {
	for _p in $bench_pids; do
		bench_stop "$_p" >/dev/null 2>&1 || :
	done
	bench_pids=
}

# bench_json FILE NAME: a top-level field of ttt-bench's --json object in
# FILE ("" if none); the "ports" array's fields of the same names are not
# read.
bench_json() {
	sed -n 's/,"ports":.*//; s/.*[{,]"'"$2"'":"\{0,1\}\([^,"}]*\).*/\1/p' \
	    "$1" | head -n 1
}

# bench_low_port [NOT]: a free port (bench_free_port) below the kernel's
# ephemeral range, so that no outgoing connection can hold it while a
# server restarted on it is down.
bench_low_port() {
	_low=$(cut -f 1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null ||
	    echo 32768)
	while :; do
		_q=$(bench_free_port "${1:-}")
		[ "$_q" -lt "$_low" ] && break
	done
	echo "$_q"
}

# bench_field FILE NAME: a field of the RESULT line in FILE ("" if none).
bench_field() {
	sed -n "s/^RESULT.* $2=\([^ ]*\).*/\1/p" "$1" | head -n 1
}

# bench_cpu PID: the CPU time (user + system) of a process, in clock ticks.
bench_cpu() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# bench_port_busy PORT: is something listening on this TCP port?
bench_port_busy() {
	awk -v p="$(printf '%04X' "$1")" '
	$4 == "0A" && substr($2, length($2) - 3) == p { busy = 1 }
	END { exit !busy }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# bench_free_port [NOT]: a port from 20000 to 49999 that nothing listens
# on (and not NOT), for a server that must be given its port.  Something
# else may take it before the server does: be ready to try again.
bench_free_port() {
	while :; do
		_p=$(awk -v s="$$$(date +%N)" \
		    'BEGIN { srand(s % 2147483647); print 20000 + int(rand() * 30000) }')
		[ "$_p" != "${1:-}" ] && ! bench_port_busy "$_p" && break
	done
	echo "$_p"
}

# bench_wait_ping PID BENCH OUT PORT [ARGS...]: wait up to 5 s, while PID
# lives, until one PING to PORT gets its answer (ttt-bench BENCH with
# ARGS, e.g. --ws; its output in OUT); fail if it never does.
bench_wait_ping() {
	_pid=$1
	_bench=$2
	_out=$3
	shift 3
	_i=0
	while [ $_i -lt 50 ] && kill -0 "$_pid" 2>/dev/null; do
		"$_bench" 127.0.0.1 "$@" --mode ping --conns 1 --ops 1 \
		    --duration 1 --connect-timeout 1 >"$_out" 2>&1 && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# bench_redis OUT ERR: a redis-server on 127.0.0.1, on a free port, with
# nothing saved; its pid in $bench_pid, its port in $bench_redis_port,
# once it answers PING.  A port found free may be taken meanwhile (by a
# load generator's outgoing connection, say): up to five ports are tried.
bench_redis() {
	_t=0
	while [ $_t -lt 5 ]; do
		bench_redis_port=$(bench_free_port)
		bench_start "$1" "$2" redis-server --port "$bench_redis_port" \
		    --bind 127.0.0.1 --save '' --appendonly no
		_i=0
		while [ $_i -lt 50 ] && kill -0 "$bench_pid" 2>/dev/null; do
			redis-cli -p "$bench_redis_port" ping >/dev/null 2>&1 &&
			    return 0
			sleep 0.1
			_i=$((_i + 1))
		done
		bench_stop "$bench_pid" >/dev/null 2>&1 || true
		_t=$((_t + 1))
	done
	return 1
}

# bench_stat PORT NAME: a STATS counter of the tttd on PORT (through nc).
bench_stat() {
	printf 'STATS\r\nQUIT\r\n' | timeout 3 nc -q 1 127.0.0.1 "$1" \
	    2>/dev/null | sed -n "s/^STAT $2 \([0-9]*\).*/\1/p"
}

# bench_wait_nodes PORT N: until the node on PORT counts N nodes in its
# cluster (10 s at most); 1 if it never does.
bench_wait_nodes() {
	_i=0
	while [ "$(bench_stat "$1" cluster_nodes)" != "$2" ]; do
		_i=$((_i + 1))
		[ $_i -lt 50 ] || return 1
		sleep 0.2
	done
}

# bench_node OUT LOG TTTD NAME PORT: start a node of the cluster on
# bench_redis_port on PORT (every player one address, no rate limit); its
# pid in bench_pid; 1 if it did not start.
bench_node() {
	bench_start "$1" "$2" "$3" --port "$5" --http-port 0 \
	    --bind 127.0.0.1 --redis "127.0.0.1:$bench_redis_port" \
	    --node "$4" --max-per-addr 0 --rate-limit 0
	bench_port "$1" "$bench_pid" >/dev/null
}
