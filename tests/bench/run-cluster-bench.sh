#!/bin/sh
# run-cluster-bench.sh BUILD_DIR -- one tttd against two nodes of a
# cluster (tttd --redis, one redis-server), on loopback, in BENCH_ROUNDS
# (3) rounds, the order of the runs turned each round:
#
#   game-one      GAME_CONNS (400) players at full speed (--think 0) on one
#                 tttd (no --redis)
#   game-two      the same players spread over two nodes (connection i to
#                 node i mod 2), all at once: each node pairs its own
#                 players, so few matches are across the nodes
#   game-cross    the same, let in at CROSS_RAMP (100) a second: each
#                 player is the only new one on its node when it becomes
#                 ready, so it is paired with the one waiting on the
#                 other node, and every match is across the two
#   lat-one       LAT_CONNS (1000) players thinking LAT_THINK (100) ms
#                 +- 50 % before each move (a fixed load), let in at
#                 CROSS_RAMP a second, on one tttd
#   lat-two       the same over two nodes, all at once (local matches)
#   lat-cross     the same over two nodes at CROSS_RAMP (matches across)
#
# RUNS picks some of them (all, by default).  Each run starts its own
# servers (and Redis) and stops them; BENCH_SECONDS (10) are measured, a
# second after the last player is in (--warmup 1: tttd pairs a player
# half a second after it came).  Per run: moves/s, p50 and p99 (all
# moves, and each node's players apart: in a match across nodes, the
# match's node answers its own player, while the other's moves go
# through Redis twice), the CPU of ttt-bench, of each node and of Redis
# over the measured time (in % of a core; the servers' also in
# microseconds a move), and the matches across nodes (from the nodes'
# logs: "to a match on node" on the relaying node).  Then the
# medians and the ratios two / one, and Redis's own PUBLISH rate with one
# subscriber (redis-benchmark, PUB_PIPELINE 1 and 16; skipped with
# PUB_PIPELINE=none).  BENCH=another ttt-bench.  Exits 1 when a run had a
# connect error, drop or ERR line, or a server did not start.
set -eu
build=${1:?usage: run-cluster-bench.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"

secs=${BENCH_SECONDS:-10}
rounds=${BENCH_ROUNDS:-3}
gconns=${GAME_CONNS:-400}
lconns=${LAT_CONNS:-1000}
lthink=${LAT_THINK:-100}
xramp=${CROSS_RAMP:-100}
pipes=${PUB_PIPELINE:-1 16}
bench=${BENCH:-$build/tests/bench/ttt-bench}
tttd=$build/server/tttd
tck=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-cluster-bench.XXXXXX")
bpid=
subpid=
cleanup() {
	set +e
	[ -n "$bpid" ] && kill "$bpid" 2>/dev/null
	[ -n "$subpid" ] && kill "$subpid" 2>/dev/null
	bench_stop_all
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
failed=0

say() { echo "run-cluster-bench: $*"; }
die() {
	say "$*" >&2
	for f in "$tmp"/*.log "$tmp"/bench.out; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
	done
	exit 1
}
[ "$secs" -ge 2 ] || die "BENCH_SECONDS must be 2 or more"
# metric HTTP_PORT NAME: a STATS counter from the node's /metrics.
metric() {
	curl -s --max-time 5 "http://127.0.0.1:$1/metrics" |
	    awk -v n="tttd_$2" '$1 == n { print $2 }'
}
# median: of the numbers on stdin.
median() {
	sort -n | awk '{ a[NR] = $1 }
	END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2];
	    else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# start_redis: a redis-server on a free port: $rport, $rpid.
start_redis() {
	bench_redis "$tmp/redis.out" "$tmp/redis.log" ||
	    die "redis-server did not start"
	rpid=$bench_pid
	rport=$bench_redis_port
}

# start_node N [ARGS...]: tttd n<N> on a free port: $pid<N>, $port<N>,
# $http<N>.
start_node() {
	_n=$1
	shift
	bench_start "$tmp/n$_n.out" "$tmp/n$_n.log" "$tttd" --port 0 \
	    --http-port any --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
	    --max-clients 20000 "$@"
	eval "pid$_n=$bench_pid"
	_p=$(bench_port "$tmp/n$_n.out" "$bench_pid") ||
	    die "n$_n did not start"
	eval "port$_n=$_p"
	_i=0
	until _h=$(sed -n 's/.* http on .*:\([0-9]*\)$/\1/p' \
	    "$tmp/n$_n.out") && [ -n "$_h" ]; do
		_i=$((_i + 1))
		[ $_i -lt 50 ] || die "n$_n has no HTTP port"
		sleep 0.1
	done
	eval "http$_n=$_h"
}

# run NAME ROUND NODES CONNS THINK RAMP: servers up, one ttt-bench, the
# CPU over the middle of the measured time, servers down; a row in
# $tmp/rows.
run() {
	name=$1 round=$2 nnodes=$3 conns=$4 think=$5 ramp=$6
	pids=
	if [ "$nnodes" = 1 ]; then
		start_node 1
		ports=$port1
		pids=$pid1
		rpid=
	else
		start_redis
		start_node 1 --redis "127.0.0.1:$rport" --node n1
		start_node 2 --redis "127.0.0.1:$rport" --node n2
		ports=$port1,$port2
		pids="$pid1 $pid2"
		for h in $http1 $http2; do
			_i=0
			until [ "$(metric "$h" cluster_nodes)" = 2 ]; do
				_i=$((_i + 1))
				[ $_i -lt 100 ] || die "$name: the nodes do not see each other"
				sleep 0.1
			done
		done
	fi
	if [ "$ramp" = 0 ]; then
		up=0
	else
		up=$(awk -v c="$conns" -v r="$ramp" 'BEGIN { print c / r }')
	fi
	"$bench" 127.0.0.1 "$ports" --mode game --conns "$conns" \
	    --think "$think" --think-jitter 50 --ramp "$ramp" --warmup 1 \
	    --duration "$secs" \
	    --src 127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4 \
	    >"$tmp/bench.out" 2>&1 &
	bpid=$!
	# Half a second into the measured time (after the ramp and a second's
	# warm-up: tttd pairs players half a second old), for SECS - 1 s.
	win=$((secs - 1))
	sleep "$(awk -v u="$up" 'BEGIN { print u + 1.5 }')"
	c0= b0=$(bench_cpu "$bpid")
	for p in $pids $rpid; do
		c0="$c0 $(bench_cpu "$p")"
	done
	t0=$(date +%s.%N)
	sleep "$win"
	c1= b1=$(bench_cpu "$bpid")
	for p in $pids $rpid; do
		c1="$c1 $(bench_cpu "$p")"
	done
	t1=$(date +%s.%N)
	wait "$bpid" || failed=1
	bpid=
	grep -q '^RESULT' "$tmp/bench.out" || die "$name: no RESULT"
	for p in $pids $rpid; do
		bench_stop "$p" >/dev/null 2>&1 || true
	done
	bench_pids=
	matches=0 cross=0
	for n in $(seq 1 "$nnodes"); do
		m=$(grep -c ': client .* vs client ' "$tmp/n$n.log" || true)
		x=$(grep -c 'to a match on node' "$tmp/n$n.log" || true)
		matches=$((matches + m))
		cross=$((cross + x))
		eval "rel$n=$x"
	done
	# CPU in % of a core: n1 [n2 redis]; us a move from the total.
	cpu=$(echo "$c0 $c1" | awk -v t="$(awk -v a="$t0" -v b="$t1" \
	    'BEGIN { print b - a }')" -v k="$tck" '{
		n = NF / 2
		for (i = 1; i <= n; i++)
			printf "%.1f ", ($(i + n) - $i) * 100 / k / t
	}')
	bcpu=$(awk -v c=$((b1 - b0)) -v k="$tck" -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.1f", c * 100 / k / (b - a) }')
	ops=$(bench_field "$tmp/bench.out" ops_per_s)
	us=$(echo "$cpu" | awk -v o="$ops" '{
		s = 0; for (i = 1; i <= NF; i++) s += $i
		printf "%.1f", (o > 0 ? s * 10000 / o : 0) }')
	rus=-
	[ "$nnodes" = 2 ] && rus=$(echo "$cpu" | awk -v o="$ops" \
	    '{ printf "%.1f", (o > 0 ? $3 * 10000 / o : 0) }')
	bad=0
	for k in connect_errors drops errs bad; do
		v=$(bench_field "$tmp/bench.out" $k)
		[ "$v" = 0 ] || { bad=1; failed=1; }
	done
	# The players of the node that relays more (in a match across the
	# nodes: the ones whose moves go through Redis), then the others'.
	lat="- - - -"
	if [ "$nnodes" = 2 ]; then
		rp=$port1 lp=$port2
		[ "$rel1" -ge "$rel2" ] || { rp=$port2 lp=$port1; }
		lat=$(for p in $rp $lp; do
			sed -n "s/^PORT port=$p .* p50_us=\([0-9]*\) .* p99_us=\([0-9]*\) .*/\1 \2/p" "$tmp/bench.out"
		done | tr '\n' ' ')
	fi
	echo "$name $round $ops $(bench_field "$tmp/bench.out" p50_us) $(bench_field "$tmp/bench.out" p99_us) $lat $us $rus $cross/$matches $bad $bcpu $cpu" >>"$tmp/rows"
	grep -h '^RESULT\|^PORT' "$tmp/bench.out" | sed "s/^/$name round $round: /"
	[ "$bad" = 0 ] || say "$name round $round: errors (above)"
}

names=${RUNS:-game-one game-two game-cross lat-one lat-two lat-cross}
say "BENCH_SECONDS=$secs BENCH_ROUNDS=$rounds GAME_CONNS=$gconns LAT_CONNS=$lconns LAT_THINK=$lthink CROSS_RAMP=$xramp"
: >"$tmp/rows"
r=1
while [ "$r" -le "$rounds" ]; do
	# Turn the order by one each round.
	order=$(echo $names | awk -v r="$r" '{
		for (i = 0; i < NF; i++) printf "%s ", $(((i + r - 1) % NF) + 1) }')
	for name in $order; do
		case $name in
		game-one)	run "$name" "$r" 1 "$gconns" 0 0 ;;
		game-two)	run "$name" "$r" 2 "$gconns" 0 0 ;;
		game-cross)	run "$name" "$r" 2 "$gconns" 0 "$xramp" ;;
		lat-one)	run "$name" "$r" 1 "$lconns" "$lthink" "$xramp" ;;
		lat-two)	run "$name" "$r" 2 "$lconns" "$lthink" 0 ;;
		lat-cross)	run "$name" "$r" 2 "$lconns" "$lthink" "$xramp" ;;
		esac
	done
	r=$((r + 1))
