#!/bin/sh
# run-keep-death.sh BUILD_DIR [MATCHES] -- a node that owns MATCHES (1,000)
# matches is killed (SIGKILL) mid-game: how long until its players play
# on, and whether a game is lost (docs/cluster.md, "A node dies").
#
# Three tttd nodes a, b, c on a redis-server, on fixed free ports below
# the ephemeral range.  ttt-bench --resume is given the ports
# "B,A,B,C" and 4 x MATCHES connections: connection i goes to the
# (i mod 4)th port, so half go to b, and the other half to a and c,
# which are not started yet: those are refused at once (connect errors,
# 2 x MATCHES of them, expected; they never connect again).  So b holds
# 2 x MATCHES players, paired among themselves: b owns every match.  Then
# a and c start and join; the players play on, thinking THINK_MS (2,000)
# ms ± 50 % before each move (a seven-move game lasts about 14 s), and
# KILL_AFTER (12) s after the bench's ramp b gets SIGKILL.  Its players
# read the end of file and connect again to the port after b's in the
# list (a for connection 4k, c for 4k+2) and RESUME; a and c take b's
# matches up once b is seen dead (--node-timeout, 5 s) and answer.
#
# The bench's loss -> OK RESUME histogram is then the time from b's death
# to play going on (each loss is the EOF read at the death); its max is
# when the last one resumed.  Printed: b's matches and players at the
# kill, the bench's RESULT, its resume figures and games lost, and the
# nodes' "took up N matches" log lines, in ms after the kill, and the
# interim matches (below) and ERR lines.  Exit 1 if a game was lost, a
# RESUME refused, a player gave up, a connection was dropped, a bad line
# read, or a number of connect errors other than 2 x MATCHES.
#
# Every process is on this machine: tttd's --max-per-addr 0 (every player
# is 127.0.0.1), --rate-limit 0; ttt-bench raises its descriptor limit to
# the hard one (4 x MATCHES connections must fit), and b must have room
# for 2 x MATCHES players (--max-clients 10000 by default, and the
# descriptor limit: tttd says "descriptor limit N, up to M clients").
set -eu
build=${1:?usage: run-keep-death.sh BUILD_DIR [MATCHES]}
matches=${2:-1000}
think=${THINK_MS:-2000}
kill_after=${KILL_AFTER:-12}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
bench=${BENCH:-$build/tests/bench/ttt-bench}
tttd=$build/server/tttd
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-death.XXXXXX")
load=
trap 'set +e; [ -z "$load" ] || kill "$load" 2>/dev/null; bench_stop_all
    [ -z "${KEEP:-}" ] || cp -r "$tmp/." "$KEEP/"; rm -rf "$tmp"' EXIT

fail() {
	echo "run-keep-death: $*" >&2
	exit 1
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# node NAME PORT: start a node; its pid in pid_NAME.
node() {
	bench_node "$tmp/$1.out" "$tmp/$1.log" "$tttd" "$1" "$2" ||
	    fail "node $1 did not start on port $2"
	eval "pid_$1=$bench_pid"
}

# wait_nodes PORT N: until the node on PORT counts N nodes (10 s at most).
wait_nodes() {
	bench_wait_nodes "$1" "$2" || fail "the node on $1 never saw $2 nodes"
}

command -v redis-server >/dev/null || fail "no redis-server"
bench_redis "$tmp/redis.out" "$tmp/redis.log" || fail "redis-server"
pa=$(bench_low_port)
pb=$(bench_low_port "$pa")
pc=$(bench_low_port "$pb")
while [ "$pc" = "$pa" ]; do pc=$(bench_low_port "$pb"); done
node b "$pb"
wait_nodes "$pb" 1

conns=$((matches * 4))
dur=$((kill_after + 40))
"$bench" 127.0.0.1 "$pb,$pa,$pb,$pc" --mode game --conns "$conns" \
    --ramp 2000 --duration "$dur" --warmup 1 --think "$think" \
    --think-jitter 50 --resume --reconnect-for 30 --connect-timeout 5 \
    --progress >"$tmp/bench.out" 2>"$tmp/bench.err" &
load=$!
# The ramp: until b holds its players.
_i=0
until [ "$(bench_stat "$pb" connections_current)" -ge $((matches * 2)) ]; do
	_i=$((_i + 1))
	[ $_i -lt 300 ] || fail "b never held $((matches * 2)) players"
	kill -0 "$load" 2>/dev/null || fail "ttt-bench ended in its ramp"
	sleep 0.1
done
node a "$pa"
node c "$pc"
wait_nodes "$pa" 3
wait_nodes "$pc" 3
wait_nodes "$pb" 3
sleep "$kill_after"
m=$(bench_stat "$pb" matches_live)
p=$(bench_stat "$pb" connections_current)
mv=$(bench_stat "$pb" moves)
t0=$(now_ms)
kill -KILL "$pid_b"
echo "node b: $m matches, $p players, $mv moves so far; SIGKILL at $t0"
wait "$load" && brc=0 || brc=$?
load=
grep -v '^RESULT\|^PORT' "$tmp/bench.out" | grep -i 'resume\|lost' || :
grep '^RESULT' "$tmp/bench.out"
for n in a c; do
	eval "port=\$p$n"
	echo "node $n: $(bench_stat "$port" matches_live) matches live," \
	    "$(bench_stat "$port" resumes) resumes, $(bench_stat "$port" \
	    connections_current) players"
	# "2026-11-26T23:02:57.015Z info node a: took up 100 matches of ..."
	grep 'took up' "$tmp/$n.log" | while read -r ts rest; do
		s=$(date -d "$ts" +%s%N 2>/dev/null) || continue
		echo "  +$((s / 1000000 - t0)) ms: ${rest#* }"
	done
done
f=$tmp/bench.out
echo "KEEP_DEATH matches=$m players=$p think_ms=$think" \
    "resume_count=$(bench_field "$f" resume_count)" \
    "resume_p50_us=$(bench_field "$f" resume_p50_us)" \
    "resume_p99_us=$(bench_field "$f" resume_p99_us)" \
    "resume_max_us=$(bench_field "$f" resume_max_us)" \
    "games_lost=$(bench_field "$f" games_lost)" \
    "resume_refused=$(bench_field "$f" resume_refused)" \
    "gave_up=$(bench_field "$f" gave_up)"
# A player whose RESUME waits for the take-up sits in its new node's
# queue meanwhile and is paired there after half a second: that interim
# match is aborted when the RESUME is answered ("aborted by"), and a MOVE
# the bench sent in it runs in the resumed match (ERR NOT_YOUR_TURN, or a
# move played): reported, not a failure of this script.
echo "interim matches aborted: a $(grep -c 'aborted by' "$tmp/a.log")," \
    "c $(grep -c 'aborted by' "$tmp/c.log"); ERR lines read by the bench:" \
    "$(bench_field "$f" errs)"
bad=
for k in drops bad resume_refused gave_up lost_forfeits games_lost; do
	v=$(bench_field "$f" $k)
	[ "$v" = 0 ] || bad="$bad $k=${v:-none}"
done
[ "$(bench_field "$f" connect_errors)" = $((matches * 2)) ] ||
    bad="$bad connect_errors=$(bench_field "$f" connect_errors)"
[ -z "$bad" ] || fail "not as it should be:$bad (ttt-bench exited $brc)"
