#!/bin/sh
# run-ws.sh [BUILD_DIR] -- tttd over WebSocket against tttd over TCP, in
# the same run and from the same server: one tttd with both ports (--port
# and --http-port, free ports), and ttt-bench against each with the same
# connections and seconds.  First memory: the server's RSS idle, with
# MEM_CONNS TCP players (thinking MEM_THINK ms a move) held, then with as
# many WebSocket players held besides: bytes per TCP connection and per
# WebSocket connection.  Then throughput, in BENCH_ROUNDS rounds of
# BENCH_SECONDS s a run: PINGs/s from PING_CONNS connections in a closed
# loop and moves/s from GAME_CONNS connections playing at full speed, over
# TCP and over WebSocket by turns.  Prints every RESULT line, a table, the
# medians and the ratios WS/TCP; stops tttd at the end.
#
# Environment: BENCH_SECONDS (10), BENCH_ROUNDS (3), PING_CONNS (50),
# GAME_CONNS (100), MEM_CONNS (2000), MEM_THINK (2000), TCP_PORT and
# HTTP_PORT (free ones when unset), BENCH (another ttt-bench).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
secs=${BENCH_SECONDS:-10}
rounds=${BENCH_ROUNDS:-3}
ping_conns=${PING_CONNS:-50}
game_conns=${GAME_CONNS:-100}
mem_conns=${MEM_CONNS:-2000}
mem_think=${MEM_THINK:-2000}
src=127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4
. "$here/bench-lib.sh"

bench=${BENCH:-$build/tests/bench/ttt-bench}
tttd=$build/server/tttd
for f in "$bench" "$tttd"; do
	if [ ! -x "$f" ]; then
		echo "run-ws: $f is missing: build $build first" >&2
		exit 1
	fi
done
if ! "$tttd" --help 2>&1 | grep -q -- --http-port; then
	echo "run-ws: $tttd has no --http-port (no WebSocket): nothing to compare" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-ws.XXXXXX")
mem_pids=
trap 'for p in $mem_pids; do kill "$p" 2>/dev/null; done; bench_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
status=0
rows=
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)

# Start tttd on both ports: its pid in $pid, the ports in $port, $hport.
# Free ports can be taken between the choice and the bind: three tries.
try=0
while :; do
	port=${TCP_PORT:-$(bench_free_port)}
	hport=${HTTP_PORT:-$(bench_free_port "$port")}
	bench_start "$tmp/tttd.out" "$tmp/tttd.log" "$tttd" --port "$port" \
	    --http-port "$hport" --bind 127.0.0.1 --rate-limit 0 \
	    --max-per-addr 0 --max-clients 20000 --turn-timeout 0
	pid=$bench_pid
	bench_wait_ping "$pid" "$bench" "$tmp/probe.out" "$port" &&
	    bench_wait_ping "$pid" "$bench" "$tmp/probe.out" "$hport" --ws &&
	    break
	bench_stop "$pid" >/dev/null 2>&1
	try=$((try + 1))
	if [ $try -ge 3 ] || [ -n "${TCP_PORT:-}${HTTP_PORT:-}" ]; then
		echo "run-ws: tttd did not answer on both ports ($port, $hport)" >&2
		cat "$tmp/tttd.log" "$tmp/probe.out" >&2
		exit 1
	fi
done
echo "run-ws: tttd pid $pid: TCP port $port, HTTP port $hport"

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }

# mem_start NAME ARGS...: MEM_CONNS players in the background until
# stopped; returns once every one is up (or failed): ttt-bench's progress
# lines leave the ramp.
mem_start() {
	_name=$1
	shift
	"$bench" 127.0.0.1 "$@" --mode game --conns "$mem_conns" \
	    --think "$mem_think" --think-jitter 50 --ramp 1000 \
	    --duration 86400 --src "$src" --progress \
	    >"$tmp/$_name.out" 2>"$tmp/$_name.err" &
	mem_pids="$mem_pids $!"
	_i=0
	until grep -q ' s: [0-9]* open, ' "$tmp/$_name.err"; do
		sleep 0.2
		_i=$((_i + 1))
		if [ $_i -ge $((mem_conns / 100 + 100)) ]; then
			echo "run-ws: $_name: the connections did not come up" >&2
			status=1
			break
		fi
	done
	sleep 1		# a few moves each: the server's buffers in use
}

# Memory: idle, TCP players held, WebSocket players held besides (so that
# neither reuses what the other freed).
rss0=$(rss)
mem_start mem-tcp "$port"
rss1=$(rss)
mem_start mem-ws "$hport" --ws
rss2=$(rss)
for p in $mem_pids; do
	kill -TERM "$p" 2>/dev/null
	wait "$p"
done
mem_pids=
for n in mem-tcp mem-ws; do
	grep '^RESULT' "$tmp/$n.out"
	if [ "$(bench_field "$tmp/$n.out" held)" != "$mem_conns" ] ||
	    [ "$(bench_field "$tmp/$n.out" connect_errors)" != 0 ] ||
	    [ "$(bench_field "$tmp/$n.out" drops)" != 0 ]; then
		echo "run-ws: $n: not every connection was held" >&2
		status=1
	fi
