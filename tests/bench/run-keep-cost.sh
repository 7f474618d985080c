#!/bin/sh
# run-keep-cost.sh BUILD_DIR -- what keeping every match in Redis costs a
# move (docs/cluster.md, "No game lost with a node"): matches on one node
# of a two-node cluster, where every change of a match is saved (one
# script, EVALSHA) before its players see it, against one tttd without
# --redis.  Everything on loopback; one redis-server, nodes a and b
# (--redis, b idle: it only makes the cluster two nodes) and a standalone
# tttd, all started once and stopped at the end.  tttd runs with
# --max-per-addr 0 --rate-limit 0 (every player is 127.0.0.1).
#
# 1. Redis per move: OPS_CONNS (100) players on node a (all at once: they
#    pair on a, so Redis sees saves, not relays), thinking OPS_THINK (10)
#    ms +- 50 % before each move, for BENCH_SECONDS (8) s and a second's
#    warm-up; Redis's INFO commandstats and total_net_input_bytes /
#    total_net_output_bytes are read before and after (a second after the
#    bench ended), less the same time idle (measured for IDLE_SECONDS, 5,
#    before: the nodes' heartbeats and PINGs), and divided by the moves
#    node a counted (STATS moves) meanwhile.  What a node sends is the
#    scripts (EVALSHA, or EVAL before Redis has the script); commandstats
#    counts the commands a script runs too (a save: GET, SET, SADD), so
#    KEEP_OPS gives both: scripts_per_move and commands_per_move (every
#    command Redis ran, scripts and their commands).  The window holds the
#    matches' starts and ends (the players all connect and close) and
#    every game's result and AGAIN? answers: a change that is not a move
#    is saved too, and is counted here against the moves.
# 2. In BENCH_ROUNDS (3) rounds, the order turned each round, each run
#    BENCH_SECONDS measured after a second's warm-up:
#      full   GAME_CONNS (200) players at full speed (--think 0, a closed
#             loop): moves/s
#      lat    LAT_CONNS (1000) players thinking LAT_THINK (100) ms +- 50 %
#             before each move (a fixed load, let in at 1,000 a second):
#             p50 and p99 of a move (MOVE to OK MOVE)
#    each on the standalone tttd ("alone") and on node a ("node"); the
#    CPU of the server (node: and Redis's) over the run over the moves it
#    counted.  Then medians and the ratios node / alone.
#
# Lines for scripts: KEEP_OPS ... and KEEP_RUN ...; BENCH=another ttt-bench.
# Exits 1 when a run had a connect error, drop, ERR or bad line.
set -eu
build=${1:?usage: run-keep-cost.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"

secs=${BENCH_SECONDS:-8}
rounds=${BENCH_ROUNDS:-3}
idle=${IDLE_SECONDS:-5}
oconns=${OPS_CONNS:-100}
othink=${OPS_THINK:-10}
gconns=${GAME_CONNS:-200}
lconns=${LAT_CONNS:-1000}
lthink=${LAT_THINK:-100}
bench=${BENCH:-$build/tests/bench/ttt-bench}
tttd=$build/server/tttd
tck=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-keep-cost.XXXXXX")
trap 'set +e; bench_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

say() { echo "run-keep-cost: $*"; }
die() {
	say "$*" >&2
	for f in "$tmp"/*.log "$tmp"/*.err; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
	done
	exit 1
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# median: of the numbers on stdin.
median() {
	sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# redis_snap FILE: every command's calls, and the bytes in and out.
redis_snap() {
	{ redis-cli -p "$bench_redis_port" info commandstats
	  redis-cli -p "$bench_redis_port" info stats; } | tr -d '\r' |
	    sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),.*/\1 \2/p
		s/^\(total_net_[a-z]*_bytes\):\([0-9]*\)$/\1 \2/p' >"$1"
}

command -v redis-server >/dev/null || die "no redis-server"
bench_redis "$tmp/redis.out" "$tmp/redis.log" || die "redis-server"
rpid=$bench_pid
common="--http-port 0 --bind 127.0.0.1 --max-per-addr 0 --rate-limit 0"
for n in a b; do
	p=$(bench_low_port)
	# shellcheck disable=SC2086
	bench_start "$tmp/$n.out" "$tmp/$n.log" "$tttd" --port "$p" $common \
	    --redis "127.0.0.1:$bench_redis_port" --node "$n"
	eval "pid_$n=$bench_pid port_$n=$p"
	bench_port "$tmp/$n.out" "$bench_pid" >/dev/null ||
	    die "node $n did not start"
done
# shellcheck disable=SC2086
bench_start "$tmp/alone.out" "$tmp/alone.log" "$tttd" --port 0 $common
pid_alone=$bench_pid
port_alone=$(bench_port "$tmp/alone.out" "$bench_pid") ||
    die "the standalone tttd did not start"
_i=0
until [ "$(bench_stat "$port_a" cluster_nodes)" = 2 ] &&
    [ "$(bench_stat "$port_b" cluster_nodes)" = 2 ]; do
	_i=$((_i + 1))
	[ $_i -lt 50 ] || die "the nodes never saw each other"
	sleep 0.2
done
say "redis-server on $bench_redis_port, nodes a on $port_a and b on" \
    "$port_b, standalone tttd on $port_alone"

# check OUT NAME: the bench's run was clean.
check() {
	for k in connect_errors drops errs bad; do
		[ "$(bench_json "$1" $k)" = 0 ] ||
		    die "$2: $k=$(bench_json "$1" $k)"
	done
}

# 1. Redis per move.
redis_snap "$tmp/s0"
t0=$(now_ms)
sleep "$idle"
redis_snap "$tmp/s1"
t1=$(now_ms)
m0=$(bench_stat "$port_a" moves)
redis_snap "$tmp/s2"
t2=$(now_ms)
"$bench" 127.0.0.1 "$port_a" --mode game --conns "$oconns" --think "$othink" \
    --think-jitter 50 --duration "$secs" --warmup 1 --json \
    >"$tmp/ops.json" 2>"$tmp/ops.err" || die "ops: ttt-bench exited $?"
check "$tmp/ops.json" ops
sleep 1
redis_snap "$tmp/s3"
t3=$(now_ms)
m1=$(bench_stat "$port_a" moves)
moves=$((m1 - m0))
say "Redis per move: $moves moves on node a ($oconns players, --think" \
    "$othink), $((t3 - t2)) ms, less $((t1 - t0)) ms idle"
# The per-command and byte deltas, idle subtracted at its rate.
awk -v mv="$moves" -v el="$((t3 - t2))" -v iel="$((t1 - t0))" '
FILENAME ~ /s0$/ { i0[$1] = $2; next }
FILENAME ~ /s1$/ { i1[$1] = $2; next }
FILENAME ~ /s2$/ { r0[$1] = $2; next }
{ r1[$1] = $2; keys[$1] = 1 }
END {
	for (k in keys) {
		d = r1[k] - r0[k]
		bg = (i1[k] - i0[k]) * el / iel
		if (k ~ /^total_net/) {
			net[k] = (d - bg) / mv
			continue
		}
		if (d == 0)
			continue
		n = d - bg
		tot += n
		printf "  %-12s %7d in the run, %6.1f idle: %.3f a move\n", k, d, bg, n / mv
		if (k == "evalsha" || k == "eval")
			sv += n
	}
	printf "KEEP_OPS moves=%d scripts_per_move=%.3f commands_per_move=%.3f bytes_in_per_move=%.0f bytes_out_per_move=%.0f\n", mv, sv / mv, tot / mv, net["total_net_input_bytes"], net["total_net_output_bytes"]
}' "$tmp/s0" "$tmp/s1" "$tmp/s2" "$tmp/s3"

# run NAME TARGET ROUND: one run; a KEEP_RUN line.
run() {
	eval "port=\$port_$2 pid=\$pid_$2"
	case $1 in
	full)	args="--conns $gconns --think 0" ;;
	lat)	args="--conns $lconns --think $lthink --think-jitter 50 --ramp 1000" ;;
	esac
	m0=$(bench_stat "$port" moves)
	c0=$(bench_cpu "$pid")
	r0=$(bench_cpu "$rpid")
	# shellcheck disable=SC2086
	"$bench" 127.0.0.1 "$port" --mode game $args --duration "$secs" \
	    --warmup 1 --json >"$tmp/run.json" 2>"$tmp/run.err" ||
	    die "$1 $2: ttt-bench exited $?"
	c1=$(bench_cpu "$pid")
	r1=$(bench_cpu "$rpid")
	m1=$(bench_stat "$port" moves)
	check "$tmp/run.json" "$1 $2"
	[ "$2" = node ] || r1=$r0
	awk -v n="$1" -v t="$2" -v r="$3" -v mv="$((m1 - m0))" \
	    -v c="$((c1 - c0))" -v rc="$((r1 - r0))" -v hz="$tck" \
	    -v ops="$(bench_json "$tmp/run.json" ops_per_s)" \
	    -v p50="$(bench_json "$tmp/run.json" p50_us)" \
	    -v p99="$(bench_json "$tmp/run.json" p99_us)" 'BEGIN {
		printf "KEEP_RUN run=%s target=%s round=%d moves_per_s=%s p50_us=%s p99_us=%s cpu_us_per_move=%.1f redis_cpu_us_per_move=%.1f\n",
		    n, t, r, ops, p50, p99, (c + rc) * 1e6 / hz / mv,
		    rc * 1e6 / hz / mv }' | tee -a "$tmp/runs"
}

