#!/bin/sh
# run-bench.sh [BUILD_DIR] -- tttd against a minimal epoll line server
# (ref-server) and redis-server (when installed): PING in a closed loop,
# whole games at full speed beside ref-server --relay (a move's I/O at its
# barest), and 2000 players thinking 100 ms a move, with ref-server
# --relay under the same load as the floor of this machine's latency.
# Prints one table and the ratios.  BENCH_SECONDS (default 10) sets the
# measured seconds of each run; every server is stopped at the end.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
secs=${BENCH_SECONDS:-10}
src=127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
ref=$build/tests/bench/ref-server
tttd=$build/server/tttd
for f in "$bench" "$ref" "$tttd"; do
	if [ ! -x "$f" ]; then
		echo "run-bench: $f is missing: build $build first" >&2
		exit 1
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-bench.XXXXXX")
trap 'bench_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
status=0
rows=
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)

# row NAME FILE CPU: a table row from the RESULT line in FILE.
row() {
	awk -v name="$1" -v cpu="$3" '
	/^RESULT / {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		printf "%s %s %s %s %s %s %s %s %s %d %s %s\n", name, f["conns"], f["held"], f["ops_per_s"], f["p50_us"], f["p90_us"], f["p99_us"], f["p999_us"], f["max_us"], f["connect_errors"] + f["drops"] + f["errs"] + f["bad"], f["mode"] == "game" ? f["games"] : "-", cpu
		found = 1
	}
	END {
		if (!found)
			printf "%s - - - - - - - - failed - %s\n", name, cpu
	}' "$2"
}

# run NAME SERVER_PID PORT ttt-bench-args...: one measured run, its row.
run() {
	_name=$1
	_pid=$2
	_port=$3
	shift 3
	echo "run-bench: $_name: ttt-bench 127.0.0.1 $_port $*"
	_cpu0=$(bench_cpu "$_pid")
	_t0=$(date +%s%N)
	"$bench" 127.0.0.1 "$_port" --duration "$secs" --src "$src" \
	    "$@" >"$tmp/$_name.out" 2>"$tmp/$_name.err" || status=1
	_cpu1=$(bench_cpu "$_pid")
	_t1=$(date +%s%N)
	sed 's/^/    /' "$tmp/$_name.out"
	# The server's CPU over the whole run, ramp included, in % of a core.
	_cpu=$(awk -v a="$_cpu0" -v b="$_cpu1" -v t="$(getconf CLK_TCK)" \
	    -v s="$(((_t1 - _t0) / 1000000))" 'BEGIN { if (s > 0) printf "%d", (b - a) / t / s * 100000; else print "-" }')
	rows="$rows$(row "$_name" "$tmp/$_name.out" "$_cpu")
"
}

# start_tttd NAME FLAGS...: tttd with these extra flags, its log in
# tttd-NAME.log; its pid in $pid and port in $port.
start_tttd() {
	_log=$tmp/tttd-$1.log
	shift
	bench_start "$tmp/tttd.out" "$_log" "$tttd" --port 0 --http-port 0 \
	    --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
	    --max-clients 20000 "$@"
	pid=$bench_pid
	port=$(bench_port "$tmp/tttd.out" "$pid") || {
		echo "run-bench: tttd did not start" >&2
		cat "$_log" >&2
		exit 1
	}
}

# start_ref [--relay]: ref-server; its pid in $pid and port in $port.
start_ref() {
	bench_start "$tmp/ref.out" "$tmp/ref.err" "$ref" "$@" 0
	pid=$bench_pid
	port=$(bench_port "$tmp/ref.out" "$pid") || {
		echo "run-bench: ref-server did not start" >&2
		exit 1
	}
}

# Ping, 50 connections in a closed loop: the reference server first.
# The ping comparison in rounds (BENCH_ROUNDS, default 3), the three
# servers taking turns within each and tttd's full-speed games last, so
# that the machine's drifts (other load, clock speed) hit them alike; the
# ratios use each one's median.
have_redis=0
command -v redis-server >/dev/null 2>&1 && have_redis=1
[ $have_redis = 1 ] ||
    echo "run-bench: redis-server is not installed: skipping it (apt-get install redis-server)"