done

echo
echo "run          round  moves/s  p50us  p99us  relaying node's players p50/p99us  the other node's  us/move  Redis's  cross/matches  errors  CPU%: ttt-bench, n1 [n2 redis]"
sort -k1,1 -k2,2n "$tmp/rows" | awk '{
	printf "%-12s %5s %8s %6s %6s  %16s  %16s  %7s  %7s  %13s  %6s ",
	    $1, $2, $3, $4, $5, $6 "/" $7, $8 "/" $9, $10, $11, $12, $13
	printf " %s,", $14
	for (i = 15; i <= NF; i++) printf " %s", $i
	printf "\n" }'
echo
for name in $names; do
	f() { awk -v n="$name" -v c="$1" '$1 == n { print $c }' "$tmp/rows" |
	    median; }
	v=$(echo $name | tr - _)
	eval "m_ops_$v=$(f 3) m_p50_$v=$(f 4) m_p99_$v=$(f 5) m_rp50_$v=$(f 6) m_rp99_$v=$(f 7)"
	case $name in
	*-one)	say "median $name: $(f 3) moves/s, p50 $(f 4) us, p99 $(f 5) us; $(f 10) us of tttd CPU a move" ;;
	*)	say "median $name: $(f 3) moves/s, p50 $(f 4) us, p99 $(f 5) us (the relaying node's players $(f 6) / $(f 7) us, the other's $(f 8) / $(f 9) us); $(f 10) us of server CPU a move, $(f 11) us of it Redis's" ;;
	esac
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
[ -n "${m_ops_game_one:-}" ] && [ -n "${m_ops_game_two:-}" ] &&
    [ -n "${m_ops_game_cross:-}" ] &&
    say "moves/s, two nodes / one: $(ratio "$m_ops_game_two" "$m_ops_game_one") (local matches), $(ratio "$m_ops_game_cross" "$m_ops_game_one") (matches across the nodes)"