done

# run NAME PORT ttt-bench-args...: one measured run, its row: name, ops/s,
# p50, p99, errors, tttd's CPU in % of a core and in us per op.
run() {
	_name=$1
	_port=$2
	shift 2
	_cpu0=$(bench_cpu "$pid")
	_t0=$(date +%s%N)
	"$bench" 127.0.0.1 "$_port" --duration "$secs" --src "$src" "$@" \
	    >"$tmp/$_name.out" 2>"$tmp/$_name.err" || status=1
	_cpu1=$(bench_cpu "$pid")
	_t1=$(date +%s%N)
	grep -h '^RESULT' "$tmp/$_name.out" || cat "$tmp/$_name.err"
	rows="$rows$(awk -v name="$_name" -v c0="$_cpu0" -v c1="$_cpu1" \
	    -v t="$(getconf CLK_TCK)" -v ms="$(((_t1 - _t0) / 1000000))" '
	/^RESULT / {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		cpu = (c1 - c0) / t
		err = f["connect_errors"] + f["drops"] + f["errs"] + f["bad"]
		printf "%s %s %s %s %d %d %s\n", name, f["ops_per_s"],
		    f["p50_us"], f["p99_us"], err,
		    (ms > 0 ? cpu * 100000 / ms : 0),
		    (f["ops"] > 0 ? sprintf("%.1f", cpu * 1e6 / f["ops"]) : "-")
		found = 1
	}
	END {
		if (!found)
			printf "%s - - - failed - -\n", name
	}' "$tmp/$_name.out")
"
}

# Throughput: the same runs over each transport by turns, the order
# swapped every round so that drifts hit both alike; medians compared.
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order="tcp ws"; else order="ws tcp"; fi
	for mode in ping game; do
		for t in $order; do
			if [ "$t" = ws ]; then
				set -- "$hport" --ws
			else
				set -- "$port"
			fi
			if [ "$mode" = ping ]; then
				set -- "$@" --mode ping --conns "$ping_conns"
			else
				set -- "$@" --mode game --conns "$game_conns" \
				    --think 0
			fi
			run "$mode-$t#$r" "$@"
		done
	done
	r=$((r + 1))
done
bench_stop "$pid" || status=1

echo
echo "tttd over TCP and over WebSocket: $secs s a run, $rounds rounds, $(nproc) CPUs, load generator and server on this machine (load average before: $load)"
printf '%s' "$rows" | awk \
    -v conns="$mem_conns" -v rss0="$rss0" -v rss1="$rss1" -v rss2="$rss2" '
BEGIN {
	printf "%-12s %9s %6s %6s %6s %4s %7s\n", "run", "ops/s", "p50us", "p99us", "errors", "cpu%", "cpuus/op"
}
NF == 7 {
	printf "%-12s %9s %6s %6s %6s %4s %7s\n", $1, $2, $3, $4, $5, $6, $7
	name = $1
	sub(/#.*/, "", name)
	runs[name] = runs[name] " " $2
	cpus[name] = cpus[name] " " $7
}
function median(list,	v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
END {
	for (name in runs) {
		ops[name] = median(runs[name])
		cpu[name] = median(cpus[name])
	}
	print ""
	print "ops: PINGs answered (ping-*), moves acknowledged (game-*); errors: connect"
	print "errors, drops, ERR and bad lines; cpu%: tttd over the whole run, in % of"
	print "one core; cpuus/op: tttd CPU microseconds per op (ramp included)."
	printf "medians (ops/s): ping tcp %.1f, ws %.1f; game tcp %.1f, ws %.1f\n", ops["ping-tcp"], ops["ping-ws"], ops["game-tcp"], ops["game-ws"]
	if (ops["ping-tcp"] > 0)
		printf "WS/TCP PINGs/s:  %.3f  (tttd CPU per PING: tcp %s us, ws %s us)\n", ops["ping-ws"] / ops["ping-tcp"], cpu["ping-tcp"], cpu["ping-ws"]
	if (ops["game-tcp"] > 0)
		printf "WS/TCP moves/s:  %.3f  (tttd CPU per move: tcp %s us, ws %s us)\n", ops["game-ws"] / ops["game-tcp"], cpu["game-tcp"], cpu["game-ws"]
	tcp = (rss1 - rss0) * 1024 / conns
	ws = (rss2 - rss1) * 1024 / conns
	printf "tttd RSS: idle %d KiB, with %d TCP players %d KiB, and %d WebSocket players besides %d KiB\n", rss0, conns, rss1, conns, rss2
	printf "memory per connection: TCP %d bytes, WebSocket %d bytes", tcp, ws
	if (tcp > 0)
		printf " (WS/TCP %.2f)", ws / tcp
	printf "\n"
}'
exit $status