# 2. Rounds; node a is "node".
pid_node=$pid_a
port_node=$port_a
: >"$tmp/runs"
r=1
while [ $r -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order="alone node"; else order="node alone"; fi
	for t in $order; do run full "$t" "$r"; done
	for t in $order; do run lat "$t" "$r"; done
	r=$((r + 1))
done
# med RUN TARGET FIELD: the median of a field over the rounds.
med() {
	grep "run=$1 target=$2 " "$tmp/runs" |
	    sed -n "s/.* $3=\([^ ]*\).*/\1/p" | median
}
for n in full lat; do
	for t in alone node; do
		say "median $n $t: $(med $n $t moves_per_s) moves/s, p50" \
		    "$(med $n $t p50_us) us, p99 $(med $n $t p99_us) us," \
		    "$(med $n $t cpu_us_per_move) us of server CPU a move" \
		    "($(med $n $t redis_cpu_us_per_move) of it Redis's)"
	done
done
say "node / alone: full-speed moves/s $(ratio "$(med full node moves_per_s)" \
    "$(med full alone moves_per_s)"); at $lconns players --think $lthink:" \
    "p50 $(ratio "$(med lat node p50_us)" "$(med lat alone p50_us)")," \
    "p99 $(ratio "$(med lat node p99_us)" "$(med lat alone p99_us)")," \
    "server CPU a move $(ratio "$(med lat node cpu_us_per_move)" \
    "$(med lat alone cpu_us_per_move)")"
