#!/bin/sh
# test_rolling.sh BUILD_DIR -- a rolling restart of a cluster under load
# loses no game (docs/cluster.md, "Draining a node").  Three tttd nodes a,
# b, c on a redis-server of the test's own, each on a fixed port below the
# kernel's ephemeral range (so that no player's outgoing connection can
# take it while its node is down); ttt-bench --resume plays ROLL_CONNS
# (300) players on them, thinking 100 ms ± 50 % before each move, while
# each node in turn is drained (SIGUSR2: it must exit 0), started again
# on its port with its name, and waited for until it counts three nodes
# (STATS: STAT cluster_nodes 3).  From the bench's --json report: games
# finished, players resumed, and no game lost, no RESUME refused, no
# player gave up, no drop, connect error, ERR or bad line.  No timing is
# asserted; the drain times and the bench's figures are printed.
#
# ROLL_SIGNAL=TERM stops the nodes with SIGTERM instead of draining them,
# to see the test fail: SIGTERM ends its players' connections with "BYE
# Server shutting down." (drops, not losses).  A node so stopped keeps its
# name for --node-timeout: it is started again 6 s later.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tttd=$build/server/tttd
conns=${ROLL_CONNS:-300}
sig=${ROLL_SIGNAL:-USR2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-rolling.XXXXXX")
load=
trap 'set +e; [ -z "$load" ] || kill "$load" 2>/dev/null; bench_stop_all
    rm -rf "$tmp"' EXIT

fail() {
	echo "test_rolling: $*" >&2
	for f in "$tmp"/*; do
		echo "--- $f" >&2
		tail -n 15 "$f" >&2
	done
	exit 1
}

command -v redis-server >/dev/null || { echo "no redis-server" >&2; exit 77; }
command -v nc >/dev/null || { echo "no nc" >&2; exit 77; }
bench_redis "$tmp/redis.out" "$tmp/redis.log" || fail "redis-server"

# node NAME PORT: start (or start again) a node; its pid in node_NAME.
# Its log of this start in NAME.log.N, N counting the starts.
node() {
	eval "_k=\$((\${starts_$1:-0} + 1)); starts_$1=\$_k"
	bench_node "$tmp/$1.out" "$tmp/$1.log.$_k" "$tttd" "$1" "$2" ||
	    fail "node $1 did not start on port $2"
	eval "node_$1=$bench_pid"
}

# wait_nodes PORT N: until the node on PORT sees N nodes (10 s at most).
wait_nodes() {
	bench_wait_nodes "$1" "$2" || fail "the node on $1 never saw $2 nodes"
}

# now_ms: milliseconds since the epoch.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

pa=$(bench_low_port)
pb=$(bench_low_port "$pa")
pc=$(bench_low_port "$pb")
[ "$pc" != "$pa" ] || pc=$(bench_low_port "$pb")
node a "$pa"
node b "$pb"
node c "$pc"
wait_nodes "$pa" 3
wait_nodes "$pb" 3
wait_nodes "$pc" 3

# 45 s: enough for three drains and restarts with room to spare; that the
# bench still runs after the last one is checked below.
"$bench" 127.0.0.1 "$pa,$pb,$pc" --mode game --conns "$conns" \
    --duration 45 --think 100 --think-jitter 50 --warmup 1 \
    --resume --reconnect-for 30 --json >"$tmp/bench.json" \
    2>"$tmp/bench.err" &
load=$!
sleep 5
for n in a b c; do
	eval "pid=\$node_$n"
	eval "port=\$p$n"
	t0=$(now_ms)
	kill "-$sig" "$pid"
	wait "$pid" && rc=0 || rc=$?
	t1=$(now_ms)
	echo "test_rolling: node $n (port $port): SIG$sig, exited $rc" \
	    "after $((t1 - t0)) ms"
	[ "$rc" = 0 ] || fail "node $n exited $rc after SIG$sig, not 0"
	# Only a drain gives the name back: a node stopped otherwise holds
	# it until the others see it dead (--node-timeout, 5 s).
	[ "$sig" = USR2 ] || sleep 6
	node "$n" "$port"
	wait_nodes "$port" 3
	echo "test_rolling: node $n started again, sees 3 nodes after" \
	    "$(($(now_ms) - t1)) ms"
	sleep 4
done
kill -0 "$load" 2>/dev/null ||
    fail "ttt-bench ended before the last node was back: not under load"
wait "$load" && brc=0 || brc=$?
load=
cat "$tmp/bench.json"
f=$tmp/bench.json
echo "test_rolling: $(bench_json "$f" games) games, $(bench_json "$f" ops)" \
    "moves (p50 $(bench_json "$f" p50_us) us, p99 $(bench_json "$f" p99_us)" \
    "us); $(bench_json "$f" losses) losses, $(bench_json "$f" reconnects)" \
    "reconnects, $(bench_json "$f" resumes) resumes, loss to OK RESUME" \
    "p50 $(bench_json "$f" resume_p50_us) us, p99" \
    "$(bench_json "$f" resume_p99_us) us, max" \
    "$(bench_json "$f" resume_max_us) us"
bad=
for k in connect_errors drops errs bad resume_refused gave_up \
    lost_forfeits games_lost; do
	v=$(bench_json "$f" $k)
	[ "$v" = 0 ] || bad="$bad $k=${v:-none}"
done
for k in games resumes; do
	v=$(bench_json "$f" $k)
	[ -n "$v" ] && [ "$v" -gt 0 ] || bad="$bad $k=${v:-none}"
done
[ "$(bench_json "$f" held)" = "$conns" ] ||
    bad="$bad held=$(bench_json "$f" held)"
[ -z "$bad" ] || fail "not as it should be:$bad"
[ "$brc" = 0 ] || fail "ttt-bench exited $brc"
echo "test_rolling: three nodes drained and started again, no game lost"