r=1
while [ $r -le "${BENCH_ROUNDS:-3}" ]; do
	start_ref
	run "ping-ref#$r" "$pid" "$port" --mode ping --conns 50
	bench_stop "$pid"

	start_tttd ping --turn-timeout 0
	run "ping-tttd#$r" "$pid" "$port" --mode ping --conns 50
	bench_stop "$pid" || status=1

	if [ $have_redis = 1 ]; then
		rport=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 20000) }')
		bench_start "$tmp/redis.out" "$tmp/redis.err" redis-server \
		    --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
		    --protected-mode no --maxclients 10000
		pid=$bench_pid
		i=0
		until grep -q 'Ready to accept' "$tmp/redis.out" ||
		    [ $i -ge 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		run "ping-redis#$r" "$pid" "$rport" --mode ping --conns 50
		bench_stop "$pid"
	fi

	# A move's I/O at its barest (ref-server --relay: one read, a write
	# to each of a pair), then tttd's whole games at full speed, in the
	# same rounds: the game ratios divide medians taken under the same
	# drifts.
	start_ref --relay
	run "relay-ref#$r" "$pid" "$port" --mode relay --conns 100
	bench_stop "$pid"

	start_tttd game
	run "game-tttd#$r" "$pid" "$port" --mode game --conns 100 --think 0
	bench_stop "$pid" || status=1
	r=$((r + 1))
done
start_tttd game-2000
run game-2000 "$pid" "$port" --mode game --conns 2000 --think 100 \
    --ramp 1000
bench_stop "$pid" || status=1

# The same load through ref-server --relay: 1000 pairs, each relaying
# 100 ms after its turn came, as many requests a second and the same I/O
# each; what it shows is the floor of this machine.  Then both again with
# --kstamp: replies timed when the kernel received them, leaving out
# ttt-bench's own delays.
start_ref --relay
run relay-ref-2000 "$pid" "$port" --mode relay --conns 2000 --think 100 \
    --ramp 1000
bench_stop "$pid"
start_tttd game-2000-ks
run game-2000-ks "$pid" "$port" --mode game --conns 2000 --think 100 \
    --ramp 1000 --kstamp
bench_stop "$pid" || status=1
start_ref --relay
run relay-ref-2000-ks "$pid" "$port" --mode relay --conns 2000 \
    --think 100 --ramp 1000 --kstamp
bench_stop "$pid"

echo
echo "tttd benchmark: $secs s a run, $(nproc) CPUs, load generator and servers on this machine (load average before: $load)"
printf '%s' "$rows" | awk '
BEGIN {
	printf "%-17s %5s %5s %9s %6s %6s %6s %6s %6s %6s %6s %4s\n", "run", "conns", "held", "ops/s", "p50us", "p90us", "p99us", "p999us", "maxus", "errors", "games", "cpu%"
}
NF == 12 {
	printf "%-17s %5s %5s %9s %6s %6s %6s %6s %6s %6s %6s %4s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
	name = $1
	sub(/#.*/, "", name)
	runs[name] = runs[name] " " $4
	ops[name] = $4
}
function median(list,	v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
END {
	for (name in runs)
		ops[name] = median(runs[name])
	print ""
	if (runs["ping-ref"] != "")
		printf "medians of the rounds (ops/s): ping ref %.1f, tttd %.1f, redis %s; relay ref %.1f; game tttd %.1f\n", ops["ping-ref"], ops["ping-tttd"], runs["ping-redis"] != "" ? sprintf("%.1f", ops["ping-redis"]) : "-", ops["relay-ref"], ops["game-tttd"]
	print "ops: PINGs answered (ping-*), relays acknowledged (relay-*), moves"
	print "acknowledged (game-*); errors:"
	print "connect errors, drops, ERR and bad lines; cpu%: the server, over the"
	print "whole run (ramp included), in % of one core; *-ks: latency to the"
	print "kernel receive time of the reply (--kstamp)."
	if (ops["ping-ref"] > 0 && ops["ping-tttd"] != "")
		printf "tttd/ref ping:                  %.3f\n", ops["ping-tttd"] / ops["ping-ref"]
	if (ops["ping-redis"] > 0 && ops["ping-tttd"] != "")
		printf "tttd/redis ping:                %.3f\n", ops["ping-tttd"] / ops["ping-redis"]
	if (ops["ping-ref"] > 0 && ops["game-tttd"] != "")
		printf "tttd game moves/s / ref ping/s: %.3f\n", ops["game-tttd"] / ops["ping-ref"]
	if (ops["ping-ref"] > 0 && ops["relay-ref"] != "")
		printf "ref relays/s / ref ping/s:      %.3f  (the barest I/O of a move)\n", ops["relay-ref"] / ops["ping-ref"]
	if (ops["relay-ref"] > 0 && ops["game-tttd"] != "")
		printf "tttd game moves/s / ref relay/s: %.3f\n", ops["game-tttd"] / ops["relay-ref"]
}'
exit $status