[ -n "${m_p50_lat_one:-}" ] && [ -n "${m_p50_lat_cross:-}" ] &&
    say "latency, matches across two nodes / one node: p50 $(ratio "$m_p50_lat_cross" "$m_p50_lat_one"), p99 $(ratio "$m_p99_lat_cross" "$m_p99_lat_one"); the relaying node's players alone: p50 $(ratio "$m_rp50_lat_cross" "$m_p50_lat_one"), p99 $(ratio "$m_rp99_lat_cross" "$m_p99_lat_one")"

# Redis alone: PUBLISH to a channel with one subscriber, as a node's
# inbox has; a 100-byte message (a move costs Redis 2.0 PUBLISH and about
# 265 bytes each way: run-cluster-ops.sh).
if [ "$pipes" != none ] && command -v redis-benchmark >/dev/null; then
	start_redis
	redis-cli -p "$rport" subscribe tttd:to:bench >/dev/null 2>&1 &
	subpid=$!
	sleep 0.3
	msg=$(printf '%100s' '' | tr ' ' x)
	for pl in $pipes; do
		c0=$(bench_cpu "$rpid")
		rps=$(redis-benchmark -p "$rport" -c 50 -n 500000 -P "$pl" --csv \
		    PUBLISH tttd:to:bench "$msg" | awk -F'"' 'NR == 2 { print $4 }')
		c1=$(bench_cpu "$rpid")
		say "redis-benchmark PUBLISH, 50 clients, pipeline $pl, one subscriber: $rps a second; redis-server CPU $(awk -v c=$((c1 - c0)) -v k="$tck" 'BEGIN { printf "%.2f", c / k * 1e6 / 500000 }') us a PUBLISH"
	done
	kill "$subpid" 2>/dev/null || true
	subpid=
	bench_stop "$rpid" >/dev/null 2>&1 || true
	bench_pids=
fi
exit "$failed"
