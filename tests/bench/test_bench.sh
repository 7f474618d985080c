#!/bin/sh
# test_bench.sh BUILD_DIR -- smoke test of the benchmark tools (ctest label
# bench): ttt-bench plays 2 s of games against a real tttd (and against
# two, its connections spread over their ports), pings
# ref-server for 2 s (in a closed loop, then open) and relays through
# ref-server --relay for 2 s, each without a connect error, drop or ERR
# line and with some work done; against a closed port it reports connect
# errors and exits 1.  With --resume --drop-every, players that close their
# own connections reconnect and take their seats back with RESUME: no game
# lost, no RESUME refused, every resume timed.  When tttd has an HTTP port
# (--http-port), games, resumes and PINGs over WebSocket (--ws) too, and
# --ws against the line port is refused.  With --register, every player
# signs in and every game is rated.  No timing is asserted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-bench-test.XXXXXX")
trap 'bench_stop_all; rm -rf "$tmp"' EXIT

fail() {
	echo "test_bench: $*" >&2
	for f in "$tmp"/*; do
		echo "--- $f" >&2
		tail -n 20 "$f" >&2
	done
	exit 1
}

# check NAME FIELD: the run's RESULT line has FIELD > 0 and no errors.
check() {
	for k in connect_errors drops errs bad; do
		[ "$(bench_field "$tmp/$1.out" $k)" = 0 ] ||
		    fail "$1: $k is not 0"
	done
	v=$(bench_field "$tmp/$1.out" "$2")
	[ -n "$v" ] && [ "$v" -gt 0 ] || fail "$1: $2 is not above 0"
}

# check_last NAME PAIRS: a game's last move timed to its RESULT once a
# game (games counted by X at its RESULT, last moves by the mover at the
# same line: at most one apart a pair, at the window's edges), and its
# percentiles in order.
check_last() {
	g=$(bench_field "$tmp/$1.out" games)
	n=$(bench_field "$tmp/$1.out" last_count)
	p50=$(bench_field "$tmp/$1.out" last_p50_us)
	p99=$(bench_field "$tmp/$1.out" last_p99_us)
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$1: last_count is not above 0"
	[ "$n" -ge $((g - $2)) ] && [ "$n" -le $((g + $2)) ] ||
	    fail "$1: last_count $n is not games $g"
	[ "$p50" -gt 0 ] && [ "$p99" -ge "$p50" ] ||
	    fail "$1: last_p50_us $p50, last_p99_us $p99"
}

# check_resume NAME: games were played and players resumed, none refused,
# none gave up, no game lost, and each resume's time is in the histogram.
check_resume() {
	check "$1" games
	check "$1" resumes
	for k in resume_refused gave_up games_lost lost_forfeits; do
		[ "$(bench_field "$tmp/$1.out" $k)" = 0 ] ||
		    fail "$1: $k is not 0"
	done
	[ "$(bench_field "$tmp/$1.out" resume_count)" = \
	    "$(bench_field "$tmp/$1.out" resumes)" ] ||
	    fail "$1: resume_count is not resumes"
}

bench_start "$tmp/tttd.out" "$tmp/tttd.log" "$build/server/tttd" --port 0 --http-port 0 \
    --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 --max-clients 20000
tttd=$bench_pid
port=$(bench_port "$tmp/tttd.out" "$tttd") || fail "tttd did not start"
"$bench" 127.0.0.1 "$port" --mode game --conns 20 --duration 2 \
    --src 127.0.0.1,127.0.0.2 >"$tmp/game.out" 2>&1 ||
    fail "game: ttt-bench exited $?"
grep '^RESULT' "$tmp/game.out"
check game games
check game ops
check_last game 10
# --register: every player signs in (a tttd with a --db file of its own),
# games are rated and none is not.
bench_start "$tmp/tttdr.out" "$tmp/tttdr.log" "$build/server/tttd" --port 0 \
    --http-port 0 --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
    --db "$tmp/r.db"
tttdr=$bench_pid
portr=$(bench_port "$tmp/tttdr.out" "$tttdr") || fail "tttd r did not start"
"$bench" 127.0.0.1 "$portr" --mode game --conns 20 --duration 2 \
    --warmup 1 --register b >"$tmp/rated.out" 2>&1 ||
    fail "rated: ttt-bench exited $?"
grep '^RESULT' "$tmp/rated.out"
check rated games
check rated rated
check_last rated 10
[ "$(bench_field "$tmp/rated.out" registered)" = 20 ] ||
    fail "rated: not 20 registered"
[ "$(bench_field "$tmp/rated.out" unrated)" = 0 ] ||
    fail "rated: games not rated"
# Two ports: connection i to the (i mod 2)th, so 10 players each; and a
# warm-up before the measured time.
bench_start "$tmp/tttd2.out" "$tmp/tttd2.log" "$build/server/tttd" --port 0 \
    --http-port 0 --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0
tttd2=$bench_pid
port2=$(bench_port "$tmp/tttd2.out" "$tttd2") || fail "tttd 2 did not start"
n0=$(grep -c ': connect from ' "$tmp/tttd.log")
"$bench" 127.0.0.1 "$port,$port2" --mode game --conns 20 --duration 2 \
    --warmup 0.5 --src 127.0.0.1,127.0.0.2 >"$tmp/game2.out" 2>&1 ||
    fail "game2: ttt-bench exited $?"
grep '^RESULT' "$tmp/game2.out"
check game2 games
[ "$(grep -c "^PORT port=\($port\|$port2\) conns=10 ops=[1-9]" \
    "$tmp/game2.out")" = 2 ] || fail "game2: no PORT line for each port"
[ $(($(grep -c ': connect from ' "$tmp/tttd.log") - n0)) = 10 ] &&
    [ "$(grep -c ': connect from ' "$tmp/tttd2.log")" = 10 ] ||
    fail "game2: not 10 players on each port"
bench_stop "$tttd2" || fail "tttd 2 exited $? on SIGTERM"
# Resume: each player closes its connection after every 4th move of its
# own and comes back with RESUME (tttd holds a seat 30 s by default).  A
# seat may come back 10 times at once: at most 5 or so moves a second
# each, well under that.
"$bench" 127.0.0.1 "$port" --mode game --conns 10 --duration 2 --think 50 \
    --resume --drop-every 4 >"$tmp/resume.out" 2>&1 ||
    fail "resume: ttt-bench exited $?"
grep '^RESULT' "$tmp/resume.out"
check_resume resume
bench_stop "$tttd" || fail "tttd exited $? on SIGTERM"

bench_start "$tmp/ref.out" "$tmp/ref.err" "$build/tests/bench/ref-server" 0
ref=$bench_pid
port=$(bench_port "$tmp/ref.out" "$ref") || fail "ref-server did not start"
"$bench" 127.0.0.1 "$port" --mode ping --conns 20 --duration 2 --ramp 100 \
    >"$tmp/ping.out" 2>&1 || fail "ping: ttt-bench exited $?"
grep '^RESULT' "$tmp/ping.out"
check ping ops
# Open loop, kernel receive times, progress lines, JSON.
"$bench" 127.0.0.1 "$port" --mode ping --conns 20 --duration 2 --think 5 \
    --think-jitter 50 --kstamp --progress --json >"$tmp/think.out" \
    2>"$tmp/think.err" || fail "think: ttt-bench exited $?"
cat "$tmp/think.out"
grep -q '"errs":0,"bad":0' "$tmp/think.out" || fail "think: errors"
grep -q '"ops":[1-9]' "$tmp/think.out" || fail "think: no ops"
grep -q 'pings/s' "$tmp/think.err" || fail "think: no progress lines"
bench_stop "$ref" || fail "ref-server exited $? on SIGTERM"

# Relay: pairs taking turns through ref-server --relay; each relay is
# acknowledged to its sender and passes the turn to its partner.
bench_start "$tmp/relay-srv.out" "$tmp/relay-srv.err" \
    "$build/tests/bench/ref-server" --relay 0
ref=$bench_pid
port=$(bench_port "$tmp/relay-srv.out" "$ref") ||
    fail "ref-server --relay did not start"
"$bench" 127.0.0.1 "$port" --mode relay --conns 20 --duration 2 \
    >"$tmp/relay.out" 2>&1 || fail "relay: ttt-bench exited $?"
grep '^RESULT' "$tmp/relay.out"
check relay ops
grep -q '^RESULT mode=relay ' "$tmp/relay.out" || fail "relay: mode"
grep -q '^relays: ' "$tmp/relay.out" || fail "relay: no relays line"
# Against the plain ref-server nobody is ever told it is its turn.
bench_stop "$ref" || fail "ref-server --relay exited $? on SIGTERM"
bench_start "$tmp/ref2.out" "$tmp/ref2.err" "$build/tests/bench/ref-server" 0
ref=$bench_pid
port=$(bench_port "$tmp/ref2.out" "$ref") || fail "ref-server did not start"
"$bench" 127.0.0.1 "$port" --mode relay --conns 4 --duration 0.5 \
    >"$tmp/norelay.out" 2>&1 || fail "norelay: ttt-bench exited $?"
[ "$(bench_field "$tmp/norelay.out" ops)" = 0 ] ||
    fail "norelay: relays without a relaying server"
bench_stop "$ref" || fail "ref-server exited $? on SIGTERM"

# Nobody listens there now: every connection is a connect error.
if "$bench" 127.0.0.1 "$port" --mode ping --conns 3 --duration 0.1 \
    >"$tmp/refused.out" 2>&1; then
	fail "refused: ttt-bench exited 0"
fi
[ "$(bench_field "$tmp/refused.out" connect_errors)" = 3 ] ||
    fail "refused: connect_errors is not 3"

# WebSocket, when this tttd has it: games and PINGs through its HTTP port;
# its line port does not upgrade.
if "$build/server/tttd" --help 2>&1 | grep -q -- --http-port; then
	port=$(bench_free_port)
	hport=$(bench_free_port "$port")
	bench_start "$tmp/tttd-ws.out" "$tmp/tttd-ws.log" "$build/server/tttd" \
	    --port "$port" --http-port "$hport" --bind 127.0.0.1 \
	    --rate-limit 0 --max-per-addr 0 --max-clients 20000
	tttd=$bench_pid
	bench_wait_ping "$tttd" "$bench" "$tmp/probe.out" "$hport" --ws ||
	    fail "tttd did not answer on its HTTP port $hport"
	"$bench" 127.0.0.1 "$hport" --ws --mode game --conns 20 --duration 2 \
	    >"$tmp/ws-game.out" 2>&1 || fail "ws-game: ttt-bench exited $?"
	grep '^RESULT' "$tmp/ws-game.out"
	check ws-game games
	grep -q '^RESULT mode=game transport=ws ' "$tmp/ws-game.out" ||
	    fail "ws-game: transport"
	"$bench" 127.0.0.1 "$hport" --ws --mode game --conns 10 --duration 2 \
	    --think 50 --resume --drop-every 4 --json >"$tmp/ws-resume.out" \
	    2>&1 || fail "ws-resume: ttt-bench exited $?"
	cat "$tmp/ws-resume.out"
	grep -q '"drops":0,.*"errs":0,"bad":0' "$tmp/ws-resume.out" ||
	    fail "ws-resume: errors"
	grep -q '"resumes":[1-9][0-9]*,"resume_refused":0,"gave_up":0,"lost_forfeits":0,"games_lost":0' \
	    "$tmp/ws-resume.out" || fail "ws-resume: no resumes, or some lost"
	n=$(sed -n 's/.*"resumes":\([0-9]*\),.*/\1/p' "$tmp/ws-resume.out")
	grep -q "\"resume_count\":$n," "$tmp/ws-resume.out" ||
	    fail "ws-resume: resume_count is not resumes"
	"$bench" 127.0.0.1 "$hport" --ws --mode ping --conns 20 --duration 2 \
	    >"$tmp/ws-ping.out" 2>&1 || fail "ws-ping: ttt-bench exited $?"
	grep '^RESULT' "$tmp/ws-ping.out"
	check ws-ping ops
	if "$bench" 127.0.0.1 "$port" --ws --mode ping --conns 2 \
	    --duration 0.1 >"$tmp/ws-refused.out" 2>&1; then
		fail "ws-refused: ttt-bench exited 0"
	fi
	[ "$(bench_field "$tmp/ws-refused.out" connect_errors)" = 2 ] ||
	    fail "ws-refused: connect_errors is not 2"
	bench_stop "$tttd" || fail "tttd exited $? on SIGTERM"
else
	echo "test_bench: tttd has no --http-port: WebSocket not tested"
fi
echo "test_bench: ok"
