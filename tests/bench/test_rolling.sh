#!/bin/sh
# test_rolling.sh BUILD_DIR -- a rolling restart of a cluster under load
# loses no game (docs/cluster.md, "Draining a node").  Three tttd nodes on
# a redis-server of the test's own; ttt-bench --resume plays on them
# while each node in turn is drained (SIGUSR2: it must exit 0) and
# started again on its port with its name.  From the bench's report: games
# were played and finished, players resumed, and no game was lost, no
# RESUME refused, no player gave up, no ERR line.  No timing is asserted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tttd=$build/server/tttd
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-rolling.XXXXXX")
trap 'bench_stop_all; rm -rf "$tmp"' EXIT

fail() {
	echo "test_rolling: $*" >&2
	for f in "$tmp"/*; do
		echo "--- $f" >&2
		tail -n 15 "$f" >&2
	done
	exit 1
}

command -v redis-server >/dev/null || { echo "no redis-server" >&2; exit 77; }
bench_redis "$tmp/redis.out" "$tmp/redis.log" || fail "redis-server"

# node NAME PORT: start (or start again) a node; its pid in node_NAME.
node() {
	bench_start "$tmp/$1.out" "$tmp/$1.log.new" "$tttd" --port "$2" \
	    --http-port 0 --bind 127.0.0.1 --redis "127.0.0.1:$bench_redis_port" \
	    --node "$1" --max-per-addr 0 --rate-limit 0
	eval "node_$1=$bench_pid"
	bench_port "$tmp/$1.out" "$bench_pid" >/dev/null ||
	    fail "node $1 did not start"
}

# nodes_of PORT: STAT cluster_nodes of the node on PORT.
nodes_of() {
	printf 'STATS\r\nQUIT\r\n' | timeout 2 nc -q 1 127.0.0.1 "$1" 2>/dev/null |
	    sed -n 's/^STAT cluster_nodes \([0-9]*\).*/\1/p'
}

# wait_nodes PORT N: until the node on PORT sees N nodes (10 s at most).
wait_nodes() {
	_i=0
	while [ "$(nodes_of "$1")" != "$2" ]; do
		_i=$((_i + 1))
		[ $_i -lt 50 ] || fail "the node on $1 never saw $2 nodes"
		sleep 0.2
	done
}

pa=$(bench_free_port)
pb=$(bench_free_port "$pa")
pc=$(bench_free_port "$pb")
node a "$pa"
node b "$pb"
node c "$pc"
wait_nodes "$pa" 3
wait_nodes "$pc" 3

"$bench" 127.0.0.1 "$pa,$pb,$pc" --mode game --conns 120 --duration 30 \
    --think 150 --think-jitter 50 --resume --reconnect-for 30 \
    >"$tmp/bench.out" 2>&1 &
load=$!
sleep 4
for n in a b c; do
	eval "pid=\$node_$n"
	eval "port=\$p$n"
	kill -USR2 "$pid"
	wait "$pid" && rc=0 || rc=$?
	cat "$tmp/$n.log.new" >>"$tmp/$n.log"
	[ "$rc" = 0 ] || fail "node $n exited $rc after SIGUSR2, not 0"
	echo "test_rolling: node $n drained"
	node "$n" "$port"
	wait_nodes "$port" 3
	sleep 3
done
wait "$load" || fail "ttt-bench exited $?"
grep '^RESULT' "$tmp/bench.out"
for k in connect_errors drops errs bad resume_refused gave_up games_lost \
    lost_forfeits; do
	[ "$(bench_field "$tmp/bench.out" $k)" = 0 ] || fail "$k is not 0"
done
for k in games resumes; do
	v=$(bench_field "$tmp/bench.out" $k)
	[ -n "$v" ] && [ "$v" -gt 0 ] || fail "$k is not above 0"
done
echo "test_rolling: three nodes drained and started again, no game lost"
