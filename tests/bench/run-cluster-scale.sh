#!/bin/sh
# run-cluster-scale.sh BUILD_DIR [PER_NODE] [THINK_MS] [SECONDS] -- a
# cluster of three tttd nodes (n1, n2, n3) on one redis-server, all on
# loopback, holding PER_NODE (default 19500) players each at once: six
# ttt-bench processes (each under its own descriptor limit, on two
# loopback source addresses each) of PER_NODE / 2 players, each spreading
# its connections over the three nodes' ports, playing whole games with
# THINK_MS (default 2000) before each move for SECONDS (default 30).
# Prints, per node, the players it holds, its RSS idle and loaded (bytes a
# connection), its CPU, descriptors and STATS counters (cluster_nodes,
# redis_connected, matches), the matches across nodes, Redis's RSS and
# CPU, every RESULT line, and one CLUSTER-SCALE line for scripts.  Exits 1
# if a node did not start or join, or a player was not held.  Everything
# it starts is stopped at the end.
set -eu
build=${1:?usage: run-cluster-scale.sh BUILD_DIR [PER_NODE] [THINK_MS] [SECONDS]}
per=${2:-19500}
think=${3:-2000}
secs=${4:-30}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"

nodes="1 2 3"
procs=6				# ttt-bench processes
conns=$((per * 3 / procs))	# players each (they spread over 3 nodes)
total=$((conns * procs))
ramp=1500			# connections a second, per process
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-cluster-scale.XXXXXX")
benches=
cleanup() {
	set +e
	for p in $benches; do
		kill "$p" 2>/dev/null || true
	done
	bench_stop_all
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

say() { echo "run-cluster-scale: $*"; }
die() {
	say "$*" >&2
	for f in "$tmp"/n*.log "$tmp"/redis.err; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
	done
	exit 1
}
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
redis_cmds() {
	redis-cli -p "$rport" info stats |
	    sed -n 's/^total_commands_processed:\([0-9]*\).*/\1/p'
}
# metric HTTP_PORT NAME: a STATS counter, from the node's /metrics.
metric() {
	curl -s --max-time 5 "http://127.0.0.1:$1/metrics" |
	    awk -v n="tttd_$2" '$1 == n { print $2 }'
}

if [ $((per % 2)) -ne 0 ] || [ "$conns" -gt 19900 ]; then
	die "PER_NODE must be even and at most 39800"
fi
# The figures are taken 4 s after the ramp, and for SECONDS / 2 more.
[ "$secs" -ge 10 ] || die "SECONDS must be 10 or more"

bench_redis "$tmp/redis.out" "$tmp/redis.err" || die "redis-server did not start"
rpid=$bench_pid
rport=$bench_redis_port

ports=
for n in $nodes; do
	bench_start "$tmp/n$n.out" "$tmp/n$n.log" "$build/server/tttd" \
	    --port 0 --http-port any --bind 127.0.0.1 --rate-limit 0 \
	    --max-per-addr 0 --max-clients $((per + 100)) \
	    --redis "127.0.0.1:$rport" --node "n$n"
	eval "pid$n=\$bench_pid"
	p=$(bench_port "$tmp/n$n.out" "$bench_pid") || die "n$n did not start"
	i=0
	until h=$(sed -n 's/.* http on .*:\([0-9]*\)$/\1/p' "$tmp/n$n.out") &&
	    [ -n "$h" ]; do
		i=$((i + 1))
		[ $i -lt 50 ] || die "n$n has no HTTP port"
		sleep 0.1
	done
	eval "http$n=$h"
	ports=${ports:+$ports,}$p
done
# Every node sees the three (a heartbeat a second).
for n in $nodes; do
	eval "h=\$http$n"
	i=0
	until [ "$(metric "$h" cluster_nodes)" = 3 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || die "n$n does not see 3 nodes"
		sleep 0.1
	done
done
for n in $nodes; do
	eval "rss0_$n=\$(rss \$pid$n)"
done
rrss0=$(rss "$rpid")

say "3 nodes on redis port $rport, node ports $ports; $procs ttt-bench x $conns players (each over the 3 nodes), think $think ms, $secs s"
k=0
while [ $k -lt $procs ]; do
	a=$((2 * k + 1))
	"$build/tests/bench/ttt-bench" 127.0.0.1 "$ports" --mode game \
	    --conns "$conns" --think "$think" --think-jitter 50 \
	    --ramp "$ramp" --duration "$secs" \
	    --src "127.0.0.$a,127.0.0.$((a + 1))" >"$tmp/bench-$k" 2>&1 &
	benches="$benches $!"
	k=$((k + 1))
done

# Measure once every connection is up (the ramp) and for half the run.
sleep $((conns / ramp + 4))
for n in $nodes; do
	eval "p=\$pid$n; h=\$http$n"
	eval "rss1_$n=$(rss "$p")"
	eval "fds_$n=$(ls "/proc/$p/fd" | wc -l)"
	eval "cpu0_$n=$(bench_cpu "$p")"
	# Less one: the /metrics request is a connection too.
	eval "cur_$n=$(($(metric "$h" connections_current) - 1))"
	eval "live_$n=$(metric "$h" matches_live)"
	eval "cn_$n=$(metric "$h" cluster_nodes)"
	eval "rc_$n=$(metric "$h" redis_connected)"
done
rrss1=$(rss "$rpid")
rcpu0=$(bench_cpu "$rpid")
rcmd0=$(redis_cmds)
t0=$(date +%s)
sleep $((secs / 2))
for n in $nodes; do
	eval "p=\$pid$n"
	eval "cpu1_$n=$(bench_cpu "$p")"
done
rcpu1=$(bench_cpu "$rpid")
rcmd1=$(redis_cmds)
t1=$(date +%s)
for p in $benches; do
	wait "$p" || true
done
benches=

tck=$(getconf CLK_TCK)
held=0 cerr=0 drops=0 errs=0
for f in "$tmp"/bench-*; do
	held=$((held + $(bench_field "$f" held)))
	cerr=$((cerr + $(bench_field "$f" connect_errors)))
	drops=$((drops + $(bench_field "$f" drops)))
	errs=$((errs + $(bench_field "$f" errs)))
done
sum=0 warn=0 matches=0 relayed=0
for n in $nodes; do
	eval "cur=\$cur_$n; r0=\$rss0_$n; r1=\$rss1_$n; fds=\$fds_$n"
	eval "c0=\$cpu0_$n; c1=\$cpu1_$n; live=\$live_$n; cn=\$cn_$n; rc=\$rc_$n"
	m=$(grep -c ': client .* vs client ' "$tmp/n$n.log" || true)
	x=$(grep -c 'to a match on node' "$tmp/n$n.log" || true)
	w=$(grep -c ' warn \| error ' "$tmp/n$n.log" || true)
	sum=$((sum + cur))
	matches=$((matches + m))
	relayed=$((relayed + x))
	warn=$((warn + w))
	[ "$cur" -gt 0 ] || die "n$n holds no players"
	say "n$n: $cur players (connections_current less this request), $live matches live, cluster_nodes $cn, redis_connected $rc; descriptors $fds; RSS idle $r0 KiB, loaded $r1 KiB: $(( (r1 - r0) * 1024 / cur )) bytes a connection; CPU $(( (c1 - c0) * 100 / tck / (t1 - t0) ))% of a core; matches run here $m, players relayed to another node's match $x; warnings and errors logged $w"
done
say "redis: RSS $rrss0 KiB idle, $rrss1 KiB loaded; CPU $(( (rcpu1 - rcpu0) * 100 / tck / (t1 - t0) ))% of a core; $(( (rcmd1 - rcmd0) / (t1 - t0) )) commands a second"
grep -h '^RESULT' "$tmp"/bench-*
say "held by the nodes $sum of $total; by ttt-bench at the end $held; connect errors $cerr, drops $drops, ERR $errs; $relayed of $matches matches across two nodes"
echo "CLUSTER-SCALE nodes=3 per_node=$per players=$total held_nodes=$sum held=$held connect_errors=$cerr drops=$drops errs=$errs matches=$matches cross=$relayed warnings=$warn"
[ "$sum" = "$total" ] && [ "$held" = "$total" ] && [ "$cerr" = 0 ] &&
    [ "$drops" = 0 ] && [ "$errs" = 0 ]
